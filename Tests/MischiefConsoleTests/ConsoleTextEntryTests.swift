import Mischief
import MischiefConsole
import Testing

/// The filter and the save prompt take keys literally; Esc leaves them.
@Suite struct ConsoleTextEntryTests {
    typealias F = ConsoleFixtures

    func listed(_ state: ConsoleState) -> [SeamID] {
        state.lines.compactMap { line in
            if case .seam(let index) = line { state.data?.seams[index].id } else { nil }
        }
    }

    @Test func filterTakesKeysLiterallyAndMatchesTitleIdCategoryAndBehaviour() {
        var state = F.state()
        #expect(F.press([.character("/")] + F.typing("q1/ "), &state).isEmpty)
        #expect(state.mode == .filter)
        #expect(state.filter.text == "q1/ ")
        #expect(listed(state).isEmpty)
        #expect(state.selection == nil)
        _ = F.press([.control("u")] + F.typing("TOKYO"), &state)
        // location.current by its behaviour, any case; clock.now because the profile Tokyo changes it.
        #expect(listed(state) == ["clock.now", "location.current"])
        _ = F.press([.control("u")] + F.typing("l10n."), &state)
        #expect(listed(state) == ["l10n.strings", "l10n.menu", "l10n.calendar"])  // ids
        _ = F.press([.control("u")] + F.typing("network"), &state)
        #expect(listed(state) == ["net.response", "net.reachability"])  // category
        _ = F.press([.down], &state)
        #expect(state.selection == "net.reachability")
        _ = F.press([.control("u")] + F.typing("café"), &state)
        #expect(listed(state) == ["l10n.menu"])  // a title with a combining accent
        _ = F.press([.backspace, .backspace, .enter], &state)
        #expect(state.mode == .browse)
        #expect(state.filter.text == "ca")
        #expect(
            listed(state) == [
                "location.current", "location.heading", "l10n.strings", "l10n.menu", "l10n.calendar", "model.cart",
            ])
        _ = F.press([.escape], &state)
        #expect(state.filter.text.isEmpty)
        #expect(listed(state).count == 12)
    }

    @Test func escapeClearsTheFilterWhileTyping() {
        var state = F.state()
        _ = F.press([.character("/")] + F.typing("net") + [.escape], &state)
        #expect(state.mode == .browse)
        #expect(state.filter.text.isEmpty)
        #expect(listed(state).count == 12)
        _ = F.press([.character("/")], &state)
        #expect(F.press([.control("c")], &state) == [.quit])
    }

    @Test func savePromptSendsTheNameAndShowsWhereItWent() {
        var state = F.state()
        #expect(
            F.press([.character("s")] + F.typing(" Morning 1/q ") + [.enter], &state)
                == [.saveProfile("Morning 1/q")])
        #expect(state.mode == .browse)
        _ = Console.update(&state, .commandFinished(.saveProfile("Morning 1/q"), .success("/tmp/p/morning.yaml")))
        #expect(state.message?.text == "saved Morning 1/q to /tmp/p/morning.yaml")
    }

    @Test func savePromptRefusesAnEmptyNameAndEscCancels() {
        var state = F.state()
        #expect(F.press([.character("s"), .character(" "), .enter], &state).isEmpty)
        #expect(state.mode == .saveName(TextField(" ")))
        #expect(state.message?.isError == true)
        _ = F.press([.escape], &state)
        #expect(state.mode == .browse)
        _ = F.press([.character("s")], &state)
        #expect(F.press([.control("c")], &state) == [.quit])
    }

    /// Applies keys to a field; returns whether each one edited.
    func edit(_ field: inout TextField, _ keys: [Key]) -> [Bool] {
        keys.map { field.edit($0) }
    }

    @Test func textFieldEditing() {
        var field = TextField("shift(1d)")
        #expect(field.cursor == 9)
        #expect(edit(&field, [.left, .left, .backspace]) == [true, true, true])
        #expect(field.text == "shift(d)" && field.cursor == 6)
        _ = edit(&field, [.character("2")])
        #expect(field.text == "shift(2d)")
        _ = edit(&field, [.home, .delete])
        #expect(field.text == "hift(2d)" && field.cursor == 0)
        #expect(edit(&field, [.backspace]) == [true])  // nothing before the cursor: consumed, no change
        _ = edit(&field, [.end, .delete])
        #expect(field.text == "hift(2d)")  // nothing after it
        _ = edit(&field, [.control("a"), .right, .control("k")])
        #expect(field.text == "h" && field.cursor == 1)
        field = TextField("accents + expand")
        _ = edit(&field, [.control("w")])
        #expect(field.text == "accents + ")
        _ = edit(&field, [.control("w")])
        #expect(field.text == "accents ")
        _ = edit(&field, [.control("e"), .left, .control("u")])
        #expect(field.text == " " && field.cursor == 0)
        field = TextField("東京", cursor: 1)
        _ = edit(&field, [.character("・")])
        #expect(field.text == "東・京" && field.cursor == 2)
        let others: [Key] = [.enter, .escape, .up, .down, .tab, .function(1), .control("c")]
        #expect(edit(&field, others) == Array(repeating: false, count: others.count))
        #expect(field.text == "東・京")
        #expect(TextField("ab", cursor: 7).cursor == 2)
    }

    /// A terminal delivers a decomposed "é" or a flag one scalar at a time; each joins the character before it, and
    /// the next key used to index past the end of the text (a crash).
    @Test func typedScalarsThatJoinTheCharacterBefore() {
        var field = TextField()
        _ = edit(&field, [.character("e"), .character("\u{301}"), .character("x")])
        #expect(field.text == "e\u{301}x" && field.cursor == 2)
        _ = edit(&field, [.character("🇵"), .character("🇹"), .character("!")])
        #expect(field.text == "e\u{301}x🇵🇹!" && field.cursor == 4)
        _ = edit(&field, [.home, .character("\u{301}"), .right, .backspace])
        #expect(field.text == "\u{301}x🇵🇹!" && field.cursor == 1)
    }
}
