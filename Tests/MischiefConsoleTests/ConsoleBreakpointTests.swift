import Mischief
import Testing

@testable import MischiefConsole

/// A pause as a breakpoint in the console: the held call's input in the detail, `o` answers, `x` fails, `c` lets
/// the rest run.
@Suite struct ConsoleBreakpointTests {
    typealias F = ConsoleFixtures

    static let userJSON = #"{"age":36,"name":"Ada Lovelace"}"#

    /// The fixture's state with a call held on a `(User) -> User` seam, selected.
    static func state(rows: Int = 24, columns: Int = 80, canThrow: Bool = false, input: String = userJSON)
        -> ConsoleState
    {
        var state = F.state(rows: rows, columns: columns)
        var data = F.data(seconds: 3_724, calls: 60)
        var seam = SeamSnapshot(
            id: "model.person", title: "Person", category: "Clock", signature: "(User) -> User", behaviour: "pause",
            spec: "pause", held: 1, status: .active, actions: [F.off, F.returning], canThrow: canThrow)
        seam.heldCalls = [HeldCall(input: input)]
        data.seams.insert(seam, at: 1)
        state.show(data)
        while state.selectedSeam?.id != "model.person" { _ = F.press([.down], &state) }
        return state
    }

    @Test func theDetailShowsTheHeldCallsInputWholeAndTheKeys() {
        for (rows, columns) in [(24, 80), (60, 200)] {
            let state = Self.state(rows: rows, columns: columns)
            let text = Console.render(state, size: state.size, theme: .standard).text
            #expect(text.contains("held {"), "at \(columns)x\(rows)")
            #expect(text.contains(#"  "age": 36,"#), "at \(columns)x\(rows)")
            #expect(text.contains("o return"), "at \(columns)x\(rows)")
        }
    }

    /// A model's input as the target sends it: compact JSON, a date in ISO 8601, a long value.
    static let memberJSON =
        #"{"address":{"city":"London","lines":["12 St James's Square","Westminster"]},"id":3,"#
        + #""joined":"2023-11-14T22:13:20Z","name":"Ada Lovelace","notes":"#
        + #""Analyst, metaphysician, and founder of scientific computing; wrote the first published program","#
        + #""tags":[],"vip":true}"#

    /// The held input laid out one member a line and wrapped between words, never inside a key (`"i` / `d":`), at
    /// 80 and 120 columns; `o` starts from the same text on one line.
    @Test func aHeldModelIsPrettyPrintedAndWrappedAtTokenBoundaries() throws {
        for (rows, columns) in [(40, 80), (40, 120)] {
            var state = Self.state(rows: rows, columns: columns, input: Self.memberJSON)
            let grid = Console.render(state, size: state.size, theme: .standard)
            assertSnapshot(grid, named: "held-model-\(columns)x\(rows)")
            // The whole input, as the pane scrolls through it: every member on a line of its own.
            let seam = try #require(state.selectedSeam)
            let detailWidth = columns / 2 + 1  // the detail pane's share of the screen
            let lines = HeldCallLines.lines(of: seam, width: detailWidth).map { $0.map(\.text).joined() }
            for key in ["\"id\": 3,", "\"joined\": \"2023-11-14T22:13:20Z\",", "\"vip\": true", "\"tags\": [],"] {
                #expect(lines.contains { $0.hasSuffix(key) }, "\(key) on one line at \(columns) columns:\n\(lines)")
            }
            #expect(lines.dropLast().allSatisfy { DisplayWidth.of($0) <= detailWidth }, "\(lines)")
            #expect(
                lines.contains { $0.hasPrefix("       ") && $0.dropFirst(7).first?.isLowercase == true },
                "the notes' continuation under its start: \(lines)")
            _ = F.press([.character("o")], &state)
            guard case .answer(_, let field) = state.mode else {
                Issue.record("o did not open the answer field: \(state.mode)")
                return
            }
            #expect(field.text == "return(\(Self.memberJSON))")
        }
    }

    /// Only the whitespace between tokens changes: strings (with brackets, commas and escaped quotes in them) and
    /// numbers are kept as written, and text that is not a JSON object or array is shown as it is.
    @Test(arguments: [
        (
            #"{"a":"x, {y}: \"z\"","b":[1.10,2e3]}"#,
            "{\n  \"a\": \"x, {y}: \\\"z\\\"\",\n  \"b\": [\n    1.10,\n    2e3\n  ]\n}"
        ),
        (#""a quoted string""#, #""a quoted string""#),
        ("Person(name: \"Ada\")", "Person(name: \"Ada\")"),
        (#"{"unclosed":"#, #"{"unclosed":"#),
        ("[]", "[]"),
    ])
    func theLayoutChangesOnlyWhitespace(input: String, shown: String) {
        #expect(JSONLayout.pretty(input) == shown)
        #expect(JSONLayout.compact(JSONLayout.pretty(input)) == JSONLayout.compact(input))
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
