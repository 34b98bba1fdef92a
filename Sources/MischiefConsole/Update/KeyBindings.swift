import Mischief

/// What a key on the main screen asks the console to do. ``KeyBindings`` says which key asks for which;
/// `Console.browseKey` does it.
enum BrowseCommand: Hashable, Sendable {
    /// Moves the selection, or scrolls the focused pane, by this many rows.
    case move(Int)
    /// Moves a page down (1) or up (-1) in the focused pane.
    case page(Int)
    /// The first or last row of the focused pane.
    case first, last
    /// Focuses the next pane (or the previous one).
    case focus(next: Bool)
    /// Switches the selected seam between its original and its last-used spec.
    case toggle
    /// Opens the action picker on the selected seam.
    case pick
    /// Moves the main parameter of the selected seam's behaviour by this many steps.
    case nudge(Int)
    /// Switches the profile with this hot key.
    case profile(Int)
    /// Reverts the selected seam.
    case revert
    /// Releases the calls a pause holds on the selected seam.
    case release
    /// Asks what the calls a pause holds on the selected seam return (a breakpoint's answer).
    case answer
    /// Fails the calls a pause holds on the selected seam.
    case fail
    /// Releases the held calls and reverts the pause, so the rest run.
    case letRestRun
    /// Undoes this console's last change.
    case undo
    /// Redoes the last change undone.
    case redo
    /// Resets the counters of the selected seam, or of every seam.
    case resetCounters(all: Bool)
    /// Asks how long the selected seam's layers last.
    case timeToLive
    /// Reverts everything.
    case revertAll
    /// Sends the changes made next to the next running test's scope (a live test session), or after the last to the
    /// whole process.
    case nextTest
    /// Hides or shows the tests that ended.
    case hideEndedTests
    /// After a restart: applies again what the console had applied on the old process.
    case applyAgain
    /// Advances virtual time by this many seconds.
    case advanceTime(seconds: Int)
    /// Starts typing the filter.
    case filter
    /// Asks for a name and saves what is applied as a profile.
    case saveProfile
    /// Saves the session's recording to a file.
    case saveRecording
    /// Opens the event log.
    case eventLog
    /// Opens the list of profiles.
    case profileList
    /// The next theme.
    case nextTheme
    /// Shows or hides invisible characters as marks.
    case invisibleMarks
    /// Copies the selected seam's spec, or every applied spec.
    case copy(all: Bool)
    /// Opens the command palette.
    case palette
    /// Opens the help screen.
    case help
    /// Quits.
    case quit
    /// Clears the filter, or else the message.
    case dismiss

    /// Whether the command changes the target in some state of the console (what it runs, counts or its time), so
    /// that, typed while an earlier change is on its way, it waits to build on what that one did.
    var actsOnTarget: Bool {
        switch self {
        case .toggle, .nudge, .profile, .revert, .release, .answer, .fail, .letRestRun, .undo, .redo,
            .resetCounters, .timeToLive, .revertAll, .applyAgain, .advanceTime:
            true
        case .nextTest, .hideEndedTests:
            false
        case .move, .page, .first, .last, .focus, .pick, .filter, .saveProfile, .saveRecording, .eventLog,
            .profileList, .nextTheme, .invisibleMarks, .copy, .palette, .help, .quit, .dismiss:
            false
        }
    }
}

/// What an editing key does to a text field (the filter, the picker's spec, a profile name, a time to live).
enum EditCommand: Hashable, Sendable {
    /// Deletes the character before the cursor, or the one under it.
    case deleteBackward, deleteForward
    /// Moves the cursor a character left or right, or to the start or end.
    case left, right, start, end
    /// Deletes from the cursor to the start, to the end, or the word before the cursor.
    case deleteToStart, deleteToEnd, deleteWord
}

/// One row of the console's keys, declared once: the keys, what each asks for, and the words the help screen and
/// the key table use. `Console.browseKey` and `TextField.edit` look keys up here, `HelpView` lists the rows (then
/// every other mode's, ``KeyBindings/helpSections``), and
/// ``KeyBindings/markdownTable()`` writes the key table of `TheConsole.md`, in MischiefControl's DocC catalog (a
/// test checks the article against it).
struct KeyBinding: Sendable {
    /// What a row's keys do, in which mode.
    enum Commands: Sendable {
        /// Keys of the main screen.
        case browse([Key: BrowseCommand])
        /// Editing keys of every text field.
        case edit([Key: EditCommand])
        /// Described here, handled where the words say (the mouse, the keys that end typing, a paste).
        case described
    }

