import ArgumentParser
import Dispatch
import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import MischiefFiles

/// `mischief attach`: the console, over a running target's control socket.
struct AttachCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach the console to a running target through its control socket.",
        discussion: """
            With no argument it lists the live sockets it finds and attaches when there is exactly one. The \
            console holds a session: what it changes is reverted when it quits or is killed (unless --keep). A \
            lost connection shows in the header; the console reconnects when the target is back.
            """)

    @Argument(help: "The target's socket path, or its name (default: the only live target).")
    var socket: String?

    @OptionGroup var console: ConsoleOptions

    func run() async throws {
        let explicit = socket ?? ProcessInfo.processInfo.environment["MISCHIEF_SOCKET"]
        if explicit == nil { Self.listSockets() }
        let path = try TargetOptions.resolve(explicit)
        let name = ControlSocket.find(in: URL(fileURLWithPath: (path as NSString).deletingLastPathComponent))
            .first { $0.path == path }?.name
        let client = ControlClient(socketPath: path)
        // A target that does not answer now is an error, as for every command, before the screen is taken; "lost"
        // in the header is for a target that goes away later.
        _ = try await talking { () async throws(ControlClientError) in try await client.handshake() }

        // The user's profile files are defined on the target, with hot keys after the target's own.
        let presets = (try? await client.profiles()) ?? []
        let keysTaken = Dictionary(presets.compactMap { row in row.key.map { ($0, row.name) } }) { first, _ in first }
        let scratch = Registry()
        var setup = console.prepare(registry: scratch, keysTaken: keysTaken)
        if !scratch.profiles.isEmpty {
            let yaml = ProfileFile.yaml(scratch.profiles.map { ProfileFile($0.profile) })
            do { try await client.define(profiles: yaml) } catch { setup.messages.append("profiles not sent: \(error)") }
        }

        let user = ProcessInfo.processInfo.environment["USER"].map { " \($0)" } ?? ""
        let controller = RemoteController(
            sessionName: "console\(user) pid \(getpid())", keep: console.keep, saveDirectory: setup.saveDirectory
        ) {
            if FileManager.default.fileExists(atPath: path) || explicit != nil { return path }
            // The target restarted under a new pid: follow it when exactly one of that name is serving.
            let live = ControlSocket.find(in: ControlSocket.directory()).filter { $0.isLive && $0.name == name }
            return live.count == 1 ? live[0].path : path
        }
        let exit: ConsoleRunner.Exit
        do {
            exit = try await console.run(controller: controller, setup: setup)
        } catch {
            await controller.close()
            throw error
        }
        await controller.close()
        if case .signal(let signal) = exit { throw ExitCode(signal.exitStatus) }
    }

    static func listSockets() {
        let found = ControlSocket.find(in: ControlSocket.directory())
        guard !found.isEmpty else { return }
        var standardError = StandardError()
        for socket in found {
            print("\(socket.isLive ? "live " : "stale") \(socket.path)", to: &standardError)
        }
    }
}

