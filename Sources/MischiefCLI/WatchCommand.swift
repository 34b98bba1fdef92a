import ArgumentParser
import Dispatch
import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import MischiefFiles

/// `mischief watch`: counts as they change, for a plain terminal or a log.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a running target's call counts and events as they change.",
        discussion: """
            On a terminal it redraws a table in place; into a pipe or a file it writes one line per change \
            and per event. When the target goes away (stopped, killed, restarted) it says so in one line and tries \
            again every second until the target, or a restart of it, is back, and goes on; Ctrl-C ends it. With \
            --exit-when-gone it ends with exit status 3 instead. It ends with 4 when one of the target's guards trips \
            while it watches (the trip's line, with the figures that tripped it, is printed last), so a script can \
            run `mischief watch` beside a test and stop when the target's guards say so. With --json it writes one \
            JSON object a line, each with "schema": 1: {"schema": 1, "seams": [...]} for the seams whose counts or \
            state changed (id, calls, errors, behaviour, layers, ...) and {"schema": 1, "event": {...}} for each event.
            """)

    @OptionGroup var target: TargetOptions

    @Flag(name: .long, help: "Write lines even on a terminal.")
    var lines = false

    @Option(name: .long, help: "Seconds between count lines or redraws (events are written as they come).")
    var interval: Double = 1

    @Flag(name: .long, help: "Write one JSON object a line (seams that changed, events), each with \"schema\": 1.")
    var json = false

    @Flag(name: .long, help: "End with exit status 3 when the target goes away, rather than wait for it to come back.")
    var exitWhenGone = false

    /// How long watch waits before trying again to reach a target that went away.
    static let retry: Duration = .seconds(1)

    func validate() throws {
        do throws(OutOfRange) {
            _ = try Seconds.duration(interval, field: "--interval", within: 0.05...86_400)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let client = ControlClient.cli(socketPath: try target.resolve())
        var info = try await talking { () async throws(ControlClientError) in try await client.handshake() }
        let seams = try await talking { () async throws(ControlClientError) in try await client.seams() }
        var table = WatchTable(target: info, seams: seams)
        let live = !lines && !json && isatty(1) == 1
        while true {
            let trip: Event?
            do {
                trip = try await follow(client, into: &table, live: live)
            } catch {
                guard !exitWhenGone else {
                    printError(error)
                    throw TargetExit.noTarget
                }
                Self.note(
                    "lost \(info.name) pid \(info.pid) (\(Self.reason(error))); trying again every "
                        + "\(SpecDuration(Self.retry)) (Ctrl-C to stop)")
                let (back, seams) = try await Self.reattach(client, to: info)
                info = back
                table = WatchTable(target: info, seams: seams)
                Self.note("attached again to \(info.name) pid \(info.pid)")
                continue
            }
            guard let trip else { continue }
            // On a terminal the table stays as it was last drawn and the trip is printed under it.
            if live { print("\n" + WatchTable.line(trip)) }
            fflush(nil)
            printError("a guard tripped; watch exits \(TargetExit.guardTripped.rawValue)")
            throw TargetExit.guardTripped
        }
    }

    /// Prints the target's events stream into `table` until a guard trips (returned) or the stream ends (thrown).
    private func follow(_ client: ControlClient, into table: inout WatchTable, live: Bool) async throws -> Event? {
        let clock = ContinuousClock()
        let every = (try? Seconds.duration(interval, field: "--interval", within: 0.05...86_400)) ?? .seconds(1)
        var lastOutput = clock.now - every
        var pending: [SeamID: SeamSnapshot] = [:]
        // The newest event seen: nil until the first `changes` message, whose events (logged before watch started)
        // are not news.
        var lastEvent: Int?
        for try await message in client.events(deltas: true) {
            switch message {
            case .hello, .other, .event, .counters:
                break
            case .delta(let delta):
                let news = lastEvent.map { last in delta.registry.events.filter { $0.id > last } } ?? []
                lastEvent = max(lastEvent ?? 0, delta.registry.lastEventID, news.last?.id ?? 0)
                for event in news {
                    table.note(event)
                    if json {
                        try Self.printJSON(WatchLine(event: event))
                    } else if !live {
                        print(WatchTable.line(event))
                    }
                    if event.kind == .guardTripped { return event }
                }
                for seam in delta.registry.seams {
                    let shown = pending[seam.id].map(SeamUpdate.init) ?? table.rows[seam.id]
                    if shown != SeamUpdate(seam) { pending[seam.id] = seam }
                }
            }
            guard clock.now - lastOutput >= every else { continue }
            lastOutput = clock.now
            let seams = table.order.compactMap { pending[$0] } + pending.values.filter { !table.order.contains($0.id) }
            let changed = table.update(seams.map(SeamUpdate.init))
            pending.removeAll()
            if json {
                if !seams.isEmpty { try Self.printJSON(WatchLine(seams: seams)) }
            } else if live {
                print("\u{1B}[H\u{1B}[2J" + table.render(columns: Self.terminalColumns()), terminator: "")
            } else {
                for text in changed { print(text) }
            }
            fflush(nil)
        }
        throw ControlClientError.gone("the target closed the events stream")
    }

    /// One line of `watch --json`: the seams whose counts or state changed, or one event.
    struct WatchLine: Encodable {
        /// The version of this shape; a change that renames or removes a field raises it.
        var schema = 1
        var seams: [SeamSnapshot]?
        var event: Event?
    }

    /// Writes `line` as one line of JSON.
    static func printJSON(_ line: WatchLine) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(line), as: UTF8.self))
    }

    /// Tries every ``retry`` until the target `lost` (the same process, or one of the same name on the socket)
    /// answers; returns it and its seams.
    static func reattach(
        _ client: ControlClient, to lost: TargetHeader
    ) async throws -> (TargetHeader, [SeamSnapshot]) {
        var saidOther = false
        while true {
            try await Task.sleep(for: retry)
            guard let info = try? await client.handshake() else { continue }
            guard info.instance == lost.instance || info.name == lost.name else {
                if !saidOther {
                    note("\(info.name) pid \(info.pid) serves the socket now, not \(lost.name); still waiting")
                    saidOther = true
                }
                continue
            }
            guard let seams = try? await client.seams() else { continue }
            return (info, seams)
        }
    }

    /// Why the stream ended, short.
    static func reason(_ error: any Error) -> String {
        switch error as? ControlClientError {
        case .unreachable(_, let reason): "no answer: \(reason)"
        case .gone(let reason): reason
        default: "\(error)"
        }
    }

    /// One line on standard error, flushed, for a person or a log.
    static func note(_ line: String) {
        var standardError = StandardError()
        print("watch: \(line)", to: &standardError)
        fflush(nil)
    }

    /// The width of the terminal standard output is, if it is one.
    static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
