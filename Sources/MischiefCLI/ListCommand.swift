import ArgumentParser
import Dispatch
import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import MischiefFiles

/// `mischief list`: the running targets and their seams.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List running targets and their seams (and, for a live test session, its tests).",
        discussion: "Exits 3 when no target is serving.")

    @Option(name: .long, help: "Only this target: a socket path or a target name.")
    var socket: String?

    @Flag(
        name: .long,
        help:
            "Print JSON: an array of {schema, target, seams, guards, scopes}; scopes (the tests of a live test session) only when there are any; schema is 1."
    )
    var json = false

    @Flag(
        name: .customLong("all-targets"),
        help: "Every live target (the default without --socket); with --socket NAME, every target of that name.")
    var allTargets = false

    func validate() throws {
        try TargetOptions.validate(socket: socket, allTargets: allTargets)
    }

    struct Listing: Codable {
        /// The version of this shape (`seams[].id`, `calls`, `errors`, `behaviour`, `layers`, …); a change that renames
        /// or removes a field raises it.
        var schema = 1
        var target: TargetHeader
        var seams: [SeamSnapshot]
        var guards: [GuardStatus]
        /// The tests of a test process serving as a live session (`.liveTests`), with their scopes; absent otherwise.
        var scopes: [ScopeSnapshot]?
    }

    func run() async throws {
        let paths: [String]
        if allTargets {
            paths = try AllTargets.targets(named: socket).map(\.path)
        } else if let socket = socket ?? ProcessInfo.processInfo.environment["MISCHIEF_SOCKET"] {
            paths = [try TargetOptions.resolve(socket)]
        } else {
            paths = ControlSocket.find(in: ControlSocket.directory()).filter(\.isLive).map(\.path)
        }
        var listings: [Listing] = []
        for path in paths {
            let client = ControlClient.cli(socketPath: path)
            listings.append(
                try await talking { () async throws(ControlClientError) in
                    let target = try await client.handshake()
                    let scopes = try await Self.scopes(client)
                    return Listing(
                        target: target, seams: try await client.seams(), guards: try await Self.guards(client),
                        scopes: scopes.isEmpty ? nil : scopes)
                })
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(listings), as: UTF8.self))
        } else {
            for listing in listings { print(Self.table(listing)) }
        }
        if listings.isEmpty {
            printError(
                "no target is serving in \(ControlSocket.directory().path)\n  start one with `mischief demo --headless`"
            )
            throw TargetExit.noTarget
        }
    }

    /// The target's guards; none from a target that predates them (it answers 404).
    static func guards(_ client: ControlClient) async throws(ControlClientError) -> [GuardStatus] {
        do {
            return try await client.guards()
        } catch {
            if case .refused(404, _) = error { return [] }
            throw error
        }
    }

    /// The target's test scopes; none from a target that predates them (it answers 404).
    static func scopes(_ client: ControlClient) async throws(ControlClientError) -> [ScopeSnapshot] {
        do {
            return try await client.scopes()
        } catch {
            if case .refused(404, _) = error { return [] }
            throw error
        }
    }

    /// One line a test scope: number, status with its time, name, then its layers, its seams' counts and the input
    /// of each call its pauses hold (the first ``shownHeldCalls`` a seam, cut at ``heldInputWidth``). What the test
    /// process sent (a test's name, a spec, a source, an input) is one line with its controls escaped.
    static func scopeLines(_ scopes: [ScopeSnapshot], uptime: Double) -> [String] {
        var lines = ["  TESTS"]
        for scope in scopes {
            let seconds = String(format: "%.1f s", scope.duration(now: uptime))
            lines.append("  #\(scope.id)  \(scope.status.rawValue) \(seconds)  \(Registry.printableLine(scope.name))")
            for layer in scope.layers {
                let source = Registry.printableLine(layer.source ?? scope.ownSource)
                lines.append(
                    "      \(layer.seam): \(Registry.printableLine(layer.spec))  (\(source), seed \(layer.seed))")
            }
            for counts in scope.seams {
                var line = "      \(counts.seam): \(counts.calls) call\(counts.calls == 1 ? "" : "s")"
                if counts.errors > 0 { line += ", \(counts.errors) failed" }
                if counts.held > 0 { line += ", \(counts.held) held" }
                lines.append(line)
                for call in counts.heldCalls.prefix(shownHeldCalls) {
                    let input = Registry.printableLine(call.input)
                    let cut = input.count > heldInputWidth ? input.prefix(heldInputWidth - 1) + "…" : input
                    lines.append("        held \(cut)")
                }
            }
        }
        return lines
    }

    /// The held calls `list` shows a seam of a test.
    static let shownHeldCalls = 3
    /// The most characters of a held call's input `list` shows.
    static let heldInputWidth = 100

    /// `  (expires in 29s)` for a seam whose changes have a time to live (the soonest), else nothing.
    static func timeLeft(_ seam: SeamSnapshot) -> String {
        guard let left = seam.layers.compactMap(\.expiresIn).min() else { return "" }
        let seconds = Int(left.seconds.rounded(.up))
        return "  (expires in \(SpecDuration(.seconds(seconds))))"
    }

    static func table(_ listing: Listing) -> String {
        let target = listing.target
        var lines = ["\(target.name) (pid \(target.pid), seed \(target.sessionSeed)) \(target.socket ?? "")"]
        let width = max(4, listing.seams.map(\.id.rawValue.count).max() ?? 0)
        lines.append(
            "  " + "SEAM".padding(toLength: width, withPad: " ", startingAt: 0) + "  CALLS     STATUS         BEHAVIOUR"
        )
        for seam in listing.seams {
            lines.append(
                "  " + seam.id.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                    + "  " + String(seam.calls).padding(toLength: 8, withPad: " ", startingAt: 0)
                    + "  " + seam.status.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + "  " + (seam.behaviourText ?? "-") + timeLeft(seam))
            // What the seam reaches now, when it says (a system seam's coverage), under its row.
            for note in seam.notes { lines.append("      " + note) }
        }
        if !listing.guards.isEmpty { lines += [""] + GuardTable.lines(listing.guards) }
        if let scopes = listing.scopes, !scopes.isEmpty {
            lines += [""] + scopeLines(scopes, uptime: listing.target.uptime.seconds)
        }
        return lines.joined(separator: "\n")
    }
}
