import Mischief

/// The status line's hints: the mode's declared ``KeyHint``s (``KeyBindings`` for the main screen, a ``ModeKeys``
/// table for every other mode), which the help screen and the key table go with.
enum KeyHelp {
    /// The status line's hints for a mode, in the order they show.
    static func hints(for state: ConsoleState) -> [KeyHint] {
        switch state.mode {
        case .browse where !state.lostLayers.isEmpty:
            // Only after a restart, until `a` is used: what to do about the changes the old process lost.
            KeyBindings.restartHints
        case .browse where (state.selectedSeam?.held ?? 0) > 0:
            // Only while the selected seam holds calls, so the usual hints stay as they are.
            KeyBindings.heldHints
        case .browse:
            KeyBindings.hints
        case .filter:
            KeyBindings.filter.hints
        case .saveName:
            KeyBindings.saveName.hints
        case .timeToLive:
            KeyBindings.timeToLive.hints
        case .answer:
            KeyBindings.answer.hints
        case .confirmOverwrite:
            KeyBindings.confirmOverwrite.hints
        case .picker(let picker):
            picker.isEditing ? KeyBindings.pickerSpec.hints : KeyBindings.picker.hints
        case .help:
            KeyBindings.help.hints
        case .eventLog(let log):
            log.isFiltering
                ? KeyBindings.eventLogFilter.hints
                : log.showsDetail ? KeyBindings.eventDetail.hints : KeyBindings.eventLog.hints
        case .profileList:
            KeyBindings.profileList.hints
        case .palette:
            KeyBindings.palette.hints
        }
    }

    /// Which hints to leave out first when the line is short: the last of these goes first.
    static let importance = ["a", "u", "o", "x", "c", "?", "q", "␣", "⏎", "+-", "r", "/", "p", "1-9", "Tab", "e", ":"]
}
