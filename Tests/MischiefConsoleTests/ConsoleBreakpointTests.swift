import Mischief
import MischiefConsole
import Testing

/// A pause as a breakpoint in the console: the held call's input in the detail, `o` answers, `x` fails, `c` lets
/// the rest run.
@Suite struct ConsoleBreakpointTests {
    typealias F = ConsoleFixtures

    static let userJSON = #"{"age":36,"name":"Ada Lovelace"}"#

    /// The fixture's state with a call held on a `(User) -> User` seam, selected.
    static func state(rows: Int = 24, columns: Int = 80, canThrow: Bool = false) -> ConsoleState {
        var state = F.state(rows: rows, columns: columns)
        var data = F.data(seconds: 3_724, calls: 60)
        var seam = SeamSnapshot(
            id: "model.person", title: "Person", category: "Clock", signature: "(User) -> User", behaviour: "pause",
            spec: "pause", held: 1, status: .active, actions: [F.off, F.returning], canThrow: canThrow)
        seam.heldCalls = [HeldCall(input: userJSON)]
        data.seams.insert(seam, at: 1)
        _ = Console.update(&state, .data(data))
        while state.selectedSeam?.id != "model.person" { _ = F.press([.down], &state) }
        return state
    }

    @Test func theDetailShowsTheHeldCallsInputWholeAndTheKeys() {
        for (rows, columns) in [(24, 80), (60, 200)] {
            let state = Self.state(rows: rows, columns: columns)
            let text = Console.render(state, size: state.size, theme: .standard).text
            #expect(text.contains("held " + Self.userJSON), "at \(columns)x\(rows)")
            #expect(text.contains("o return"), "at \(columns)x\(rows)")
        }
    }

    @Test func oStartsFromTheInputAndEnterAnswersWithTheEditedSpec() {
        var state = Self.state()
        #expect(F.press([.character("o")], &state).isEmpty)
        guard case .answer(let seam, let field) = state.mode else {
            Issue.record("o did not open the answer field: \(state.mode)")
            return
        }
        #expect(seam == "model.person")
        #expect(field.text == "return(\(Self.userJSON))")
        #expect(state.isEditingText)
        _ = F.press([.control("u")], &state)
        let commands = F.press(F.typing("return(1)") + [.enter], &state)
        #expect(commands == [.answer(seam: "model.person", spec: "return(1)", holdNext: true)])
        #expect(state.mode == .browse)
    }

    @Test func xFailsOnlyASeamThatCanThrowAndCLetsTheRestRun() {
        var state = Self.state()
        #expect(F.press([.character("x")], &state).isEmpty)
        #expect(state.message?.text.contains("cannot fail") == true)
        var throwing = Self.state(canThrow: true)
        #expect(F.press([.character("x")], &throwing) == [.answer(seam: "model.person", spec: "throw", holdNext: true)])
        #expect(F.press([.character("c")], &state) == [.answer(seam: "model.person", spec: nil, holdNext: false)])
    }

    @Test func withNothingHeldTheKeysSaySo() {
        var state = F.state()
        #expect(F.press([.character("o")], &state).isEmpty)
        #expect(state.message?.text.hasPrefix("no call is held on clock.now") == true)
        #expect(state.mode == .browse)
    }

    @Test func anAnswerThatFailsShowsItsError() {
        var state = Self.state()
        let command = ConsoleCommand.answer(seam: "model.person", spec: "return(x)", holdNext: true)
        _ = Console.update(&state, .commandFinished(command, .failure("invalid spec: return(x)")))
        #expect(state.message == .init("invalid spec: return(x)", isError: true))
    }

    @Test func theHintsOfferTheBreakpointKeys() {
        let state = Self.state(rows: 24, columns: 200)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("u release"))
        #expect(text.contains("x fail"))
        #expect(text.contains("c continue"))
    }
}
