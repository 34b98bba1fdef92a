import Mischief
import MischiefConsole
import Testing

/// Clicks select seams, panes and profiles; a double click opens the picker; the wheel scrolls.
@Suite struct ConsoleMouseTests {
    typealias F = ConsoleFixtures

    func click(_ x: Int, _ y: Int, _ state: inout ConsoleState, twice: Bool = false) -> [ConsoleCommand] {
        Console.update(&state, .key(.mouse(Mouse(twice ? .doubleClick : .click, x: x, y: y))))
    }

    /// The screen row showing `text`.
    func row(of text: String, _ state: ConsoleState) throws -> Int {
        let rows = Console.render(state, size: state.size, theme: .standard).text.split(separator: "\n")
        return try #require(rows.firstIndex { $0.contains(text) })
    }

    @Test func aClickSelectsASeamAndADoubleClickOpensThePicker() throws {
        var state = F.state(rows: 40, columns: 120)
        let y = try row(of: "Current location", state)
        #expect(click(10, y, &state).isEmpty)
        #expect(state.selection == "location.current")
        // A category heading or the column headings select nothing.
        _ = click(10, try row(of: "Location 2", state), &state)
        _ = click(10, try row(of: "Behaviour", state), &state)
        #expect(state.selection == "location.current")
        _ = click(10, try row(of: "Compass heading", state), &state, twice: true)
        #expect(state.selection == "location.heading")
        guard case .picker(let picker) = state.mode else { Issue.record("no picker"); return }
        #expect(picker.seam == "location.heading")
    }

    @Test func aClickFocusesThePaneUnderIt() throws {
        var state = F.state(rows: 40, columns: 120)
        _ = click(100, 10, &state)
        #expect(state.focus == .detail)
        _ = click(100, 33, &state)
        #expect(state.focus == .target)
        _ = click(5, 10, &state)
        #expect(state.focus == .list)
    }

    @Test func aClickOnTheBarSwitchesThatProfile() throws {
        var state = F.state(rows: 24, columns: 80)
        let y = try row(of: " Profiles ", state)
        let line = Console.render(state, size: state.size, theme: .standard).text.split(separator: "\n")[y]
        let x = try #require(line.firstRange(of: "Slow network")).lowerBound.utf16Offset(in: line)
        #expect(click(x, y, &state) == [.toggleProfile("Slow network")])
        #expect(click(1, y, &state).isEmpty)
    }

    @Test func theWheelMovesTheSelectionAndScrollsTheFocusedPane() {
        var state = F.state(rows: 24, columns: 80)
        _ = Console.update(&state, .key(.mouse(Mouse(.wheelDown, x: 5, y: 5))))
        #expect(state.selection == "location.current")
        _ = Console.update(&state, .key(.mouse(Mouse(.wheelUp, x: 5, y: 5))))
        #expect(state.selection == "clock.timezone")  // three lines up
    }

    /// The wheel over the detail scrolls the detail while the list has the focus, and the focus stays.
    @Test func theWheelScrollsThePaneUnderThePointer() throws {
        var state = F.state(rows: 24, columns: 80)
        #expect(state.focus == .list)
        let y = try row(of: "─ clock.now ", state)  // the detail's top border
        let selection = state.selection
        _ = Console.update(&state, .key(.mouse(Mouse(.wheelDown, x: 4, y: y + 2))))
        #expect(state.detailScroll > 0, "the detail scrolled")
        #expect(state.selection == selection, "the list did not move")
        #expect(state.focus == .list)
    }

    @Test func inTheProfileListAClickChoosesAndADoubleClickSwitches() throws {
        var state = F.demoState(rows: 40, columns: 120)
        _ = F.press([.character("p")], &state)
        let y = try row(of: "Year 2038", state)
        #expect(click(30, y, &state).isEmpty)
        #expect(state.mode == .profileList(selected: 6))
        #expect(click(30, y + 1, &state, twice: true) == [.toggleProfile("Year 2038")])
        _ = Console.update(&state, .key(.mouse(Mouse(.wheelUp, x: 5, y: 5))))
        #expect(state.mode == .profileList(selected: 3))
    }
}
