import Foundation
import Mischief
import Testing

@testable import MischiefConsole

/// The picker's spec field: the grammar shown while typing, a live check, Tab completion, the history and the
/// description of an action.
@Suite struct ConsoleSpecFieldTests {
    typealias F = ConsoleFixtures

    func picker(_ state: ConsoleState) -> ActionPicker? {
        if case .picker(let picker) = state.mode { picker } else { nil }
    }

    /// The picker on clock.now, editing `shift(1d)`.
    func editing(rows: Int = 24, columns: Int = 80) -> ConsoleState {
        var state = F.state(rows: rows, columns: columns)
        _ = F.press([.enter, .enter], &state)
        return state
    }

    func screen(_ state: ConsoleState) -> String { Console.render(state, size: state.size, theme: .standard).text }

    @Test(arguments: [ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 60, columns: 200)])
    func theGrammarAndTheLiveCheckShowWhileTyping(size: ScreenSize) {
        var state = editing(rows: size.rows, columns: size.columns)
        let text = screen(state)
        for part in ["20%A", "3*A", "A -> B", "A + B", "seq(A, B)", "actions: shift(by) freeze(at) dilate(rate) off"] {
            #expect(text.contains(part), "\(part) is not shown")
        }
        #expect(text.contains("✓ shift(1d)  ⏎ applies"))
        assertSnapshot(
            Console.render(state, size: size, theme: .standard), named: "spec-field-\(size.columns)x\(size.rows)")
        // A mistake shows at once, before Enter, with a caret under its column.
        _ = F.press([.control("u")] + F.typing("20%shift(q)"), &state)
        let lines = screen(state).split(separator: "\n").map(String.init)
        let specLine = try! #require(lines.firstIndex { $0.contains("  20%shift(q)") && !$0.contains("›") })
        let caretColumn = Array(lines[specLine + 1]).firstIndex(of: "^")
        let qColumn = Array(lines[specLine]).firstIndex(of: "q")
        #expect(caretColumn != nil && caretColumn == qColumn)
        assertSnapshot(
            Console.render(state, size: size, theme: .standard), named: "spec-field-error-\(size.columns)x\(size.rows)")
    }

    @Test func tabCompletesActionsParametersUnitsAndCities() {
        var state = editing()
        _ = F.press([.control("u")] + F.typing("20%sh") + [.tab], &state)
        #expect(picker(state)?.field?.text == "20%shift(")
        _ = F.press([.tab], &state)
        #expect(picker(state)?.field?.text == "20%shift(by: ")
        _ = F.press(F.typing("3") + [.tab], &state)
        #expect(picker(state)?.field?.text == "20%shift(by: 3")
        #expect(picker(state)?.completions == ["3ms", "3s", "3m", "3h", "3d", "3w"])
        #expect(screen(state).contains("Tab: 3ms  3s  3m  3h  3d  3w"), "\(screen(state))")
        _ = F.press(F.typing("h)"), &state)
        #expect(picker(state)?.completions == [])
        #expect(screen(state).contains("✓ 20%shift(by: 3h)"))
        // Completing in the middle keeps what follows the cursor.
        _ = F.press([.home] + F.typing("3*fr") + [.tab], &state)
        #expect(picker(state)?.field?.text == "3*freeze(20%shift(by: 3h)")

        // Cities, in a city's quotes.
        state = F.state()
        state.select(
            line: state.lines.firstIndex {
                if case .seam(let i) = $0 { state.data?.seams[i].id == "location.current" } else { false }
            }!)
        _ = F.press([.enter, .enter, .control("u")] + F.typing("city(\"Toky") + [.tab], &state)
        #expect(picker(state)?.field?.text == "city(\"Tokyo\"")
    }

    /// The values offered in quotes are the ones the parameter's signature suggests, as the target sent them: by
    /// name or by position, and none for a parameter that suggests none.
    @Test func quotesCompleteTheValuesTheSignatureSuggests() {
        let actions = F.locationActions
        #expect(Completion.spec("city(\"To", actions: actions)?.options == ["Tokyo", "Toronto"])
        #expect(Completion.spec("city(name: \"Os", actions: actions)?.text == "city(name: \"Oslo\"")
        #expect(Completion.spec("city(\"Ber", actions: actions) == nil, "a city the target does not offer")
        #expect(Completion.spec("jitter(\"1", actions: actions) == nil, "jitter suggests nothing")
    }

    @Test func upAndDownWalkTheSpecsAppliedBefore() {
        var state = editing()
        for spec in ["shift(1h)", "shift(2h)", "freeze(2026-01-01T00:00:00Z)"] {
            _ = Console.update(&state, .commandFinished(.apply(seam: "clock.now", spec: spec), .success(nil)))
        }
        #expect(state.specHistory.specs(for: "clock.now").count == 3)
        state.mode = .browse
        _ = F.press([.enter, .enter, .control("u")] + F.typing("shi"), &state)
        _ = F.press([.up], &state)
        #expect(picker(state)?.field?.text == "freeze(2026-01-01T00:00:00Z)")
        _ = F.press([.up, .up, .up], &state)
        #expect(picker(state)?.field?.text == "shift(1h)")  // the oldest stays
        _ = F.press([.down], &state)
        #expect(picker(state)?.field?.text == "shift(2h)")
        _ = F.press([.down, .down], &state)
        #expect(picker(state)?.field?.text == "shi")  // what was being typed comes back
        // Another seam has a history of its own.
        #expect(state.specHistory.specs(for: "net.response").isEmpty)
    }

    @Test func aKeyOnAnActionShowsItsWholeDescription() {
        var state = F.state()
        _ = F.press([.enter, .character("i")], &state)
        #expect(picker(state)?.describing == true)
        let text = screen(state)
        #expect(text.contains("shift: moves the clock"))
        #expect(text.contains("examples:"))
        #expect(text.contains("20%shift(1d)"))
        _ = F.press([.escape], &state)
        #expect(picker(state)?.describing == false)
        // While typing, ? is text and F1 describes.
        _ = F.press([.enter, .character("?")], &state)
        #expect(picker(state)?.field?.text == "shift(1d)?")
        _ = F.press([.function(1)], &state)
        #expect(screen(state).contains("examples:"))
    }
}
