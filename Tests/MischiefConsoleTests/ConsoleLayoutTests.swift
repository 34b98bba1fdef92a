import Mischief
import Testing

@testable import MischiefConsole

/// Panes take what their content needs from the screen: the list its titles and behaviours, the target its lines.
@Suite struct ConsoleLayoutTests {
    typealias F = ConsoleFixtures

    /// `state` showing a target view of `count` lines, as the demo's four panels are.
    func state(rows: Int, columns: Int, targetLines count: Int) -> ConsoleState {
        var state = ConsoleState(size: ScreenSize(rows: rows, columns: columns), timeZone: F.utc)
        var data = F.data()
        data.view = TargetView(title: "Demo app", lines: (1...count).map { .init("panel line \($0)") })
        state.show(data)
        return state
    }

    @Test func theListIsAsWideAsItsTitlesAndBehavioursNeedAndTheRightPanesGetTheRest() throws {
        let state = state(rows: 60, columns: 200, targetLines: 24)
        let layout = ConsoleLayout(state)
        // "Localized strings" (17) is the longest title, "accents + expand(1.5)" (21) the longest behaviour.
        #expect(layout.list.width == 38 + 17 + 21)
        let detail = try #require(layout.detail)
        #expect(detail.x == layout.list.maxX && detail.maxX == 200)
        let grid = Console.render(state, size: state.size, theme: .standard)
        #expect(grid.text.contains("accents + expand(1.5) "), "the behaviour is shown whole")
        assertSnapshot(grid, named: "main-200x60")
    }

    @Test func at120x40TheTargetPaneShowsTheDemosFourPanelsWhole() throws {
        // The demo's four panels take 21 lines; its eight presets take two rows of the profile bar.
        var state = state(rows: 40, columns: 120, targetLines: 21)
        var data = try #require(state.data)
        data.profiles = F.demoProfiles
        state.show(data)
        let layout = ConsoleLayout(state)
        let target = try #require(layout.target)
        #expect(target.height == 21 + 2)
        #expect(try #require(layout.detail).height >= ConsoleLayout.minimumDetailRows)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("panel line 1 ") && text.contains("panel line 21 "))
        #expect(!text.contains("↓─┘\n └"))
    }

    @Test func at80x24TheTargetPaneMarksWhatItCannotShow() throws {
        var state = state(rows: 24, columns: 80, targetLines: 24)
        let target = try #require(ConsoleLayout(state).target)
        #expect(target.width >= 32 && target.width <= 40)
        var lines = Console.render(state, size: state.size, theme: .standard).text.split(separator: "\n")
        #expect(lines[target.maxY - 1].hasSuffix(" ↓─┘"), "\(lines[target.maxY - 1])")
        _ = F.press([.tab, .tab, .end], &state)
        lines = Console.render(state, size: state.size, theme: .standard).text.split(separator: "\n")
        #expect(lines[target.maxY - 1].hasSuffix("↑ ─┘"), "\(lines[target.maxY - 1])")
        #expect(lines.contains { $0.contains("panel line 24 ") })
    }

    @Test func withoutDataTheLayoutIsTheFixedOne() {
        let size = ScreenSize(rows: 40, columns: 120)
        let layout = ConsoleLayout(ConsoleState(size: size))
        #expect(layout.list.width == 72)
        #expect(layout == ConsoleLayout(size))
    }
}
