import Mischief
import Testing

@testable import MischiefConsole

/// Every mode's keys are declared once (``KeyBindings`` for the main screen, a ``ModeKeys`` table for each other
/// mode): a mode acts on the keys its declaration lists and on no other, each listed key does something, and the
/// status line's hints (and what a click on one presses) name keys the mode binds.
@Suite struct ModeKeysTests {
    typealias F = ConsoleFixtures

    /// Every key a terminal sends that a mode could bind (Ctrl-C aside: it quits everywhere).
    static let keys: [Key] =
        (32...126).map { Key.character(Character(UnicodeScalar($0)!)) }
        + [
            .up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .insert, .enter, .tab, .backTab, .backspace,
            .delete, .escape, .alt("1"), .alt("x"),
        ]
        + (1...12).map(Key.function) + "abdefghijklmnopqrstuvwxyz@\\]^_".map(Key.control)

    /// One mode: states in it, whether its declaration binds a key, whether other keys type text, its hints.
    struct Mode: Sendable, CustomTestStringConvertible {
        let name: String
        let states: [ConsoleState]
        let bound: [Key]
        let otherKeysAnswer: Bool
        let typesText: Bool
        let hints: [[KeyHint]]
        var testDescription: String { name }

        init<Command>(_ table: ModeKeys<Command>, _ states: [ConsoleState]) {
            name = table.title
            self.states = states
            bound = Array(table.commands.keys)
            otherKeysAnswer = table.otherKeys != nil
            typesText = table.typesText
            hints = [table.hints]
        }

        init(browse states: [ConsoleState]) {
            name = "main screen"
            self.states = states
            bound = Array(KeyBindings.browse.keys)
            otherKeysAnswer = false
            typesText = false
            hints = [KeyBindings.hints, KeyBindings.heldHints, KeyBindings.restartHints]
        }

        /// Whether the mode's declaration accounts for the key: it binds it, or it is typed or edits the field.
        func declares(_ key: Key) -> Bool {
            if bound.contains(key) || otherKeysAnswer { return true }
            guard typesText else { return false }
            if case .character = key { return true }
            return KeyBindings.edit[key] != nil
        }
    }

    /// A state of the fixtures in `mode`.
    static func state(_ mode: ConsoleState.Mode, rows: Int = 40, columns: Int = 120) -> ConsoleState {
        var state = F.state(rows: rows, columns: columns)
        _ = F.press([.character("j"), .character("j")], &state)
        state.mode = mode
        return state
    }

    static var modes: [Mode] {
        var picker = ActionPicker(seam: "clock.now", choice: 1)
        var spec = picker
        spec.field = TextField("sh")
        var history = state(.picker(spec))
        history.specHistory.add("shift(2d)", for: "clock.now")
        var log = EventLog()
        log.selected = 1
        var detail = log
        detail.showsDetail = true
        var filtering = EventLog()  // every key while filtering selects the newest line: start there
        filtering.isFiltering = true
        var palette = CommandPalette()
        palette.selected = 1
        var withMessage = state(.browse)
        withMessage.message = .init("a message")
        var filtered = state(.browse)
        filtered.filter = TextField("c")
        picker.describing = true
        return [
            Mode(browse: [state(.browse), F.state(rows: 40, columns: 120), withMessage, filtered]),
            Mode(KeyBindings.filter, [state(.filter)]),
            Mode(
                KeyBindings.picker,
                [state(.picker(ActionPicker(seam: "clock.now", choice: 1))), state(.picker(picker))]),
            Mode(KeyBindings.pickerSpec, [state(.picker(spec)), history]),
            Mode(KeyBindings.eventLog, [state(.eventLog(log))]),
            Mode(KeyBindings.eventDetail, [state(.eventLog(detail))]),
            Mode(KeyBindings.eventLogFilter, [state(.eventLog(filtering))]),
            Mode(KeyBindings.profileList, [state(.profileList(selected: 1))]),
            Mode(KeyBindings.palette, [state(.palette(palette))]),
            Mode(KeyBindings.saveName, [state(.saveName(TextField()))]),
            Mode(KeyBindings.timeToLive, [state(.timeToLive("clock.now", TextField()))]),
            Mode(KeyBindings.answer, [state(.answer("clock.now", TextField()))]),
            Mode(KeyBindings.confirmOverwrite, [state(.confirmOverwrite(name: "Tokyo", question: "a file"))]),
            Mode(KeyBindings.help, [state(.help(scroll: 1), rows: 24, columns: 80)]),
            Mode(KeyBindings.tooSmall, [F.state(rows: 8, columns: 30)]),
        ]
    }

    /// Whether a key changed anything: the state, or the commands it returned.
    static func acts(_ key: Key, on state: ConsoleState) -> Bool {
        var after = state
        return !F.press([key], &after).isEmpty || after != state
    }