    /// The keys as the help screen and the key table show them: `↑ ↓  k j`.
    let label: String
    /// What the keys do, in the few words of the help screen.
    let help: String
    /// What the keys do, in the key table's words; the help's when nil.
    let docs: String?
    /// The keys, and what each does.
    let commands: Commands

    init(_ label: String, _ help: String, docs: String? = nil, _ commands: Commands = .described) {
        self.label = label
        self.help = help
        self.docs = docs
        self.commands = commands
    }
}

/// The console's keys, by what they are for, declared once.
enum KeyBindings {
    /// A group of rows, under a title in the help screen.
    struct Section: Sendable {
        /// The group's title.
        let title: String
        /// Its rows, in order.
        let rows: [KeyBinding]
    }

    /// Every key, by what it is for.
    static let sections: [Section] = [
        Section(
            title: "Move",
            rows: [
                KeyBinding(
                    "↑ ↓  k j", "select a seam, or scroll the focused pane",
                    docs: "move the selection, or scroll the focused pane",
                    .browse([.up: .move(-1), .character("k"): .move(-1), .down: .move(1), .character("j"): .move(1)])),
                KeyBinding("PgUp PgDn", "a page up or down", .browse([.pageUp: .page(-1), .pageDown: .page(1)])),
                KeyBinding(
                    "Home End  g G", "the first or last",
                    docs: "the first or last seam, or the top or bottom of the focused pane",
                    .browse([.home: .first, .character("g"): .first, .end: .last, .character("G"): .last])),
                KeyBinding(
                    "Tab  Shift-Tab", "focus the next or previous pane",
                    docs:
                        "move focus between the list, the detail and the target panes (the focused title starts with ▶)",
                    .browse([.tab: .focus(next: true), .backTab: .focus(next: false)])),
            ]),
        Section(
            title: "Change the selected seam",
            rows: [
                KeyBinding(
                    "Space", "switch between the original and the last spec used",
                    docs: "switch the selected seam between its original and the spec it last had (this console's, "
                        + "else its first action that needs no arguments)",
                    .browse([.character(" "): .toggle])),
                KeyBinding(
                    "Enter", "pick an action, edit its spec (Tab completes, ↑↓ history), Enter applies",
                    docs: "the action picker: choose an action (`i` or → shows its whole description and examples), "
                        + "edit its spec as text (it starts from the one applied, or one that applies: `freeze` at "
                        + "now); above the field the grammar (`20%A`, `3*A`, `A -> B`, `A + B`, `seq(A, B)`) and the "
                        + "seam's actions, under it a live check (the canonical form, or the error with a caret under "
                        + "its column); Tab completes actions, parameters, city names and durations' units, ↑↓ walk "
                        + "the specs applied before (100 a seam, kept in `$XDG_STATE_HOME/mischief/spec-history.json`), "
                        + "F1 describes the action; Enter applies",
                    .browse([.enter: .pick])),
                KeyBinding(
                    "+ -", "nudge the main parameter by one step",
                    docs: "nudge the active action's main parameter by its step (a day for `shift`); `=` and `_` too",
                    .browse([
                        .character("+"): .nudge(1), .character("="): .nudge(1), .character("-"): .nudge(-1),
                        .character("_"): .nudge(-1),
                    ])),
                KeyBinding(
                    "u o x c", "held call: release, answer, fail, go on",
                    docs: "a `pause` is a breakpoint: the row shows `2 held` and the detail each held call's input; "
                        + "`u` releases them unchanged, `o` types what they return (a spec of the seam: `return(…)`, "
                        + "which starts from the input when the seam gives back what it takes, `throw(…)`, a city, a "
                        + "date), `x` fails them, `c` releases them and reverts the pause so the next calls run; "
                        + "otherwise the pause holds the next call too",
                    .browse([
                        .character("u"): .release, .character("o"): .answer, .character("x"): .fail,
                        .character("c"): .letRestRun,
                    ])),
                KeyBinding(
                    "r  U  Ctrl-R", "revert the seam; undo, redo your changes",
                    docs: "`r` reverts the selected seam; `U` undoes the last change this console made (an apply, a "
                        + "revert, a profile switch: it brings back what this console had, leaving others' layers), "
                        + "again and again as far back as its session goes, and the status line says what; `Ctrl-R` "
                        + "redoes",
                    .browse([.character("r"): .revert, .character("U"): .undo, .control("r"): .redo])),
                KeyBinding(
                    "R  a", "revert everything / redo after a restart",
                    docs: "`R` reverts everything; `a`, after an attached target restarted (the console says so, with "
                        + "the new pid), applies again what this console had applied on the old process and switches "
                        + "on the profiles it had switched on",
                    .browse([.character("R"): .revertAll, .character("a"): .applyAgain])),
                KeyBinding(
                    "z Z", "zero the seam's counters / every seam's",
                    docs: "reset the selected seam's counters (calls, chaos calls, errors) / every seam's; in-flight "
                        + "and held calls stay",
                    .browse([.character("z"): .resetCounters(all: false), .character("Z"): .resetCounters(all: true)])),
                KeyBinding(
                    "y Y", "copy the seam's spec / all as seam=spec;seam=spec",
                    docs: "copy the seam's spec / every applied spec as `seam=spec;seam=spec` to the clipboard "
                        + "(OSC 52: works over SSH and in tmux)",
                    .browse([.character("y"): .copy(all: false), .character("Y"): .copy(all: true)])),
            ]),
        Section(
            title: "Profiles and time",
            rows: [
                KeyBinding(
                    "1 … 9", "switch the profile with that key (they combine)",
                    docs: "switch preset profiles on or off; several combine",
                    .browse(
                        Dictionary(
                            uniqueKeysWithValues: (1...9).map { (Key.character(Character("\($0)")), .profile($0)) })
                    )),
                KeyBinding(
                    "p", "every profile, to read and switch",
                    docs: "every profile with its key, state, description and the seams it changes: ↑↓ choose, Space "
                        + "or Enter switch, Esc close",
                    .browse([.character("p"): .profileList])),
                KeyBinding(
                    "s W", "save a profile / the session's recording",
                    docs: "save what is applied as a profile (in `$XDG_CONFIG_HOME/mischief/profiles`, loaded next "
                        + "time; a file it did not write is replaced only if you say `y`) / write the session's "
                        + "recording, every change with its call number, spec and seed, and the first 10,000 chaos "
                        + "calls' decisions (which layer answered, with what), to a new file in "
                        + "`$XDG_STATE_HOME/mischief/recordings` (for `mischief replay` and `mischief export`)",
                    .browse([.character("s"): .saveProfile, .character("W"): .saveRecording])),
                KeyBinding(
                    "T", "revert the seam after a time (ttl)",
                    docs: "revert the selected seam by itself after a time: type `30s`, `10m` (`off` takes it away); "
                        + "the row shows `29s left`",
                    .browse([.character("T"): .timeToLive])),
                KeyBinding(
                    "] }", "move virtual time forward an hour / a day",
                    docs: "advance virtual time by an hour / a day (under `virtual` or `freeze`)",
                    .browse([
                        .character("]"): .advanceTime(seconds: 3_600), .character("}"): .advanceTime(seconds: 86_400),
                    ])),
            ]),
        Section(
            title: "Views",
            rows: [
                KeyBinding(
                    "/  :", "filter the list / the palette: run any command by name",
                    docs: "`/` filters by title, id, category or behaviour, and by what else names a seam: its layers' "
                        + "specs and sources, the profiles that change it, its events; the status line says where the "
                        + "text was found (`2 seams · profile Tokyo · 3 events (e)`); Enter keeps it, Esc clears. `:` is the "
                        + "command palette: fuzzy-find every command, seam, action, profile, theme and key (each with "
                        + "its key), ↑↓ choose, Tab completes, Enter runs and closes; or type a line as on the command "
                        + "line: `apply clock.now shift(+3h) ttl 10m`, `revert net.request`, `revert all`, `profile "
                        + "Tokyo on`, `theme NAME`, `pause`/`release SEAM`, `reset`, `save recording`, `help`, `quit` "
                        + "(`--ttl 10m` and `--all`, as the CLI spells them, work too), and in a live test session "
                        + "`test PATTERN` (`#3`, a test's name, `*Pears*`: where changes go) or `test all`",
                    .browse([.character("/"): .filter, .character(":"): .palette])),
                KeyBinding(
                    "e", "the event log: Enter one whole, y Y copy its command, / filter",
                    docs: "the event log: repeats one after the other folded with ×N (at the latest one's time); a "
                        + "revert names what it reverted, who had applied it and, in brackets, who asked; ↑↓ choose, "
                        + "Enter shows one whole (seam, source, seed, time since the start and on the wall clock, and "
                        + "for a change the `mischief apply`/`revert` command and the `curl` line that do the same), "
                        + "`y` copies that command, `Y` the `curl` line, `/` filters, `w` shows the target's "
                        + "wall-clock times instead of time since it started",
                    .browse([.character("e"): .eventLog])),
                KeyBinding(
                    "n H", "changes to a test / hide ended",
                    docs: "on a live test session (`MISCHIEF_SERVE=1 swift test`), the tests pane lists each test "
                        + "with its state, time, seams and layers; `n` sends the changes you make next (apply, `r`, a "
                        + "pause and its `u o x c`) to the next running test's scope alone, and after the last back to "
                        + "the whole process (the palette's `test PATTERN` sends them to every running test a pattern names); `H` "
                        + "hides or shows the tests that ended",
                    .browse([.character("n"): .nextTest, .character("H"): .hideEndedTests])),
                KeyBinding(
                    "t", "the next theme", docs: "the next theme (all shipped themes are built in)",
                    .browse([.character("t"): .nextTheme])),
                KeyBinding(
                    "I", "show or hide invisible characters (⟨RLO⟩, ⟨ZWSP⟩) in the target's text",
                    docs: "show or hide invisible characters in the target's text (bidirectional controls, zero-width "
                        + "spaces and joiners, the byte order mark, the soft hyphen) as dim marks such as `⟨RLO⟩` "
                        + "(`<RLO>` without UTF-8); they are shown at start, and never sent to the terminal as they are",
                    .browse([.character("I"): .invisibleMarks])),
                KeyBinding("? F1", "this help", docs: "help", .browse([.character("?"): .help, .function(1): .help])),
                KeyBinding("Esc", "clear the filter, or the message", .browse([.escape: .dismiss])),
                KeyBinding(
                    "q  Ctrl-C", "quit",
                    docs: "quit; when this console changed the target since its recording was last written (`W`), the "
                        + "first `q` says so and the second quits (Ctrl-C quits at once)",
                    .browse([.character("q"): .quit, .control("c"): .quit])),
            ]),
        Section(
            title: "Mouse (off with --no-mouse)",
            rows: [
                KeyBinding(
                    "click", "select a seam or a pane; on the bar, switch that profile",
                    docs: "select a seam or a pane; on the bar, switch that profile; on the status line, a hint does "
                        + "what its key does (`: commands` opens the palette); in the palette, choose a match"),
                KeyBinding(
                    "double-click", "open the action picker on a seam; switch a profile in the list",
                    docs: "open the action picker on a seam; switch a profile in the list; run a match in the palette"),
                KeyBinding("wheel", "move in the pane under the pointer, the log or the list"),
            ]),
        Section(
            title: "Typing (filter, spec, name)",
            rows: [
                KeyBinding("Enter", "accept (the filter stays)"),
                KeyBinding("Esc", "leave (the filter clears)"),
                KeyBinding(
                    "← →  Home End", "move the cursor (also Ctrl-A, Ctrl-E)",
                    docs: "move the cursor (also Ctrl-B, Ctrl-F, Ctrl-A, Ctrl-E)",
                    .edit([
                        .left: .left, .control("b"): .left, .right: .right, .control("f"): .right, .home: .start,
                        .control("a"): .start, .end: .end, .control("e"): .end,
                    ])),
                KeyBinding(
                    "Backspace Delete", "delete a character",
                    docs: "delete the character before the cursor / under it (also Ctrl-H, Ctrl-D)",
                    .edit([
                        .backspace: .deleteBackward, .control("h"): .deleteBackward, .delete: .deleteForward,
                        .control("d"): .deleteForward,
                    ])),
                KeyBinding(
                    "Ctrl-U Ctrl-K Ctrl-W", "delete to the start, to the end, a word",
                    .edit([.control("u"): .deleteToStart, .control("k"): .deleteToEnd, .control("w"): .deleteWord])),
                KeyBinding("paste", "inserts the text; a newline in it is a space, never Enter"),
            ]),
    ]

