import Mischief
import MischiefConsole
import Testing

/// Stacked layers are never hidden: the row says how many wait underneath the one that answers, the detail lists
/// them top first, and a copy or save says what it leaves out.
@Suite struct ConsoleLayerTests {
    typealias F = ConsoleFixtures

    /// The fixture with two layers on clock.now (a replacing seam): `freeze` from a profile underneath, `shift(1d)`
    /// from the console on top, reverting by itself at 3 754 s of uptime.
    static func stacked(columns: Int = 120) -> ConsoleState {
        var state = F.state(rows: 30, columns: columns)
        var data = F.data(seconds: 3_724, calls: 60)
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        data.seams[index].layers = [
            LayerSnapshot(
                id: EntryID(rawValue: 1), seam: "clock.now", behaviour: "freeze(2038-01-19T03:14:08Z)",
                spec: "freeze(2038-01-19T03:14:08Z)", source: "profile Year 2038", status: .active),
            LayerSnapshot(
                id: EntryID(rawValue: 2), seam: "clock.now", behaviour: "shift(1d)", spec: "shift(1d)",
                source: "console", status: .active, ttl: .seconds(30), expiresAt: .seconds(3_754)),
        ]
        data.seams[index].behaviour = "shift(1d)"
        data.seams[index].spec = "shift(1d)"
        _ = Console.update(&state, .data(data))
        return state
    }

    static func screen(_ state: ConsoleState) -> String {
        Console.render(state, size: state.size, theme: .standard).text
    }

    @Test func theRowCountsTheLayersUnderneath() {
        let state = Self.stacked()
        #expect(state.selectedSeam?.id == "clock.now")
        let row = Self.screen(state).split(separator: "\n").first { $0.contains("shift(1d)") }
        #expect(row?.contains("shift(1d) +1") == true, "row: \(row ?? "none")")
    }

    @Test func theDetailListsEveryLayerTopFirst() {
        let lines = Self.screen(Self.stacked()).split(separator: "\n").map(String.init)
        let title = lines.firstIndex { $0.contains("Layers") && $0.contains("top first") }
        let top = lines.firstIndex { $0.contains("● answers") && $0.contains("console") && $0.contains("reverts in 30s") }
        let under = lines.firstIndex { $0.contains("○ underneath") && $0.contains("profile Year 2038") }
        #expect(title != nil && top != nil && under != nil, "\(lines.joined(separator: "\n"))")
        if let title, let top, let under { #expect(title < top && top < under) }
    }

    @Test func oneLayerShowsNoCountAndNoLayerList() {
        let state = ConsoleTTLTests.state(expiresAt: nil)
        let screen = Self.screen(state)
        #expect(!screen.contains("shift(1d) +"))
        #expect(!screen.contains("underneath"))
    }

    @Test func aCopyOrSaveSaysWhatItLeavesOut() {
        var state = Self.stacked()
        let copy = F.press([.character("y")], &state)
        #expect(copy == [.copy("shift(1d)")])
        _ = Console.update(&state, .commandFinished(copy[0], .success(nil)))
        #expect(
            state.message?.text
                == "copied: shift(1d); left out 1 layer underneath (on clock.now), which do not answer now")
        _ = Console.update(&state, .commandFinished(.saveProfile("Mine"), .success("/tmp/Mine.yaml")))
        #expect(state.message?.text.hasPrefix("saved Mine to /tmp/Mine.yaml; left out 1 layer underneath") == true)
    }
}
