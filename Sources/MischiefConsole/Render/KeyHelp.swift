import Mischief

/// The status line's hints: the few keys of each mode worth showing at the bottom of the screen (every key is in
/// ``KeyBindings``, which the help screen lists).
enum KeyHelp {
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
                ("u", "release"), ("o", "return…"), ("x", "fail"), ("c", "continue"), ("␣", "toggle"),
                ("⏎", "actions"), ("r", "revert"), ("e", "events"), ("?", "help"), ("q", "quit"),
            ]
        case .browse:
            [
                ("␣", "toggle"), ("⏎", "actions"), ("+-", "nudge"), ("r", "revert"), ("/", "filter"),
                ("1-9", "profiles"), ("p", "list"), ("e", "events"), ("Tab", "pane"), (":", "commands"), ("?", "help"),
                ("q", "quit"),
            ]
        case .filter:
            [("⏎", "keep"), ("Esc", "clear"), ("↑↓", "move")]
        case .saveName:
            [("⏎", "save"), ("Esc", "cancel")]
        case .timeToLive:
            [("⏎", "set"), ("Esc", "cancel")]
        case .answer:
            [("⏎", "answer"), ("Esc", "cancel")]
        case .confirmOverwrite:
            [("y", "overwrite"), ("n", "keep the file")]
        case .picker(let picker):
            picker.isEditing
                ? [("⏎", "apply"), ("Esc", "close"), ("Tab", "complete"), ("↑↓", "history"), ("F1", "describe")]
                : [("↑↓", "choose"), ("⏎", "edit spec"), ("i", "describe"), ("Esc", "close")]
        case .help:
            [("↑↓", "scroll"), ("Esc ?", "close")]
        case .eventLog(let log):
            log.isFiltering
                ? [("⏎", "keep"), ("Esc", "clear")]
                : log.showsDetail
                    ? [("↑↓", "older/newer"), ("y Y", "copy command/curl"), ("Esc ⏎", "back")]
                    : [
                        ("↑↓", "choose"), ("⏎", "whole"), ("/", "filter"), ("w", "wall clock"),
                        ("Home End", "oldest/newest"),
                        ("Esc", "close"),
                    ]
        case .profileList:
            [("↑↓", "choose"), ("␣ ⏎", "switch"), ("1-9", "by key"), ("Esc p", "close")]
        case .palette:
            [("⏎", "run"), ("↑↓", "choose"), ("Tab", "complete"), ("Esc", "close")]
        }
    }

    /// Which hints to leave out first when the line is short: the last of these goes first.
    static let importance = ["a", "u", "o", "x", "c", "?", "q", "␣", "⏎", "+-", "r", "/", "p", "1-9", "Tab", "e", ":"]
}