    /// The main screen's status-line hints; a click on one whose ``KeyHint/click`` is set presses that key (`:
    /// commands` opens the palette).
    static let hints = [
        KeyHint("␣", "toggle", click: .character(" ")), KeyHint("⏎", "actions", click: .enter), KeyHint("+-", "nudge"),
        KeyHint("r", "revert", click: .character("r")), KeyHint("/", "filter", click: .character("/")),
        KeyHint("1-9", "profiles"), KeyHint("p", "list", click: .character("p")),
        KeyHint("e", "events", click: .character("e")), KeyHint("Tab", "pane"),
        KeyHint(":", "commands", click: .character(":")), KeyHint("?", "help", click: .character("?")),
        KeyHint("q", "quit"),
    ]

    /// The main screen's hints while the selected seam holds calls.
    static let heldHints = [
        KeyHint("u", "release", click: .character("u")), KeyHint("o", "return…"), KeyHint("x", "fail"),
        KeyHint("c", "continue"), KeyHint("␣", "toggle", click: .character(" ")),
        KeyHint("⏎", "actions", click: .enter), KeyHint("r", "revert", click: .character("r")),
        KeyHint("e", "events", click: .character("e")), KeyHint("?", "help", click: .character("?")),
        KeyHint("q", "quit"),
    ]

