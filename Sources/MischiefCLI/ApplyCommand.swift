import ArgumentParser
import Dispatch
import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import MischiefFiles

/// `mischief apply`: change a seam, or apply profiles from a file.
struct ApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a spec to a seam of a running target, or the profiles in a file.",
        discussion: """
            The change lasts until it is reverted (`mischief revert`), like a failpoint set over HTTP. With --hold \
            it belongs to a session instead and is reverted when the command ends (Ctrl-C, SIGTERM). With --ttl (or \
            ttl D after the spec) the target reverts it by itself when the time is up, whether or not anyone is still attached. Exits 1 \
            when the target refuses (the reason is printed), 3 when no target is found.
            """)

    @Argument(help: "The seam, such as clock.now.")
    var seam: String?

    @Argument(help: "The spec, such as 'shift(+1d)'.")
    var spec: String?

    @Argument(
        help: """
            More of the spec, when the shell split it at spaces; 'ttl D' at its end gives it a time to live, as the \
            console's palette (:) reads the same line: apply net.request 20%respond(status: 503) ttl 10m.
            """)
    var more: [String] = []

    @Option(name: .long, help: "A profile file (YAML): define its profiles on the target and apply them.")
    var profile: String?

    @Option(
        name: .long,
        help: "Revert the change (or every entry of the profiles) after this long, such as 30s, 10m or 1h (at most 1d)."
    )
    var ttl: String?

    @Option(
        name: .long,
        help:
            "Seed the spec's random parts: each target derives its own seed from this one and its label (name#n, or MISCHIEF_LABEL), so a fleet run is reproducible and its targets differ."
    )
    var seed: UInt64?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Apply only in the running tests of a test process this names (a scope's number, a test's name, or a pattern with * and ?); the other tests do not see it.",
            valueName: "name|pattern"))
    var scope: String?

    @Flag(name: .long, help: "Leave the change in place after the command ends (the default).")
    var keep = false

    @Flag(name: .long, help: "Hold the change only while the command runs; it is reverted when the command ends.")
    var hold = false

    @OptionGroup var target: TargetOptions

    @Flag(
        name: .customLong("all-targets"),
        help:
            "Apply on every live target (with --socket NAME, every target of that name), all at once; one row a target. Exits 1 if any refused."
    )
    var allTargets = false

    func validate() throws {
        if profile == nil, seam == nil || spec == nil {
            throw ValidationError("give a seam and a spec (mischief apply clock.now 'shift(+1d)'), or --profile FILE")
        }
        if profile != nil, seam != nil { throw ValidationError("give either a seam and a spec, or --profile FILE") }
        _ = try resolved()
        if keep, hold { throw ValidationError("--keep and --hold contradict each other") }
        if seed != nil, profile != nil {
            throw ValidationError("--seed seeds one seam's spec; a profile file has a seed of its own (seed: N)")
        }
        if allTargets, hold { throw ValidationError("--hold holds a change on one target; leave out --all-targets") }
        if scope != nil, profile != nil {
            throw ValidationError("--scope applies one seam's spec; leave out --profile")
        }
        if scope != nil, try resolved().ttl != nil {
            throw ValidationError("a change in a test's scope lasts until reverted or the test ends; leave out the ttl")
        }
        _ = try parsedTTL()
        try target.validateForAllTargets(allTargets)
    }

    /// The spec and time to live the line gives: the spec argument with the words after it, read as the console's
    /// palette reads `apply SEAM SPEC [ttl D]` (``ConsoleLine``), and `--ttl` or a trailing `ttl D` (not both).
    func resolved() throws -> (spec: String?, ttl: Duration?) {
        let flag = try parsedTTL()
        guard !more.isEmpty, let seam, let spec else { return (spec, flag) }
        let line: ConsoleLine
        do throws(ConsoleLine.ParseError) {
            line = try ConsoleLine(parsing: (["apply", seam, spec] + more).joined(separator: " "))
        } catch {
            throw ValidationError(error.message)
        }
        guard case .apply(_, let text, let words) = line else { return (spec, flag) }
        if words != nil, flag != nil { throw ValidationError("give the time to live once: ttl D or --ttl D") }
        if let words {
            do throws(MischiefError) { try Registry.check(ttl: words) } catch {
                throw ValidationError("ttl: \(error.description)")
            }
        }
        return (text, words ?? flag)
    }

    /// `--ttl` as a duration, checked as the target checks it.
    func parsedTTL() throws -> Duration? {
        guard let ttl else { return nil }
        let duration: Duration
        do throws(SpecError) {
            duration = try SpecDuration(parsing: ttl).duration
        } catch {
            throw ValidationError("--ttl: \(error.message)")
        }
        do throws(MischiefError) { try Registry.check(ttl: duration) } catch {
            throw ValidationError("--ttl: \(error.description)")
        }
        return duration
    }

    /// What to apply: a seam's spec, or a profile file's text; for a time to live when given.
    enum Work: Sendable {
        case spec(SeamID, String, ttl: Duration?, seed: UInt64?)
        case profiles(String, file: String, ttl: Duration?)
        case scoped(SeamID, String, scope: String, seed: UInt64?)
    }

    func run() async throws {
        let work: Work
        let (spec, ttl) = try resolved()
        if let profile {
            do { work = .profiles(try String(contentsOfFile: profile, encoding: .utf8), file: profile, ttl: ttl) } catch
            {
                printError("cannot read \(profile): \(error.localizedDescription)")
                throw TargetExit.refused
            }
        } else {
            do {
                let id = try SeamID(seam ?? "")
                if let scope {
                    work = .scoped(id, spec ?? "", scope: scope, seed: seed)
                } else {
                    work = .spec(id, spec ?? "", ttl: ttl, seed: seed)
                }
            } catch {
                printError(error)
                throw TargetExit.refused
            }
        }
        if allTargets {
            return try await AllTargets.run(named: target.socket) { client async throws(ControlClientError) in
                try await Self.apply(work, with: client).joined(separator: "; ")
            }
        }
        var client = try await target.connect()
        if hold {
            let session = try await talking { () async throws(ControlClientError) in
                try await client.openSession(SessionRequest(name: "mischief apply --hold"))
            }
            client.session = session.id
        }
        let done = try await talking { [client] () async throws(ControlClientError) in
            try await Self.apply(work, with: client)
        }
        for line in done { print(line) }
        guard hold, let session = client.session else { return }
        let signals = try SignalCatcher.install()
        print("holding until Ctrl-C or SIGTERM")
        // Into a pipe, stdout is buffered until exit: a script waiting for this line would wait for ever.
        fflush(nil)
        let stream = client.events(deltas: true)
        let holder = Task { for try await _ in stream {} }
        let signal = await signals.next()
        holder.cancel()
        _ = try? await client.endSession(session)
        throw ExitCode(128 + signal)
    }

    /// Applies `work` on the target `client` talks to; one line for each thing applied.
    static func apply(_ work: Work, with client: ControlClient) async throws(ControlClientError) -> [String] {
        switch work {
        case .spec(let id, let spec, let ttl, let seed):
            let detail = try await client.apply(spec, to: id, ttl: ttl, seed: seed)
            let expiry = ttl.map { " (reverts in \(SpecDuration($0)))" } ?? ""
            var seeded = ""
            if let seed {
                let label = try await client.handshake().label ?? ""
                seeded = " (seed \(SeededGenerator.seed(seed, for: label)) as \(label))"
            }
            return ["\(detail.seam.id): \(detail.seam.behaviourText ?? "original")\(expiry)\(seeded)"]
        case .scoped(let id, let spec, let scope, let seed):
            let result = try await client.apply(spec, to: id, inScopes: scope, seed: seed)
            return result.scopes.map { row in
                let layer = row.layers.last { $0.seam == id && $0.source != nil }
                return "\(id): \(layer?.spec ?? spec) in test #\(row.id) \(row.name) (seed \(layer?.seed ?? 0))"
            }
        case .profiles(let text, let file, let ttl):
            var lines: [String] = []
            let rows: [ProfileStatus]
            do {
                rows = try await client.define(profiles: text)
            } catch {
                throw error.naming(file)
            }
            for row in rows {
                _ = try await client.profile(row.profile.name, .apply, ttl: ttl)
                let count = row.profile.entries.count
                let expiry = ttl.map { ", reverts in \(SpecDuration($0))" } ?? ""
                lines.append(
                    "applied profile \(row.profile.name) (\(count) entr\(count == 1 ? "y" : "ies")\(expiry))")
            }
            return lines
        }
    }
}

extension ControlClientError {
    /// This error with the place the target names for a profile text it was sent (`request body:5:20: …`) given as
    /// the file the text came from (`profiles/bad.yaml:5:20: …`).
    func naming(_ file: String) -> ControlClientError {
        guard case .refused(let status, var body) = self else { return self }
        for prefix in ["request body:", "request body"] {
            body.error = body.error.replacingOccurrences(of: prefix, with: prefix.hasSuffix(":") ? file + ":" : file)
            body.detail = body.detail.replacingOccurrences(of: prefix, with: prefix.hasSuffix(":") ? file + ":" : file)
        }
        return .refused(status: status, body)
    }
}
