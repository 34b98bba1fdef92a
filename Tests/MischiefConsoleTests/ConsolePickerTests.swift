import Mischief
import MischiefConsole
import Testing

/// The action picker: choose an action, edit its spec, apply; failures stay in the picker.
@Suite struct ConsolePickerTests {
    typealias F = ConsoleFixtures

    func picker(_ state: ConsoleState) -> ActionPicker? {
        if case .picker(let picker) = state.mode { picker } else { nil }
    }

    @Test func opensOnTheActionInUseAndChoosesWithinBounds() {
        var state = F.state()
        _ = F.press([.end, .up], &state)
        #expect(state.selection == "net.response")
        _ = F.press([.enter], &state)
        #expect(picker(state)?.choice == 2)  // delay
        #expect(picker(state)?.isEditing == false)
        _ = F.press([.end, .down], &state)
        #expect(picker(state)?.choice == 4)
        _ = F.press([.home, .up, .character("j")], &state)
        #expect(picker(state)?.choice == 1)
        _ = F.press([.escape], &state)
        #expect(state.mode == .browse)
        _ = F.press([.enter, .character("q")], &state)
        #expect(state.mode == .browse)  // q closes the list of actions, it does not quit
    }

    @Test func applyingAFailingSpecKeepsThePickerOpenWithTheError() throws {
        var state = F.state()
        _ = F.press([.enter, .enter], &state)
        let field = try #require(picker(state)?.field)
        #expect(field.text == "shift(1d)")
        #expect(field.cursor == 9)
        // Keys are text here: q, digits and / do not quit, switch profiles or filter.
        #expect(F.press([.backspace, .backspace, .backspace] + F.typing("q/1)"), &state).isEmpty)
        #expect(picker(state)?.field?.text == "shift(q/1)")
        let apply = F.press([.enter], &state)
        #expect(apply == [.apply(seam: "clock.now", spec: "shift(q/1)")])
        #expect(picker(state)?.applying == "shift(q/1)")
        #expect(F.press([.enter, .character("x")], &state).isEmpty)  // ignored while waiting
        #expect(picker(state)?.field?.text == "shift(q/1)")

        let error = "'shift' takes a duration for 'by', got word 'q'\n  shift(q/1)\n        ^"
        _ = Console.update(&state, .commandFinished(apply[0], .failure(error)))
        #expect(picker(state)?.error == error)
        #expect(picker(state)?.applying == nil)
        #expect(state.message == nil)

        _ = F.press([.control("u")] + F.typing("shift(2d)"), &state)
        let retry = F.press([.enter], &state)
        #expect(retry == [.apply(seam: "clock.now", spec: "shift(2d)")])
        _ = Console.update(&state, .commandFinished(retry[0], .success(nil)))
        #expect(state.mode == .browse)
        #expect(state.message?.text == "clock.now: shift(2d)")
        #expect(state.lastUsed["clock.now"] == "shift(2d)")
    }

    @Test func draftsLeaveBlanksForRequiredArgumentsAndEmptySpecsAreRefused() throws {
        var state = F.state()
        var data = F.data(seconds: 3_724)
        let index = data.seams.firstIndex { $0.id == "location.current" }!
        data.seams[index].behaviourText = nil  // nothing applied: the picker starts from a draft
        data.seams[index].spec = nil
        state.show(data)
        _ = F.press([.down, .down, .down], &state)
        #expect(state.selection == "location.current")
        _ = F.press([.enter, .home, .enter], &state)
        let field = try #require(picker(state)?.field)
        #expect(field.text == "city(\"\")")
        #expect(field.cursor == 6)  // between the quotes
        _ = F.press(F.typing("Oslo"), &state)
        #expect(F.press([.enter], &state) == [.apply(seam: "location.current", spec: "city(\"Oslo\")")])

        _ = F.press([.escape, .enter, .enter, .end, .control("u")], &state)
        #expect(F.press([.character(" "), .enter], &state).isEmpty)
        #expect(picker(state)?.error?.hasPrefix("type a spec") == true)
        _ = F.press([.escape], &state)
        #expect(state.mode == .browse)
    }

    @Test func aResultAfterThePickerClosedGoesToTheStatusLine() {
        var state = F.state()
        let apply = F.press([.enter, .enter, .enter], &state)
        _ = F.press([.escape], &state)
        _ = Console.update(&state, .commandFinished(apply[0], .failure("refused\n  shift(1d)\n  ^")))
        #expect(state.mode == .browse)
        #expect(state.message == .init("refused\n  shift(1d)\n  ^", isError: true))
    }

    @Test func ctrlCQuitsFromThePicker() {
        var state = F.state()
        _ = F.press([.enter], &state)
        #expect(F.press([.control("c")], &state) == [.quit])
        _ = F.press([.enter], &state)
        #expect(F.press([.control("c")], &state) == [.quit])
    }
}
