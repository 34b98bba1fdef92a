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
            and per event. Ends with exit status 3 when the target goes away, and with 4 when one of the target's \
            guards trips while it watches (the trip's line, with the figures that tripped it, is printed last), \
            so a script can run `mischief watch` beside a test and stop when the target's guards say so.
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
        var pending: [SeamID: SeamUpdate] = [:]
        var trip: Event?
        do {
            for try await message in client.events() {
                switch message {
                case .hello, .other, .changes:
                    break
                case .event(let event):
                    table.note(event)
                    if !live { print(WatchTable.line(event)) }
                    if event.kind == .guardTripped { trip = event }
                case .counters(let updates):
                    for update in updates { pending[update.seam] = update }
                }
                if trip != nil { break }
                guard clock.now - lastOutput >= every else { continue }
                lastOutput = clock.now
                let changed = table.update(
                    table.order.compactMap { pending[$0] } + pending.values.filter { !table.order.contains($0.seam) })
                pending.removeAll()
                if live {
                    print("\u{1B}[H\u{1B}[2J" + table.render(columns: Self.terminalColumns()), terminator: "")
                } else {
                    for text in changed { print(text) }
                }
                fflush(nil)
            }
        } catch {
            printError(error)
            throw TargetExit.noTarget
        }
        guard let trip else { return }
        // On a terminal the table stays as it was last drawn and the trip is printed under it.
        if live { print("\n" + WatchTable.line(trip)) }
        fflush(nil)
        printError("a guard tripped; watch exits \(TargetExit.guardTripped.rawValue)")
        throw TargetExit.guardTripped
    }

    /// The width of the terminal standard output is, if it is one.
    static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