/// `mischief list`: the running targets and their seams.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List running targets and their seams.",
        discussion: "Exits 3 when no target is serving.")

    @Option(name: .long, help: "Only this target: a socket path or a target name.")
    var socket: String?

    @Flag(name: .long, help: "Print JSON: an array of {target, seams}.")
    var json = false

    struct Listing: Codable {
        var target: TargetInfo
        var seams: [SeamRow]
    }

    func run() async throws {
        let paths: [String]
        if let socket = socket ?? ProcessInfo.processInfo.environment["MISCHIEF_SOCKET"] {
            paths = [try TargetOptions.resolve(socket)]
        } else {
            paths = ControlSocket.find(in: ControlSocket.directory()).filter(\.isLive).map(\.path)
        }
        var listings: [Listing] = []
        for path in paths {
            let client = ControlClient(socketPath: path)
            listings.append(try await talking { () async throws(ControlClientError) in
                let target = try await client.handshake()
                return Listing(target: target, seams: try await client.seams())
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
            printError("no target is serving in \(ControlSocket.directory().path)\n  start one with `mischief demo --headless`")
            throw TargetExit.noTarget
        }
    }

    static func table(_ listing: Listing) -> String {
        let target = listing.target
        var lines = ["\(target.name) (pid \(target.pid), seed \(target.sessionSeed)) \(target.socket ?? "")"]
        let width = max(4, listing.seams.map(\.id.rawValue.count).max() ?? 0)
        lines.append("  " + "SEAM".padding(toLength: width, withPad: " ", startingAt: 0) + "  CALLS     STATUS         BEHAVIOUR")
        for seam in listing.seams {
            lines.append(
                "  " + seam.id.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                    + "  " + String(seam.calls).padding(toLength: 8, withPad: " ", startingAt: 0)
                    + "  " + seam.status.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + "  " + (seam.behaviour ?? "-"))
        }
        return lines.joined(separator: "\n")
    }
}

/// `mischief apply`: change a seam, or apply profiles from a file.
struct ApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a spec to a seam of a running target, or the profiles in a file.",
        discussion: """
            The change lasts until it is reverted (`mischief revert`), like a failpoint set over HTTP. With --hold \
            it belongs to a session instead and is reverted when the command ends (Ctrl-C, SIGTERM). Exits 1 \
            when the target refuses (the reason is printed), 3 when no target is found.
            """)

    @Argument(help: "The seam, such as clock.now.")
    var seam: String?

    @Argument(help: "The spec, such as 'shift(+1d)'.")
    var spec: String?

    @Option(name: .long, help: "A profile file (YAML): define its profiles on the target and apply them.")
    var profile: String?

    @Flag(name: .long, help: "Leave the change in place after the command ends (the default).")
    var keep = false

    @Flag(name: .long, help: "Hold the change only while the command runs; it is reverted when the command ends.")
    var hold = false

    @OptionGroup var target: TargetOptions

    func validate() throws {
        if profile == nil, seam == nil || spec == nil {
            throw ValidationError("give a seam and a spec (mischief apply clock.now 'shift(+1d)'), or --profile FILE")
        }
        if profile != nil, seam != nil { throw ValidationError("give either a seam and a spec, or --profile FILE") }
        if keep, hold { throw ValidationError("--keep and --hold contradict each other") }
    }

    func run() async throws {
        var client = ControlClient(socketPath: try target.resolve())
        try await talking { () async throws(ControlClientError) in _ = try await client.handshake() }
        if hold {
            let session = try await talking { () async throws(ControlClientError) in
                try await client.openSession(SessionRequest(name: "mischief apply --hold"))
            }
            client.session = session.id
        }
        if let profile {
            let text: String
            do { text = try String(contentsOfFile: profile, encoding: .utf8) } catch {
                printError("cannot read \(profile): \(error.localizedDescription)")
                throw TargetExit.refused
            }
            let defined = try await talking { () async throws(ControlClientError) in
                try await client.define(profiles: text)
            }
            for row in defined {
                _ = try await talking { () async throws(ControlClientError) in try await client.profile(row.name, "apply") }
                print("applied profile \(row.name) (\(row.entryCount) entr\(row.entryCount == 1 ? "y" : "ies"))")
            }
        } else if let seam, let spec {
            let id: SeamID
            do { id = try SeamID(seam) } catch {
                printError(error)
                throw TargetExit.refused
            }
            let detail = try await talking { () async throws(ControlClientError) in try await client.apply(spec, to: id) }
            print("\(detail.seam.id): \(detail.seam.behaviour ?? "original")")
        }
        guard hold, let session = client.session else { return }
        let signals = try SignalCatcher.install()
        print("holding until Ctrl-C or SIGTERM")
        // Into a pipe, stdout is buffered until exit: a script waiting for this line would wait for ever.
        fflush(nil)
        let stream = client.events()
        let holder = Task { for try await _ in stream {} }
        let signal = await signals.next()
        holder.cancel()
        _ = try? await client.endSession(session)
        throw ExitCode(128 + signal)
    }
}

/// `mischief revert`: revert a seam, or everything.
struct RevertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Revert a seam of a running target, or everything with --all.")

    @Argument(help: "The seam to revert.")
    var seam: String?

    @Flag(name: .long, help: "Revert every change on every seam.")
    var all = false

    @OptionGroup var target: TargetOptions

    func validate() throws {
        guard (seam == nil) == all else { throw ValidationError("give a seam, or --all") }
    }

    func run() async throws {
        let client = ControlClient(socketPath: try target.resolve())
        try await talking { () async throws(ControlClientError) in _ = try await client.handshake() }
        if all {
            let result = try await talking { () async throws(ControlClientError) in try await client.revertAll() }
            print("reverted \(result.reverted) entr\(result.reverted == 1 ? "y" : "ies")")
        } else if let seam {
            let id: SeamID
            do { id = try SeamID(seam) } catch {
                printError(error)
                throw TargetExit.refused
            }
            let detail = try await talking { () async throws(ControlClientError) in try await client.revert(id) }
            print("\(detail.seam.id): \(detail.seam.behaviour ?? "original") (\(detail.seam.status.rawValue))")
        }
    }
}

