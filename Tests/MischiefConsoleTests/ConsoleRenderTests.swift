import Mischief
import MischiefConsole
import Testing

/// Rendered screens compared with text snapshots (text and roles) at 80×24 and 120×40.
@Suite struct ConsoleRenderTests {
    typealias F = ConsoleFixtures

    static let sizes = [ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 40, columns: 120)]

    func render(_ state: ConsoleState, theme: ThemeInfo = .standard) -> CellGrid {
        Console.render(state, size: state.size, theme: theme)
    }

    func name(_ base: String, _ size: ScreenSize) -> String { "\(base)-\(size.columns)x\(size.rows)" }

    @Test(arguments: sizes) func mainScreen(size: ScreenSize) {
        let state = F.state(rows: size.rows, columns: size.columns)
        assertSnapshot(render(state), named: name("main", size))
    }

    @Test(arguments: sizes) func monochromeTheme(size: ScreenSize) {
        var state = F.state(rows: size.rows, columns: size.columns)
        _ = F.press([.down, .down, .down], &state)
        let grid = render(state, theme: .monochrome)
        assertSnapshot(grid, named: name("mono", size))
        // The selected row is marked and drawn in reverse video; colour themes leave the mark out.
        let marked = (0..<grid.height).filter { grid[1, $0].text == ">" }
        #expect(marked.count == 1)
        #expect(marked.allSatisfy { grid[4, $0].text == "C" && grid[4, $0].style.reverse })
        let colour = render(state)
        #expect((0..<colour.height).allSatisfy { colour[1, $0].text != ">" && !colour[4, $0].style.reverse })
    }

    @Test(arguments: sizes) func filtered(size: ScreenSize) {
        var state = F.state(rows: size.rows, columns: size.columns)
        _ = F.press([.character("/")] + F.typing("net"), &state)
        assertSnapshot(render(state), named: name("filter-typing", size))
        _ = F.press([.enter], &state)
        assertSnapshot(render(state), named: name("filtered", size))
    }

    @Test(arguments: sizes) func actionPickerWithSpecError(size: ScreenSize) {
        var state = F.state(rows: size.rows, columns: size.columns)
        _ = F.press([.enter], &state)
        assertSnapshot(render(state), named: name("picker-choose", size))
        let commands = F.press(
            [.enter, .home, .delete, .delete, .delete, .delete, .delete] + F.typing("shfit"), &state)
        #expect(commands.isEmpty)
        let apply = F.press([.enter], &state)
        #expect(apply == [.apply(seam: "clock.now", spec: "shfit(1d)")])
        let error = "unknown action 'shfit' for clock.now; did you mean 'shift'?\n  shfit(1d)\n  ^"
        _ = Console.update(&state, .commandFinished(apply[0], .failure(error)))
        assertSnapshot(render(state), named: name("picker-error", size))
    }

    @Test(arguments: sizes) func eventLog(size: ScreenSize) {
        var state = F.state(rows: size.rows, columns: size.columns)
        _ = F.press([.character("e")], &state)
        assertSnapshot(render(state), named: name("events", size))
    }

    @Test(arguments: sizes) func detailFocusedAndScrolled(size: ScreenSize) {
        var state = F.state(rows: size.rows, columns: size.columns)
        _ = F.press([.tab, .down, .down, .down], &state)
        assertSnapshot(render(state), named: name("detail-focused", size))
    }

    @Test func saveNamePromptAndMessages() {
        var state = F.state()
        _ = F.press([.character("s")] + F.typing("Morning q"), &state)
        assertSnapshot(render(state), named: "save-prompt-80x24")
        let commands = F.press([.enter], &state)
        _ = Console.update(&state, .commandFinished(commands[0], .failure("cannot write /profiles: read-only")))
        var lost = F.data(connection: .lost("target exited"))
        lost.profiles = []
        state.show(lost)
        assertSnapshot(render(state), named: "lost-error-80x24")
    }

    @Test func waitingForData() {
        let state = ConsoleState(size: ScreenSize(rows: 24, columns: 80), timeZone: F.utc)
        assertSnapshot(render(state), named: "waiting-80x24")
    }

    @Test func smallestUsableAndTooSmall() {
        let minimum = F.state(rows: ScreenSize.minimum.rows, columns: ScreenSize.minimum.columns)
        assertSnapshot(render(minimum), named: "minimum-50x12")
        let medium = F.state(rows: 15, columns: 60)
        assertSnapshot(render(medium), named: "small-60x15")
        let tiny = F.state(rows: 10, columns: 40)
        assertSnapshot(render(tiny), named: "too-small-40x10")
        #expect(render(tiny).text.contains("50×12"))
    }

    /// Wide characters, emoji and combining accents keep the panes' right borders in one column.
    @Test(arguments: sizes) func wideCharactersAlign(size: ScreenSize) {
        let grid = render(F.state(rows: size.rows, columns: size.columns))
        let right = size.columns - 1
        for y in 2..<(size.rows - 2) {
            #expect(["│", "┐", "┘"].contains(grid[right, y].text), "row \(y) ends in '\(grid[right, y].text)'")
        }
        for y in 0..<grid.height {
            for x in 0..<grid.width where DisplayWidth.of(grid[x, y].text) == 2 {
                #expect(x + 1 < grid.width && grid[x + 1, y].isContinuation)
            }
        }
        #expect(grid.text.contains("東京 21°C ☀️"))
        #expect(grid.text.contains("cafe\u{301}"))
    }

    /// The benchmark's data: a thousand seams list, navigate and render (the release benchmark times it).
    @Test func thousandSyntheticSeams() {
        var state = ConsoleState(size: ScreenSize(rows: 60, columns: 200), timeZone: F.utc)
        for frame in 0..<3 {
            state.show(.synthetic(seams: 1_000, frame: frame))
        }
        #expect(state.lines.count == 1_008)
        #expect(state.rates.count == 1_000)
        _ = F.press([.end], &state)
        #expect(state.selection == "payments.seam-999")
        let grid = render(state)
        #expect(grid.text.contains("Payments seam 999"))
        #expect(grid.text.contains(" 1000/1000 "))
        _ = F.press([.character("e"), .up], &state)
        #expect(render(state).text.contains("event 198"))
        guard case .eventLog(let log) = state.mode else { Issue.record("the event log closed"); return }
        #expect(log.selected == 1)
    }

    /// Rendering reads the state and changes nothing: the same state renders the same grid.
    @Test func renderingIsPure() {
        let state = F.state()
        #expect(render(state) == render(state))
    }
}
