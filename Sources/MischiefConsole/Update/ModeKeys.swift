import Mischief

/// A hint of the status line: the keys as the line shows them (`⏎`, `Esc p`, `1-9`), what they do in a word or
/// two, and the key a click on the hint presses (nil: a click does nothing, as on `q quit` or `1-9 profiles`).
struct KeyHint: Hashable, Sendable {
    /// The keys as the status line shows them.
    let label: String
    /// What they do, in a word or two.
    let words: String
    /// The key a click on the hint presses, or nil.
    let click: Key?

    init(_ label: String, _ words: String, click: Key? = nil) {
        self.label = label
        self.words = words
        self.click = click
    }
}

/// A movement in a list or a scrolled screen, as the navigation keys ask for it.
enum Navigation: Hashable, Sendable {
    /// This many rows (negative: up).
    case step(Int)
    /// A page down (1) or up (-1).
    case page(Int)
    /// The first or the last row.
    case first, last

    /// The movement, with pages of `page` rows.
    func movement(page: Int) -> Console.Movement {
        switch self {
        case .step(let rows): .by(rows)
        case .page(let pages): .by(pages * max(1, page))
        case .first: .first
        case .last: .last
        }
    }
}

/// Some keys of a mode bound to one command, with what they do in the key table's words.
struct ModeBinding<Command: Hashable & Sendable>: Sendable {
    /// The keys.
    let keys: [Key]
    /// What they ask for.
    let command: Command
    /// What they do, in the key table's words.
    let does: String

    init(_ keys: [Key], _ command: Command, _ does: String) {
        self.keys = keys
        self.command = command
        self.does = does
    }
}

/// The keys of one mode of the console besides the main screen, declared once: the mode's handler looks each key
/// up here and does what its command says, the status line shows the mode's ``hints`` (a click on one presses its
/// key), and the help screen (``KeyBindings/helpSections``) and ``KeyBindings/markdownTable()``, the key table of
/// `TheConsole.md`, list its ``bindings``. A key the
/// table does not bind does nothing, or is typed into the mode's text field when it ``typesText``, or does what
/// ``otherKeys`` says.
struct ModeKeys<Command: Hashable & Sendable>: Sendable {
    /// The mode's name in the key table: `Event log`.
    let title: String
    /// The keys and their commands, in the key table's order.
    let bindings: [ModeBinding<Command>]
    /// The status line's hints for the mode, in the order they show.
    let hints: [KeyHint]
    /// Whether keys not bound here edit the mode's text field (``KeyBindings/edit``, and characters typed).
    let typesText: Bool
    /// What every key not bound here does (a question every key answers), or nil.
    let otherKeys: ModeBinding<Command>?
    /// Each key's command.
    let commands: [Key: Command]

    init(
        _ title: String, typesText: Bool = false, hints: [KeyHint], otherKeys: ModeBinding<Command>? = nil,
        _ bindings: [ModeBinding<Command>]
    ) {
        self.title = title
        self.bindings = bindings
        self.hints = hints
        self.typesText = typesText
        self.otherKeys = otherKeys
        var commands: [Key: Command] = [:]
        for binding in bindings {
            for key in binding.keys {
                precondition(commands[key] == nil, "\(title): \(key) is bound twice")
                commands[key] = binding.command
            }
        }
        self.commands = commands
    }

    /// The command a key asks for in this mode: its own, else ``otherKeys``' command, else nil.
    subscript(key: Key) -> Command? {
        commands[key] ?? otherKeys?.command
    }

    /// The navigation keys of a list or a scrolled screen (those of the main screen's Move section), each as
    /// `command` of its movement, with what they do in `words`: up, down, a page up, a page down, the first, the last.
    static func navigation(
        _ command: (Navigation) -> Command,
        _ words: [String] = ["up", "down", "a page up", "a page down", "the first", "the last"]
    ) -> [ModeBinding<Command>] {
        [
            ModeBinding([.up, .character("k")], command(.step(-1)), words[0]),
            ModeBinding([.down, .character("j")], command(.step(1)), words[1]),
            ModeBinding([.pageUp], command(.page(-1)), words[2]),
            ModeBinding([.pageDown], command(.page(1)), words[3]),
            ModeBinding([.home, .character("g")], command(.first), words[4]),
            ModeBinding([.end, .character("G")], command(.last), words[5]),
        ]
    }
}