    /// The main screen's hints after a restart, until `a` is used: what to do about the changes the old process
    /// lost.
    static let restartHints = [
        KeyHint("a", "apply again", click: .character("a")), KeyHint("␣", "toggle", click: .character(" ")),
        KeyHint("⏎", "actions", click: .enter), KeyHint("r", "revert", click: .character("r")),
        KeyHint("/", "filter", click: .character("/")), KeyHint("1-9", "profiles"),
        KeyHint("p", "list", click: .character("p")), KeyHint("e", "events", click: .character("e")),
        KeyHint("?", "help", click: .character("?")), KeyHint("q", "quit"),
    ]

    /// The help screen's sections (`?`): the main screen's and the typing keys (``sections``), then every other
    /// mode's (``modes``), each key named as the key table names it.
    static let helpSections: [Section] =
        sections
        + modes.map { mode in
            Section(
                title: mode.title,
                rows: mode.rows.map { KeyBinding($0.keys.isEmpty ? "any other key" : label(of: $0.keys), $0.does) })
        }

    /// What each key of the main screen asks for.
    static let browse: [Key: BrowseCommand] = merged { row in
        if case .browse(let commands) = row.commands { commands } else { [:] }
    }

    /// What each editing key does to a text field.
    static let edit: [Key: EditCommand] = merged { row in
        if case .edit(let commands) = row.commands { commands } else { [:] }
    }

