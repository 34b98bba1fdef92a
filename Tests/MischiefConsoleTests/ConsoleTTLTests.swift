import Mischief
import MischiefConsole
import Testing

/// `T` in the console: a prompt for how long the selected seam's changes last, and the time left in the list and
/// the detail.
@Suite struct ConsoleTTLTests {
    typealias F = ConsoleFixtures

    /// The fixture's state with the selected seam (clock.now) active and, when given, expiring at `expiresAt`
    /// (the data's uptime is 3 724 s).
    static func state(expiresAt: Duration?, columns: Int = 120) -> ConsoleState {
        var state = F.state(rows: 24, columns: columns)
        var data = F.data(seconds: 3_724, calls: 60)
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        data.seams[index].layers = [
            LayerSnapshot(
                id: LayerID(rawValue: 1), seam: "clock.now", behaviour: "shift(1d)", spec: "shift(1d)",
                source: "console", status: .active, ttl: expiresAt.map { _ in .seconds(30) }, expiresAt: expiresAt)
        ]
        state.show(data)
        return state
    }

    @Test func tAsksHowLongAndEnterSetsIt() {
        var state = Self.state(expiresAt: nil)
        #expect(state.selectedSeam?.id == "clock.now")
        #expect(F.press([.character("T")], &state).isEmpty)
        guard case .timeToLive("clock.now", _) = state.mode else {
            Issue.record("T did not open the prompt: \(state.mode)")
            return
        }
        #expect(state.isEditingText)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("Revert clock.now after:"))
        #expect(
            F.press("30s".map { .character($0) } + [.enter], &state) == [.setTTL(seam: "clock.now", ttl: .seconds(30))])
        #expect(state.mode == .browse)
        _ = Console.update(
            &state, .commandFinished(.setTTL(seam: "clock.now", ttl: .seconds(30)), .success(nil)))
        #expect(state.message?.text == "clock.now: reverted by itself in 30s")
    }

    @Test func offTakesTheTimeToLiveAwayAndEscCancels() {
        var state = Self.state(expiresAt: .seconds(3_750))
        #expect(
            F.press([.character("T")] + "off".map { .character($0) } + [.enter], &state) == [
                .setTTL(seam: "clock.now", ttl: nil)
            ])
        #expect(F.press([.character("T"), .character("5"), .escape], &state).isEmpty)
        #expect(state.mode == .browse)
    }

    @Test func aBadDurationStaysInThePromptAndSaysWhy() {
        var state = Self.state(expiresAt: nil)
        #expect(F.press([.character("T")] + "2d".map { .character($0) } + [.enter], &state).isEmpty)
        #expect(state.message == .init("a ttl must be more than 0s and at most 1d, not 2d", isError: true))
        guard case .timeToLive = state.mode else {
            Issue.record("the prompt closed")
            return
        }
        #expect(F.press([.backspace, .backspace] + "soon".map { .character($0) } + [.enter], &state).isEmpty)
        #expect(state.message?.text == "expected a duration such as 30s, 10m or 1h, not 'soon'")
    }

    @Test func tOnASeamThatRunsItsOriginalSaysSo() {
        var state = F.state()
        let original = state.data!.seams.first { $0.behaviourText == nil }!
        while state.selectedSeam?.id != original.id { _ = F.press([.down], &state) }
        #expect(F.press([.character("T")], &state).isEmpty)
        #expect(state.mode == .browse)
        #expect(state.message?.text.hasPrefix("\(original.id) runs its original") == true)
    }

    @Test func theTimeLeftShowsInTheRowAndTheDetail() {
        let state = Self.state(expiresAt: .seconds(3_753.5))  // 29.5 s after the data's uptime
        #expect(state.timeLeft(of: state.selectedSeam!) == .milliseconds(29_500))
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("30s left"), "\(text)")
        #expect(text.contains("reverts in 30s"))
        let lasting = Console.render(Self.state(expiresAt: nil), size: state.size, theme: .standard).text
        #expect(!lasting.contains(" left") && !lasting.contains("reverts in"))
    }

    @Test func theHelpListsTheKey() {
        var state = F.state(rows: 40, columns: 120)
        _ = F.press([.character("?")], &state)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("revert the seam after a time"))
    }
}