/// What a key asks for in a mode that types into a field and takes or drops it (the filter, a profile name, a time
/// to live, an answer).
enum FieldCommand: Hashable, Sendable {
    /// Enter: takes what is typed.
    case accept
    /// Esc: leaves (the filter clears).
    case cancel
    /// Moves the list's selection while typing the filter.
    case move(Navigation)
}

/// What a key asks for in the help screen.
enum HelpCommand: Hashable, Sendable {
    /// Back to the main screen.
    case close
    /// Scrolls.
    case move(Navigation)
}

/// What a key asks for in a yes-or-no question.
enum AnswerCommand: Hashable, Sendable {
    /// Yes.
    case yes
    /// No.
    case no
}

/// What a key asks for in the event log.
enum EventLogCommand: Hashable, Sendable {
    /// Copies the selected change as a `mischief` command (`y`) or a `curl` line (`Y`).
    case copy(curl: Bool)
    /// Esc: clears the log's filter when it has one, else closes the log (in the whole event: back to the list).
    case back
    /// Closes the log (in the whole event: back to the list).
    case close
    /// Opens the selected event whole (in the whole event: back to the list).
    case open
    /// Starts typing the log's filter.
    case filter
    /// Shows the target's wall-clock times, or times since it started.
    case wallClock
    /// Moves the selection (up is older).
    case move(Navigation)
}

/// What a key asks for in the list of profiles.
enum ProfileListCommand: Hashable, Sendable {
    /// Closes the list.
    case close
    /// Switches the chosen profile.
    case toggle
    /// Switches the profile whose hot key (1 to 9) was pressed.
    case profileKey
    /// Moves the selection.
    case move(Navigation)
}

/// What a key asks for in the action picker.
enum PickerCommand: Hashable, Sendable {
    /// Esc: hides the action's description when it shows, else closes the picker.
    case back
    /// Closes the picker.
    case close
    /// Shows or hides the chosen action's whole description.
    case describe
    /// Choosing: edits the chosen action's spec. Editing: applies the spec.
    case accept
    /// Completes the word before the cursor.
    case complete
    /// Walks the seam's specs applied before (up: older).
    case history(up: Bool)
    /// Moves the choice.
    case move(Navigation)
}

/// What a key asks for in the command palette.
enum PaletteCommand: Hashable, Sendable {
    /// Closes the palette.
    case close
    /// Runs the line, or the chosen match.
    case run
    /// Moves the choice by this many matches.
    case choose(Int)
    /// Completes the line.
    case complete
}

/// What a key asks for on a screen too small to use.
enum TooSmallCommand: Hashable, Sendable {
    /// Quits.
    case quit
}

extension KeyBindings {
    /// Typing the filter (`/`).
    static let filter = ModeKeys<FieldCommand>(
        "Typing the filter (/)", typesText: true,
        hints: [KeyHint("⏎", "keep"), KeyHint("Esc", "clear"), KeyHint("↑↓", "move")],
        [
            ModeBinding([.enter], .accept, "keep the filter"),
            ModeBinding([.escape], .cancel, "clear the filter"),
            ModeBinding([.up], .move(.step(-1)), "the seam above"),
            ModeBinding([.down], .move(.step(1)), "the seam below"),
            ModeBinding([.pageUp], .move(.page(-1)), "a page up"),
            ModeBinding([.pageDown], .move(.page(1)), "a page down"),
        ])