    /// The key table of `TheConsole.md`, in Markdown: a row for each binding, its keys in a code span; then, mode by
    /// mode, the keys of every other mode (``modes``).
    static func markdownTable() -> String {
        func cell(_ text: String) -> String {
            text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
        }
        var lines = ["| key | does |", "|---|---|"]
        for section in sections {
            lines.append("| **\(section.title)** | |")
            for row in section.rows {
                lines.append("| `\(row.label)` | \(cell(row.docs ?? row.help)) |")
            }
        }
        for mode in modes {
            lines.append("| **\(mode.title)** | |")
            for row in mode.rows {
                lines.append(
                    "| \(row.keys.isEmpty ? "any other key" : "`\(label(of: row.keys))`") | \(cell(row.does)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Keys as the key table names them: `↑ k`, `Esc ? q F1`, `1 … 9`.
    static func label(of keys: [Key]) -> String {
        let digits = (1...9).map { Key.character(Character("\($0)")) }
        if keys == digits { return "1 … 9" }
        return keys.map(Console.keyName).joined(separator: " ")
    }

    /// Every row's keys of one kind in one dictionary; a key bound twice is a mistake the table's test catches.
    private static func merged<Command>(_ commands: (KeyBinding) -> [Key: Command]) -> [Key: Command] {
        sections.flatMap(\.rows).reduce(into: [:]) { all, row in
            all.merge(commands(row)) { first, _ in first }
        }
    }
}
