import Mischief
import Testing

@testable import MischiefConsole

/// A live test session in the console (issue 49): the tests pane lists each test with its state, time, seams and
/// layers; `n` sends the console's changes to one running test's scope, and back to the whole process after the
/// last; `H` hides the tests that ended; a pause in the chosen test is a breakpoint answered with `u o x`.
@Suite struct ConsoleTestsPaneTests {
    typealias F = ConsoleFixtures

    static let tests = [
        ScopeSnapshot(
            id: 1, name: "countsApples()", status: .failed, started: 1, ended: 2.5,
            seams: [ScopeSeamCounts(seam: "clock.now", calls: 12, chaosCalls: 1, errors: 1)],
            outside: [ScopeLayer(id: 1, seam: "clock.now", spec: "freeze", source: "alice", seed: 3, isActive: false)]),
        ScopeSnapshot(
            id: 2, name: "countsPears()", status: .running, started: 1,
            seams: [ScopeSeamCounts(seam: "clock.now", calls: 30, held: 1)],
            layers: [
                ScopeLayer(
                    id: 1, seam: "clock.now", spec: "pause", source: "alice", seed: 3, isActive: true, hasPause: true)
            ]),
        ScopeSnapshot(
            id: 3, name: "shelvesPlums()", status: .running, started: 1,
            layers: [ScopeLayer(id: 1, seam: "clock.now", spec: "freeze", source: nil, seed: 3, isActive: true)]),
    ]

    static func state(rows: Int = 40, columns: Int = 120) -> ConsoleState {
        var state = F.state(rows: rows, columns: columns)
        var data = F.data(seconds: 3_730, calls: 60)
        data.scopes = tests
        state.show(data)
        return state
    }

    @Test func thePaneListsEachTestWithItsStateSeamsAndLayers() {
        let state = Self.state()
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("Tests 2/3 running · to all"), "\(text)")
        #expect(text.contains("#1 failed 1.5s  countsApples()"), "\(text)")
        #expect(text.contains("clock.now 12 calls · 1 failed"), "\(text)")
        #expect(text.contains("clock.now 30 calls · 1 held"), "\(text)")
        #expect(text.contains("clock.now: pause  (alice)"), "\(text)")
        #expect(text.contains("clock.now: freeze  (test: shelves"), "\(text)")
    }

    @Test func nSendsChangesToEachRunningTestInTurnThenToTheProcess() {
        var state = Self.state()
        #expect(state.testScope == nil)
        _ = F.press([.character("n")], &state)
        #expect(state.testScope == "#2")
        #expect(state.message?.text.contains("countsPears()") == true)
        var text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("▶ #2 running"), "\(text)")
        #expect(text.contains("running · to #2"), "\(text)")
        _ = F.press([.character("n")], &state)
        #expect(state.testScope == "#3")
        _ = F.press([.character("n")], &state)
        #expect(state.testScope == nil)
        text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("running · to all"), "\(text)")
    }

    @Test func aChangeGoesToTheChosenTestAndABreakpointThereIsAnswered() {
        var state = Self.state()
        _ = F.press([.character("n")], &state)
        while state.selectedSeam?.id != "clock.now" { _ = F.press([.down], &state) }
        #expect(F.press([.character("r")], &state) == [.inTests("#2", .revert("clock.now"))])
        // The registry holds nothing on the seam; the chosen test does: u releases there.
        #expect(F.press([.character("u")], &state) == [.inTests("#2", .release("clock.now"))])
        #expect(
            F.press([.character("c")], &state) == [
                .inTests("#2", .answer(seam: "clock.now", spec: nil, holdNext: false))
            ])
    }

    @Test func hHidesTheTestsThatEnded() {
        var state = Self.state()
        _ = F.press([.character("H")], &state)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(!text.contains("countsApples()"), "\(text)")
        #expect(text.contains("tests that ended are hidden"), "\(text)")
    }

    @Test func thePalettesTestLineSendsChangesToEveryTestAPatternNames() throws {
        #expect(try ConsoleLine(parsing: "test *Pears*") == .test("*Pears*"))
        #expect(try ConsoleLine(parsing: "test all") == .test(nil))
        #expect(throws: ConsoleLine.ParseError.self) { try ConsoleLine(parsing: "test") }
        var state = Self.state()
        _ = F.press([.character(":")] + F.typing("test *s*") + [.enter], &state)
        #expect(state.testScope == "*s*")
        // Both running tests match (the failed one no longer runs).
        #expect(state.message?.text == "changes go to #2 countsPears(), #3 shelvesPlums() alone")
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("▶ #2 running") && text.contains("▶ #3 running"), "\(text)")
        while state.selectedSeam?.id != "clock.now" { _ = F.press([.down], &state) }
        #expect(F.press([.character("r")], &state) == [.inTests("*s*", .revert("clock.now"))])
        _ = F.press([.character(":")] + F.typing("test all") + [.enter], &state)
        #expect(state.testScope == nil)
        #expect(F.press([.character("r")], &state) != [.inTests("*s*", .revert("clock.now"))])
    }
}