    /// Typing a profile's name (`s`).
    static let saveName = field("Typing a profile's name (s)", accept: "save", "save the profile")
    /// Typing a time to live (`T`).
    static let timeToLive = field("Typing a time to live (T)", accept: "set", "set it")
    /// Typing what held calls return (`o`).
    static let answer = field("Typing what held calls return (o)", accept: "answer", "answer the held calls")

    /// The keys of a field that is taken or dropped.
    private static func field(_ title: String, accept: String, _ does: String) -> ModeKeys<FieldCommand> {
        ModeKeys(
            title, typesText: true, hints: [KeyHint("⏎", accept), KeyHint("Esc", "cancel")],
            [ModeBinding([.enter], .accept, does), ModeBinding([.escape], .cancel, "cancel")])
    }

    /// Whether to overwrite a profile file that Mischief did not write.
    static let confirmOverwrite = ModeKeys<AnswerCommand>(
        "Overwrite a profile file?", hints: [KeyHint("y", "overwrite"), KeyHint("n", "keep the file")],
        otherKeys: ModeBinding([], .no, "keep the file"),
        [ModeBinding([.character("y"), .character("Y")], .yes, "overwrite the file")])

    /// The help screen (`?`).
    static let help = ModeKeys<HelpCommand>(
        "Help (?)", hints: [KeyHint("↑↓", "scroll"), KeyHint("Esc ?", "close")],
        [
            ModeBinding(
                [.escape, .character("?"), .character("q"), .function(1)], .close, "back to the main screen")
        ] + ModeKeys<HelpCommand>.navigation(HelpCommand.move))

    /// The event log's list (`e`).
    static let eventLog = ModeKeys<EventLogCommand>(
        "Event log (e)",
        hints: [
            KeyHint("↑↓", "choose"), KeyHint("⏎", "whole"), KeyHint("/", "filter"), KeyHint("w", "wall clock"),
            KeyHint("Home End", "oldest/newest"), KeyHint("Esc", "close"),
        ],
        [
            ModeBinding([.enter], .open, "the selected event whole"),
            ModeBinding([.character("/")], .filter, "filter the log (Enter keeps the filter, Esc clears it)"),
            ModeBinding([.character("w")], .wallClock, "the target's wall-clock times, or time since it started"),
            ModeBinding(
                [.character("y")], .copy(curl: false), "copy the selected change's `mischief apply`/`revert` command"),
            ModeBinding([.character("Y")], .copy(curl: true), "copy the selected change's `curl` line"),
            ModeBinding([.escape], .back, "clear the filter, or close the log"),
            ModeBinding([.character("e"), .character("q")], .close, "close the log"),
        ]
            + ModeKeys<EventLogCommand>.navigation(
                EventLogCommand.move, ["older", "newer", "a page older", "a page newer", "the oldest", "the newest"]))

    /// One event shown whole (Enter in the event log).
    static let eventDetail = ModeKeys<EventLogCommand>(
        "An event whole (Enter in the event log)",
        hints: [KeyHint("↑↓", "older/newer"), KeyHint("y Y", "copy command/curl"), KeyHint("Esc ⏎", "back")],
        [
            ModeBinding([.up, .character("k")], .move(.step(-1)), "the older event"),
            ModeBinding([.down, .character("j")], .move(.step(1)), "the newer event"),
            ModeBinding([.character("y")], .copy(curl: false), "copy its `mischief apply`/`revert` command"),
            ModeBinding([.character("Y")], .copy(curl: true), "copy its `curl` line"),
            ModeBinding([.escape, .enter, .character("q")], .close, "back to the list"),
        ])

    /// Typing the event log's filter (`/` in the log).
    static let eventLogFilter = ModeKeys<FieldCommand>(
        "Typing the event log's filter", typesText: true, hints: [KeyHint("⏎", "keep"), KeyHint("Esc", "clear")],
        [
            ModeBinding([.enter], .accept, "keep the filter"),
            ModeBinding([.escape], .cancel, "clear the filter"),
        ])