    /// A key the declaration does not list does nothing in the mode.
    @Test(arguments: modes) func aModeActsOnNoKeyItsDeclarationLeavesOut(mode: Mode) {
        for state in mode.states {
            for key in Self.keys where !mode.declares(key) {
                let acted = Self.acts(key, on: state)
                #expect(!acted, "\(mode.name): \(key) is not declared, but it did something")
            }
        }
    }

    /// Every key the declaration lists does something in the mode (in one of its states at least).
    @Test(arguments: modes) func everyDeclaredKeyActs(mode: Mode) {
        for key in mode.bound {
            let acted = mode.states.contains { Self.acts(key, on: $0) }
            #expect(acted, "\(mode.name): \(key) is declared, but did nothing")
        }
    }

    /// The keys a hint's label names: `⏎`, `Esc ?`, `↑↓`, `1-9`, `+-`, `y Y`.
    static func keys(named label: String) -> [Key]? {
        var keys: [Key] = []
        for word in label.split(separator: " ") {
            switch word {
            case "⏎": keys.append(.enter)
            case "␣": keys.append(.character(" "))
            case "Esc": keys.append(.escape)
            case "Tab": keys.append(.tab)
            case "Home": keys.append(.home)
            case "End": keys.append(.end)
            case "F1": keys.append(.function(1))
            case "↑↓": keys += [.up, .down]
            case "+-": keys += [.character("+"), .character("-")]
            case "1-9", "1…9": keys += (1...9).map { .character(Character("\($0)")) }
            case _ where word.count == 1: keys.append(.character(word.first!))
            default: return nil
            }
        }
        return keys
    }

    /// A hint names keys its mode binds, and a click on it presses one of them.
    @Test(arguments: modes) func hintsNameTheModesKeys(mode: Mode) {
        for hint in mode.hints.joined() {
            let keys = Self.keys(named: hint.label)
            #expect(keys != nil, "\(mode.name): the hint \(hint.label) names no key")
            for key in keys ?? [] {
                #expect(
                    mode.bound.contains(key) || mode.otherKeysAnswer,
                    "\(mode.name): the hint \(hint.label) names \(key), not bound")
            }
            if let click = hint.click {
                #expect(keys?.contains(click) == true, "\(mode.name): a click on \(hint.label) presses \(click)")
            }
        }
    }

    /// The help screen (`?`) lists every mode's keys as declared: under the mode's title, a row for each binding that
    /// names each of its keys and says what they do.
    @Test func theHelpScreenListsEveryModesKeys() {
        // One column wide enough that no description wraps.
        let lines = HelpView.layout(columns: 400, count: 1).joined().map { $0.map(\.text).joined() }
        let digits = (1...9).map { Key.character(Character("\($0)")) }
        for mode in KeyBindings.modes {
            guard let start = lines.firstIndex(of: mode.title) else {
                Issue.record("the help screen has no section \(mode.title)")
                continue
            }
            let section = lines[(start + 1)...].prefix { !$0.isEmpty }
            for row in mode.rows {
                // A row is two spaces, the keys padded to the keys column, then what they do.
                let column = 2 + HelpView.keysWidth
                let found = section.first { String($0.dropFirst(column)) == row.does }
                #expect(found != nil, "\(mode.title): the help screen does not say \(row.does)")
                guard let found else { continue }
                let names = found.prefix(column).split(separator: " ").map(String.init)
                if row.keys.isEmpty { #expect(names == ["any", "other", "key"], "\(mode.title): \(found)") }
                for key in row.keys {
                    let named =
                        names.contains(Console.keyName(key)) || (digits.contains(key) && names == ["1", "…", "9"])
                    #expect(named, "\(mode.title): \(key) is declared, but the help screen's row is \(found)")
                }
            }
        }
    }

    /// The palette's commands name the main screen's keys that do the same.
    @Test func thePalettesCommandsNameBoundKeys() {
        for command in Console.paletteCommands where !command.key.isEmpty {
            let keys = Self.keys(named: command.key) ?? []
            #expect(!keys.isEmpty, "\(command.title): \(command.key) names no key")
            for key in keys { #expect(KeyBindings.browse[key] != nil, "\(command.title): \(key) is not bound") }
        }
    }

    /// The hints a mode shows are its declaration's.
    @Test func theStatusLineShowsTheDeclaredHints() {
        let help = Self.state(.help(scroll: 0))
        #expect(KeyHelp.hints(for: help) == KeyBindings.help.hints)
        var held = Self.state(.browse)
        held.lostLayers = [.revertAll]
        #expect(KeyHelp.hints(for: held) == KeyBindings.restartHints)
        let text = Console.render(Self.state(.profileList(selected: 0)), size: help.size, theme: .standard).text
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        for hint in KeyBindings.profileList.hints { #expect(last.contains("\(hint.label) \(hint.words)"), "\(last)") }
    }
}
