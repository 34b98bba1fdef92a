import Mischief
import MischiefConsole
import Testing

/// `y` copies the selected seam's spec, `Y` the whole state as a `MISCHIEF_APPLY` value; the status line says so.
@Suite struct ConsoleCopyTests {
    typealias F = ConsoleFixtures

    /// The fixture with behaviours applied from specs, so each has one to copy.
    func state() -> ConsoleState {
        var state = ConsoleState(size: ScreenSize(rows: 24, columns: 80), timeZone: F.utc)
        var data = F.data()
        data.seams = F.fromSpecs(data.seams)
        state.show(data)
        return state
    }

    @Test func yCopiesTheSelectedSpecAndYAllOfThemAsOneApplyValue() {
        var state = state()
        let copy = F.press([.character("y")], &state)
        #expect(copy == [.copy("shift(1d)")])
        _ = Console.update(&state, .commandFinished(copy[0], .success(nil)))
        #expect(state.message?.text == "copied: shift(1d)")
        let all = F.press([.character("Y")], &state)
        #expect(
            all == [
                .copy(
                    "clock.now=shift(1d);location.current=city(\"Tokyo\");l10n.strings=accents + expand(1.5);"
                        + "net.response=delay(250ms)")
            ])
    }

    @Test func nothingToCopySaysWhy() {
        var state = ConsoleState(size: ScreenSize(rows: 24, columns: 80), timeZone: F.utc)
        var data = F.data()
        data.seams = data.seams.map { seam in
            var seam = seam
            seam.spec = nil
            return seam
        }
        state.show(data)
        // Behaviours built in code have no spec; a seam running its original has none either.
        #expect(F.press([.character("y")], &state).isEmpty)
        #expect(state.message?.text == "clock.now runs shift(1d), built in code: no spec to copy")
        #expect(F.press([.down, .character("y")], &state).isEmpty)
        #expect(state.message?.text == "clock.timezone runs its original: no spec to copy")
        #expect(F.press([.character("Y")], &state).isEmpty)
        #expect(state.message?.text == "nothing applied from a spec: nothing to copy")
    }
}