/// `mischief watch`: counts as they change, for a plain terminal or a log.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a running target's call counts and events as they change.",
        discussion: """
            On a terminal it redraws a table in place; into a pipe or a file it writes one line per change \
            and per event. Ends with exit status 3 when the target goes away.
            """)

    @OptionGroup var target: TargetOptions

    @Flag(name: .long, help: "Write lines even on a terminal.")
    var lines = false

    @Option(name: .long, help: "Seconds between count lines or redraws (events are written as they come).")
    var interval: Double = 1

    func validate() throws {
        do throws(OutOfRange) {
            _ = try Seconds.duration(interval, field: "--interval", within: 0.05...86_400)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let client = ControlClient(socketPath: try target.resolve())
        let info = try await talking { () async throws(ControlClientError) in try await client.handshake() }
        let seams = try await talking { () async throws(ControlClientError) in try await client.seams() }
        var table = WatchTable(target: info, seams: seams)
        let live = !lines && isatty(1) == 1
        let clock = ContinuousClock()
        let every = (try? Seconds.duration(interval, field: "--interval", within: 0.05...86_400)) ?? .seconds(1)
        var lastOutput = clock.now - every
        var pending: [SeamID: CounterUpdate] = [:]
        do {
            for try await message in client.events() {
                switch message {
                case .hello, .other:
                    break
                case .event(let event):
                    table.note(event)
                    if !live { print(WatchTable.line(event)) }
                case .counters(let updates):
                    for update in updates { pending[update.seam] = update }
                }
                guard clock.now - lastOutput >= every else { continue }
                lastOutput = clock.now
                let changed = table.update(table.order.compactMap { pending[$0] } + pending.values.filter { !table.order.contains($0.seam) })
                pending.removeAll()
                if live {
                    print("\u{1B}[H\u{1B}[2J" + table.render(), terminator: "")
                } else {
                    for text in changed { print(text) }
                }
                fflush(nil)
            }
        } catch {
            printError(error)
            throw TargetExit.noTarget
        }
    }
}

/// The table `watch` keeps.
struct WatchTable {
    let target: TargetInfo
    var rows: [SeamID: CounterUpdate] = [:]
    var order: [SeamID]
    var recent: [String] = []

    init(target: TargetInfo, seams: [SeamRow]) {
        self.target = target
        self.order = seams.map(\.id)
    }

    mutating func note(_ event: EventRow) {
        recent.append(Self.line(event))
        if recent.count > 8 { recent.removeFirst(recent.count - 8) }
    }

    /// Takes updates; returns a log line for each.
    mutating func update(_ updates: [CounterUpdate]) -> [String] {
        var lines: [String] = []
        for update in updates {
            let before = rows[update.seam]
            rows[update.seam] = update
            if !order.contains(update.seam) { order.append(update.seam) }
            let delta = before.map { update.calls - $0.calls } ?? 0
            lines.append(
                "\(Self.timestamp()) \(update.seam) calls=\(update.calls) (+\(delta)) chaos=\(update.chaosCalls) "
                    + "errors=\(update.errors) \(update.status.rawValue)" + (update.behaviour.map { " \($0)" } ?? ""))
        }
        return lines
    }

    func render() -> String {
        let width = max(4, order.map(\.rawValue.count).max() ?? 0)
        var out = "\(target.name) (pid \(target.pid))  \(Self.timestamp())\n\n"
        out += "SEAM".padding(toLength: width, withPad: " ", startingAt: 0) + "     CALLS     CHAOS    ERRORS  STATUS         BEHAVIOUR\n"
        for id in order {
            guard let row = rows[id] else { continue }
            out += id.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                + Self.right(row.calls, 10) + Self.right(row.chaosCalls, 10) + Self.right(row.errors, 10) + "  "
                + row.status.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0) + "  " + (row.behaviour ?? "-") + "\n"
        }
        if !recent.isEmpty { out += "\n" + recent.joined(separator: "\n") + "\n" }
        return out
    }

    static func line(_ event: EventRow) -> String {
        "\(timestamp()) \(event.kind) \(event.seam.map { "\($0) " } ?? "")\(event.message)"
            + (event.source.map { " [\($0)]" } ?? "")
    }

    private static func right(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }
}