    /// The list of profiles (`p`).
    static let profileList = ModeKeys<ProfileListCommand>(
        "Profiles (p)",
        hints: [
            KeyHint("↑↓", "choose"), KeyHint("␣ ⏎", "switch"), KeyHint("1-9", "by key"), KeyHint("Esc p", "close"),
        ],
        [
            ModeBinding([.character(" "), .enter], .toggle, "switch the chosen profile"),
            ModeBinding(
                (1...9).map { Key.character(Character("\($0)")) }, .profileKey, "switch the profile with that key"),
            ModeBinding([.escape, .character("p"), .character("q")], .close, "close the list"),
        ] + ModeKeys<ProfileListCommand>.navigation(ProfileListCommand.move))

    /// The action picker, choosing an action (Enter on the main screen).
    static let picker = ModeKeys<PickerCommand>(
        "Action picker (Enter)",
        hints: [KeyHint("↑↓", "choose"), KeyHint("⏎", "edit spec"), KeyHint("i", "describe"), KeyHint("Esc", "close")],
        [
            ModeBinding([.enter], .accept, "edit the chosen action's spec"),
            ModeBinding([.character("i"), .right], .describe, "show or hide the action's whole description"),
            ModeBinding([.escape], .back, "hide the description, or close the picker"),
            ModeBinding([.character("q")], .close, "close the picker"),
        ] + ModeKeys<PickerCommand>.navigation(PickerCommand.move))

    /// The action picker, editing a spec.
    static let pickerSpec = ModeKeys<PickerCommand>(
        "Typing a spec (Enter in the picker)", typesText: true,
        hints: [
            KeyHint("⏎", "apply"), KeyHint("Esc", "close"), KeyHint("Tab", "complete"), KeyHint("↑↓", "history"),
            KeyHint("F1", "describe"),
        ],
        [
            ModeBinding([.enter], .accept, "apply the spec"),
            ModeBinding([.tab], .complete, "complete an action, a parameter, a city, a duration's unit"),
            ModeBinding([.up], .history(up: true), "the spec applied before"),
            ModeBinding([.down], .history(up: false), "the spec applied after, then what was typed"),
            ModeBinding([.function(1)], .describe, "show or hide the action's whole description"),
            ModeBinding([.escape], .back, "hide the description, or close the picker"),
        ])

    /// The command palette (`:`).
    static let palette = ModeKeys<PaletteCommand>(
        "Command palette (:)", typesText: true,
        hints: [KeyHint("⏎", "run"), KeyHint("↑↓", "choose"), KeyHint("Tab", "complete"), KeyHint("Esc", "close")],
        [
            ModeBinding([.enter], .run, "run the line, or the chosen match"),
            ModeBinding([.up], .choose(-1), "the match above"),
            ModeBinding([.down], .choose(1), "the match below"),
            ModeBinding([.pageUp], .choose(-8), "8 matches up"),
            ModeBinding([.pageDown], .choose(8), "8 matches down"),
            ModeBinding([.tab], .complete, "complete the word, or take the chosen match's line"),
            ModeBinding([.escape], .close, "close the palette"),
        ])

    /// A screen too small to use.
    static let tooSmall = ModeKeys<TooSmallCommand>(
        "A screen too small", hints: [], [ModeBinding([.character("q")], .quit, "quit")])

    /// Every mode's keys besides the main screen's, for the key table: title, then (keys, what they do).
    static var modes: [(title: String, rows: [(keys: [Key], does: String)])] {
        func rows<Command>(_ mode: ModeKeys<Command>) -> (title: String, rows: [(keys: [Key], does: String)]) {
            (mode.title, mode.bindings.map { ($0.keys, $0.does) } + (mode.otherKeys.map { [([], $0.does)] } ?? []))
        }
        return [
            rows(filter), rows(picker), rows(pickerSpec), rows(eventLog), rows(eventDetail), rows(eventLogFilter),
            rows(profileList), rows(palette), rows(saveName), rows(timeToLive), rows(answer), rows(confirmOverwrite),
            rows(help), rows(tooSmall),
        ]
    }
}
