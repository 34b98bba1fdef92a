import Mischief
import MischiefConsole
import Testing

/// Held calls in the console: `u` releases them, and the list, the detail and the hints show them.
@Suite struct ConsolePauseTests {
    typealias F = ConsoleFixtures

    /// The fixture's state with `held` calls held on the selected seam (clock.now).
    static func state(held: Int, rows: Int = 24, columns: Int = 80) -> ConsoleState {
        var state = F.state(rows: rows, columns: columns)
        var data = F.data(seconds: 3_724, calls: 60)
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        data.seams[index].counters.held = held
        data.seams[index].counters.inFlight = held
        state.show(data)
        return state
    }

    @Test func uReleasesTheSelectedSeamsHeldCalls() {
        var state = Self.state(held: 2)
        #expect(state.selectedSeam?.id == "clock.now")
        #expect(F.press([.character("u")], &state) == [.release("clock.now")])
        _ = Console.update(
            &state, .commandFinished(.release("clock.now"), .success("clock.now: released 2 held calls")))
        #expect(state.message?.text == "clock.now: released 2 held calls")
        _ = Console.update(&state, .commandFinished(.release("clock.now"), .failure("unknown seam clock.now")))
        #expect(state.message == .init("unknown seam clock.now", isError: true))
    }

    @Test func uOnASeamThatRunsItsOriginalSaysSo() {
        var state = F.state()
        let original = state.data!.seams.first { $0.behaviourText == nil }!
        while state.selectedSeam?.id != original.id { _ = F.press([.down], &state) }
        #expect(F.press([.character("u")], &state).isEmpty)
        #expect(state.message?.text == "\(original.id) runs its original; only a pause holds calls")
    }

    @Test func heldCallsShowInTheRowTheDetailAndTheHints() {
        let grid = Console.render(
            Self.state(held: 2, columns: 120), size: ScreenSize(rows: 24, columns: 120), theme: .standard)
        let text = grid.text
        #expect(text.contains("2 held"))
        #expect(text.contains("chaos 1384  held 2"))
        #expect(text.contains("u release"))
        let none = Console.render(
            Self.state(held: 0, columns: 120), size: ScreenSize(rows: 24, columns: 120), theme: .standard
        ).text
        #expect(!none.contains("held"))
    }

    @Test func theHelpListsTheKey() {
        var state = F.state(rows: 40, columns: 120)
        _ = F.press([.character("?")], &state)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("held call: release, answer, fail,"))
    }

    @Test func spaceNeverAppliesPause() {
        let seam = SeamSnapshot(
            id: "t.x", title: "X", category: "T",
            actions: [
                ActionSignature("off", summary: "original"),
                ActionSignature(
                    "pause", summary: "holds",
                    parameters: [.init("max", .duration, default: .duration(SpecDuration(.seconds(30))))]),
            ])
        #expect(seam.defaultSpec == nil)
    }
}
