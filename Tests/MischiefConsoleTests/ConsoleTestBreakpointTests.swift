import Foundation
import Mischief
import Testing

@testable import MischiefConsole

/// A pause in one test's scope is a breakpoint on that test (issue 49): the detail pane names the test that holds the
/// call and shows the call's input, as for a pause of the whole process; `o` starts from that input; the keys go to
/// the test when the console's changes go to it, and the pane says how to send them there when they do not.
@Suite struct ConsoleTestBreakpointTests {
    typealias F = ConsoleFixtures

    static let userJSON = #"{"age":36,"name":"Ada Lovelace"}"#

    /// A `(User) -> User` seam the registry holds nothing on, and two running tests: #2 holds one call on it.
    static func state(chooseHeld: Bool) -> ConsoleState {
        var state = F.state(rows: 40, columns: 120)
        var data = F.data(seconds: 3_724, calls: 60)
        let seam = SeamSnapshot(
            id: "model.person", title: "Person", category: "Clock", signature: "(User) -> User",
            actions: [F.off, F.returning], canThrow: true)
        data.seams.insert(seam, at: 1)
        data.scopes = [
            ScopeSnapshot(
                id: 1, name: "countsApples()", status: .running, started: 1,
                seams: [ScopeSeamCounts(seam: "model.person", calls: 3)]),
            ScopeSnapshot(
                id: 2, name: "signsUpAda()", status: .running, started: 1,
                seams: [
                    ScopeSeamCounts(
                        seam: "model.person", calls: 4, held: 1, heldCalls: [HeldCall(input: userJSON)])
                ],
                layers: [
                    ScopeLayer(
                        id: 1, seam: "model.person", spec: "pause", source: "alice", seed: 3, isActive: true,
                        hasPause: true, call: 4)
                ]),
        ]
        state.show(data)
        if chooseHeld { Console.chooseTests("#2", in: &state) }
        while state.selectedSeam?.id != "model.person" { _ = F.press([.down], &state) }
        return state
    }

    @Test func theDetailNamesTheTestThatHoldsTheCallAndShowsItsInput() {
        let state = Self.state(chooseHeld: true)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("held in test #2 signsUpAda()"), "\(text)")
        #expect(text.contains("held {"), "\(text)")
        #expect(text.contains(#""name": "Ada Lovelace""#), "\(text)")
        #expect(text.contains("u release · o return"), "\(text)")
        #expect(!text.contains("#1 countsApples()") || !text.contains("held in test #1"), "\(text)")
    }

    @Test func oStartsFromTheTestsHeldInputAndTheAnswerGoesToThatTest() {
        var state = Self.state(chooseHeld: true)
        #expect(F.press([.character("o")], &state).isEmpty)
        guard case .answer(let seam, let field) = state.mode else {
            Issue.record("o did not open the answer field: \(state.mode)")
            return
        }
        #expect(seam == "model.person")
        #expect(field.text == "return(\(Self.userJSON))")
        let sent = F.press([.enter], &state)
        #expect(
            sent == [.inTests("#2", .answer(seam: "model.person", spec: "return(\(Self.userJSON))", holdNext: true))])
        var failing = Self.state(chooseHeld: true)
        #expect(
            F.press([.character("x")], &failing) == [
                .inTests("#2", .answer(seam: "model.person", spec: "throw", holdNext: true))
            ])
    }

    @Test func withTheChangesGoingElsewhereThePaneSaysHowToAnswerTheTest() {
        let state = Self.state(chooseHeld: false)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("held in test #2 signsUpAda()"), "\(text)")
        #expect(text.contains(#""age": 36"#), "\(text)")
        #expect(text.contains("n or :test #2 to answer it"), "\(text)")
    }
}
