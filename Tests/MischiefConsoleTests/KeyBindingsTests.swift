import Foundation
import Mischief
import Testing

@testable import MischiefConsole

/// The keys are declared once, in `KeyBindings`: the update acts on them, the help lists them, and the key table of
/// the console's article (`TheConsole.md`, in MischiefControl's DocC catalog) is written from them.
@Suite struct KeyBindingsTests {
    typealias F = ConsoleFixtures

    static let article = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Sources/MischiefControl/MischiefControl.docc/TheConsole.md").standardizedFileURL
    static let begin = "<!-- keys:begin -->\n"
    static let end = "<!-- keys:end -->"

    /// `MISCHIEF_RECORD_KEYS=1 swift test --filter KeyBindingsTests` writes the table into the article.
    @Test func theArticlesKeyTableIsTheDeclaredOne() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "TheConsole.md has no \(Self.begin)")
        let stop = try #require(
            text.range(of: Self.end, range: start.upperBound..<text.endIndex), "TheConsole.md has no \(Self.end)")
        let table = KeyBindings.markdownTable()
        if ProcessInfo.processInfo.environment["MISCHIEF_RECORD_KEYS"] == "1" {
            try (text[..<start.upperBound] + table + text[stop.lowerBound...])
                .write(to: Self.article, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(text[start.upperBound..<stop.lowerBound]) == table,
            "TheConsole.md's key table differs from KeyBindings (MISCHIEF_RECORD_KEYS=1 swift test --filter KeyBindingsTests writes it)"
        )
    }

    /// In one mode a key does one thing (the main screen's Home is not a text field's Home).
    @Test func noKeyIsBoundTwiceInAMode() {
        var seen: [String: String] = [:]
        for row in KeyBindings.sections.flatMap(\.rows) {
            let keys: [String] =
                switch row.commands {
                case .browse(let commands): commands.keys.map { "main screen: \($0)" }
                case .edit(let commands): commands.keys.map { "typing: \($0)" }
                case .described: []
                }
            for key in keys {
                #expect(seen[key] == nil, "\(key) is bound by \(seen[key] ?? "") and by \(row.label)")
                seen[key] = row.label
            }
        }
        #expect(KeyBindings.browse.count + KeyBindings.edit.count == seen.count)
    }

    /// Every key the table binds on the main screen does what it says there: a key it does not bind does nothing.
    @Test func theUpdateActsOnTheDeclaredKeysOnly() {
        let unbound: [Key] = [.character("X"), .character("Q"), .alt("1"), .function(5), .control("x"), .insert]
        for key in unbound {
            var state = F.state(rows: 40, columns: 120)
            let before = state
            #expect(F.press([key], &state).isEmpty)
            #expect(state == before, "\(key) is bound by no row but changed the state")
        }
        let cases: [(Key, (ConsoleState, [ConsoleCommand]) -> Bool)] = [
            (.character("R"), { _, commands in commands == [.revertAll] }),
            (.character("}"), { _, commands in commands == [.advanceTime(.seconds(86_400))] }),
            (.function(1), { state, _ in state.mode == .help(scroll: 0) }),
            (.character("/"), { state, _ in state.mode == .filter }),
            (.character("Z"), { _, commands in commands == [.resetCounters(nil)] }),
        ]
        for (key, holds) in cases {
            var state = F.state(rows: 40, columns: 120)
            let commands = F.press([key], &state)
            #expect(holds(state, commands), "\(key)")
        }
    }

    /// Text fields edit with the table's editing keys, Ctrl chords included.
    @Test func textFieldsEditWithTheDeclaredKeys() {
        var field = TextField()
        for character in "one two" { _ = field.edit(.character(character)) }
        let edits = [field.edit(.control("w")), field.text == "one "]
        #expect(edits == [true, true], "Ctrl-W deletes the word before the cursor: \(field.text)")
        let more = [
            field.edit(.control("a")), field.edit(.control("d")), field.text == "ne ", field.edit(.control("x")),
        ]
        #expect(more == [true, true, true, false], "Ctrl-A, Ctrl-D edit, Ctrl-X does not: \(field.text)")
    }
}
