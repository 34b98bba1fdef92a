import Mischief

/// The console's keys: the help screen's table and the status line's hints.
enum KeyHelp {
    /// A group of keys in the help screen.
    struct Section {
        let title: String
        let keys: [(keys: String, action: String)]
    }

    /// Every key, by what it is for.
    static let sections: [Section] = [
        Section(
            title: "Move",
            keys: [
                ("↑ ↓  k j", "select a seam, or scroll the focused pane"),
                ("PgUp PgDn", "a page up or down"),
                ("Home End  g G", "the first or last"),
                ("Tab  Shift-Tab", "focus the next or previous pane"),
            ]),
        Section(
            title: "Change the selected seam",
            keys: [
                ("Space", "switch between the original and the last spec used"),
                ("Enter", "choose an action, edit its spec, Enter applies"),
                ("+ -", "nudge the main parameter by one step"),
                ("r", "revert the seam"),
                ("u", "release the calls a pause holds on the seam"),
                ("R  a", "revert everything / redo after a restart"),
                ("z Z", "zero the seam's counters / every seam's"),
                ("y Y", "copy the seam's spec / all as seam=spec;seam=spec"),
            ]),
        Section(
            title: "Profiles and time",
            keys: [
                ("1 … 9", "switch the profile with that key (they combine)"),
                ("p", "every profile, to read and switch"),
                ("s", "save what is applied now as a profile"),
                ("T", "revert the seam after a time (ttl)"),
                ("]", "move virtual time forward an hour"),
                ("}", "move virtual time forward a day"),
            ]),
        Section(
            title: "Views",
            keys: [
                ("/", "filter by title, id, category or behaviour"),
                ("e", "the event log: ↑↓ choose, Enter shows one whole, / filters, w wall clock"),
                ("t", "the next theme"),
                ("I", "show or hide invisible characters (⟨RLO⟩, ⟨ZWSP⟩) in the target's text"),
                ("? F1", "this help"),
                ("Esc", "clear the filter, or the message"),
                ("q  Ctrl-C", "quit"),
            ]),
        Section(
            title: "Mouse (off with --no-mouse)",
            keys: [
                ("click", "select a seam or a pane; on the bar, switch that profile"),
                ("double-click", "open the action picker on a seam; switch a profile in the list"),
                ("wheel", "move in the pane under the pointer, the log or the list"),
            ]),
        Section(
            title: "Typing (filter, spec, name)",
            keys: [
                ("Enter", "accept (the filter stays)"),
                ("Esc", "leave (the filter clears)"),
                ("← →  Home End", "move the cursor (also Ctrl-A, Ctrl-E)"),
                ("Backspace Delete", "delete a character"),
                ("Ctrl-U Ctrl-K Ctrl-W", "delete to the start, to the end, a word"),
                ("paste", "inserts the text; a newline in it is a space, never Enter"),
            ]),
    ]

    /// The status line's hints for a mode, as (key, what it does), in the order they show.
    static func hints(for state: ConsoleState) -> [(String, String)] {
        switch state.mode {
        case .browse where !state.lostChanges.isEmpty:
            // Only after a restart, until `a` is used: what to do about the changes the old process lost.
            [
                ("a", "apply again"), ("␣", "toggle"), ("⏎", "actions"), ("r", "revert"), ("/", "filter"),
                ("1-9", "profiles"), ("p", "list"), ("e", "events"), ("?", "help"), ("q", "quit"),
            ]
        case .browse where (state.selectedSeam?.held ?? 0) > 0:
            // Only while the selected seam holds calls, so the usual hints stay as they are.
            [
                ("u", "release held"), ("␣", "toggle"), ("⏎", "actions"), ("r", "revert"), ("/", "filter"),
                ("1-9", "profiles"), ("p", "list"), ("e", "events"), ("?", "help"), ("q", "quit"),
            ]
        case .browse:
            [
                ("␣", "toggle"), ("⏎", "actions"), ("+-", "nudge"), ("r", "revert"), ("/", "filter"),
                ("1-9", "profiles"), ("p", "list"), ("e", "events"), ("Tab", "pane"), ("?", "help"), ("q", "quit"),
            ]
        case .filter:
            [("⏎", "keep"), ("Esc", "clear"), ("↑↓", "move")]
        case .saveName:
            [("⏎", "save"), ("Esc", "cancel")]
        case .timeToLive:
            [("⏎", "set"), ("Esc", "cancel")]
        case .confirmOverwrite:
            [("y", "overwrite"), ("n", "keep the file")]
        case .picker(let picker):
            picker.isEditing
                ? [("⏎", "apply"), ("Esc", "close"), ("←→", "cursor")]
                : [("↑↓", "choose"), ("⏎", "edit spec"), ("Esc", "close")]
        case .help:
            [("↑↓", "scroll"), ("Esc ?", "close")]
        case .eventLog(let log):
            log.isFiltering
                ? [("⏎", "keep"), ("Esc", "clear")]
                : log.showsDetail
                    ? [("↑↓", "older/newer"), ("Esc ⏎", "back")]
                    : [
                        ("↑↓", "choose"), ("⏎", "whole"), ("/", "filter"), ("w", "wall clock"),
                        ("Home End", "oldest/newest"),
                        ("Esc", "close"),
                    ]
        case .profileList:
            [("↑↓", "choose"), ("␣ ⏎", "switch"), ("1-9", "by key"), ("Esc p", "close")]
        }
    }

    /// Which hints to leave out first when the line is short: the last of these goes first.
    static let importance = ["a", "u", "?", "q", "␣", "⏎", "+-", "r", "/", "p", "1-9", "Tab", "e"]
}
