import Foundation
import Mischief
import MischiefConsole
import Testing

/// The event log: one line per event with repeats folded, a filter, each event whole, and the problems at start.
@Suite struct ConsoleEventLogTests {
    typealias F = ConsoleFixtures

    static let sizes = [
        ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 40, columns: 120), ScreenSize(rows: 60, columns: 200),
    ]

    func name(_ base: String, _ size: ScreenSize) -> String { "\(base)-\(size.columns)x\(size.rows)" }

    /// The fixture's events with the weather report repeated every 2 s, as the demo's are.
    func noisyState(rows: Int = 24, columns: Int = 80) -> ConsoleState {
        var state = ConsoleState(size: ScreenSize(rows: rows, columns: columns), timeZone: F.utc)
        var data = F.data()
        for index in 0..<30 {
            data.events.append(
                Event(
                    id: 11 + index, time: .seconds(3_702 + 2 * index), kind: .report, seam: "net.response",
                    message: "answered GET /weather after 250ms"))
        }
        state.show(data)
        return state
    }

    func log(_ state: ConsoleState) -> EventLog? {
        if case .eventLog(let log) = state.mode { log } else { nil }
    }

    @Test func repeatedReportsFoldIntoOneLineWithACount() throws {
        var state = noisyState(rows: 40, columns: 120)
        _ = F.press([.character("e")], &state)
        let lines = try #require(log(state)).lines(of: state.events)
        #expect(lines.count == 10)
        let last = try #require(lines.last)
        #expect(last.count == 31 && last.firstTime == .seconds(3_700) && last.event.id == 40)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.components(separatedBy: "answered GET /weather").count == 2)
        #expect(text.contains("×31 answered GET /weather after 250ms"))
    }

    /// A state whose log holds exactly `events`.
    func state(with events: [Event], rows: Int = 24, columns: Int = 100) -> ConsoleState {
        var state = ConsoleState(size: ScreenSize(rows: rows, columns: columns), timeZone: F.utc)
        var data = F.data()
        data.events = events
        state.show(data)
        return state
    }

    func applied(_ id: Int, _ seconds: Int, _ spec: String) -> Event {
        Event(id: id, time: .seconds(seconds), kind: .applied, seam: "clock.now", source: "console", message: spec)
    }

    @Test func repeatsApartAreNotMergedSoTheLogKeepsItsOrder() throws {
        // A, B, A: three lines in the order they happened, the first apply still there.
        let events = [applied(1, 17, "shift(2d)"), applied(2, 18, "shift(3d)"), applied(3, 19, "shift(2d)")]
        var state = state(with: events)
        _ = F.press([.character("e")], &state)
        let lines = try #require(log(state)).lines(of: state.events)
        #expect(lines.map(\.event.id) == [1, 2, 3])
        #expect(lines.map(\.count) == [1, 1, 1])
        let text = Console.render(state, size: state.size, theme: .standard).text
        let rows = text.split(separator: "\n").filter { $0.contains("applied") }
        #expect(rows.count == 3, "\(text)")
        #expect(rows.first?.contains("00:00:17") == true && rows.first?.contains("shift(2d)") == true, "\(text)")
        #expect(rows.last?.contains("00:00:19") == true && rows.last?.contains("shift(2d)") == true, "\(text)")
        #expect(!text.contains("×2"), "\(text)")
    }

    @Test func adjacentRepeatsFoldWithTheirCountAndTheLatestTime() throws {
        // A, A, B: two lines, the first `×2` at the time of the later A, the first time in the detail.
        let events = [applied(1, 17, "shift(2d)"), applied(2, 18, "shift(2d)"), applied(3, 19, "shift(3d)")]
        var state = state(with: events)
        _ = F.press([.character("e")], &state)
        let lines = try #require(log(state)).lines(of: state.events)
        #expect(lines.map(\.event.id) == [2, 3])
        #expect(lines.map(\.count) == [2, 1])
        #expect(lines.first?.firstTime == .seconds(17))
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("00:00:18") && text.contains("×2 shift(2d)"), "\(text)")
        #expect(!text.contains("00:00:17"), "\(text)")
        _ = F.press([.up, .enter], &state)
        let whole = Console.render(state, size: state.size, theme: .standard).text
        #expect(whole.contains("the last of 2; the first at 00:00:17"), "\(whole)")
    }

    @Test func aRevertSaysWhatItRevertedAndWhoAsked() throws {
        let events = [
            Event(
                id: 1, time: .seconds(5), kind: .applied, seam: "l10n.strings", source: "profile Right-to-left",
                message: "ar-XB"),
            Event(
                id: 2, time: .seconds(9), kind: .reverted, seam: "l10n.strings", source: "console",
                message: "ar-XB (applied by profile Right-to-left)"),
        ]
        var state = state(with: events, columns: 120)
        _ = F.press([.character("e")], &state)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("reverted") && text.contains("ar-XB (applied by profile Right-to-left)  [console]"))
    }

    @Test func slashFiltersTheLogAndEscClearsIt() throws {
        var state = noisyState()
        _ = F.press([.character("e"), .character("/")] + F.typing("tokyo"), &state)
        #expect(state.isEditingText)
        #expect(try #require(log(state)).lines(of: state.events).map(\.event.id) == [2, 3])
        var text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("Events · 2 of 40 match “tokyo”"))
        #expect(text.contains(" / tokyo"))
        _ = F.press([.enter], &state)
        #expect(!state.isEditingText)
        _ = F.press([.escape], &state)
        #expect(try #require(log(state)).filter.text.isEmpty)
        text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("Events · 40"))
        _ = F.press([.escape], &state)
        #expect(state.mode == .browse)
    }

    @Test(arguments: sizes) func enterShowsAnEventWholeWithSeamSourceSeedAndTime(size: ScreenSize) throws {
        var state = F.state(rows: size.rows, columns: size.columns)
        var data = try #require(state.data)
        data.events.append(
            Event(
                id: 11, time: .seconds(3_710), kind: .refused, seam: "clock.now", source: "console",
                message: "a spec far too long for one line of the log: "
                    + String(repeating: "shift(1d) + ", count: 30) + "end\n  ^ here"))
        state.show(data)
        _ = F.press([.character("e"), .enter], &state)
        let grid = Console.render(state, size: size, theme: .standard)
        assertSnapshot(grid, named: name("event-detail", size))
        let text = grid.text
        #expect(text.contains("Event #11"))
        #expect(text.contains("seam    clock.now · Current date"))
        #expect(text.contains("source  console"))
        #expect(text.contains("seed    20250501"))
        #expect(text.contains("time    01:01:50"))
        #expect(text.contains("end") && text.contains("  ^ here"))
        #expect(!text.contains("…"))
        // Up goes to the older event; Esc back to the list, Esc again closes.
        _ = F.press([.up], &state)
        #expect(Console.render(state, size: size, theme: .standard).text.contains("Event #10"))
        _ = F.press([.escape], &state)
        #expect(try #require(log(state)).showsDetail == false)
        assertSnapshot(Console.render(state, size: size, theme: .standard), named: name("events-after-detail", size))
    }

    @Test func everyProblemAtStartIsListedInTheEventLog() throws {
        var state = F.state(rows: 40, columns: 120)
        _ = Console.update(&state, .message("profiles/a.yaml:2:3: error: unknown seam 'clock.nwo'"))
        #expect(state.message == .init("profiles/a.yaml:2:3: error: unknown seam 'clock.nwo'", isError: true))
        _ = Console.update(&state, .message("profiles/b.yaml:1:1: error: syntax error"))
        #expect(state.message?.isError == true)
        #expect(state.message?.text.hasPrefix("2 problems at start (e lists them)") == true)
        _ = F.press([.character("e"), .home], &state)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("problem") && text.contains("profiles/a.yaml:2:3: error: unknown seam"))
        #expect(text.contains("profiles/b.yaml:1:1: error: syntax error"))
        _ = F.press([.enter], &state)
        let whole = Console.render(state, size: state.size, theme: .standard).text
        #expect(whole.contains("Problem at start"))
        #expect(whole.contains("profiles/a.yaml:2:3: error: unknown seam 'clock.nwo'"))
    }
}
