import Mischief

/// Text that comes in one piece: a bracketed paste (text, never keys) and printable characters read together (keys,
/// taken in one step).
extension Console {
    /// The most characters each text field holds.
    enum FieldLimit {
        static let filter = 200
        static let spec = TextField.maximumLength
        static let profileName = 100
        static let timeToLive = 40
    }

    /// The status message for a paste outside a text field.
    static let pasteIgnored = "paste ignored: press / to filter, or ⏎ on a seam to edit a spec, then paste"

    /// A paste: a text field inserts it with its newlines as spaces (so it never accepts or runs anything);
    /// anywhere else it is ignored, with a message.
    static func paste(_ text: String, in state: inout ConsoleState) {
        if !insert(text, in: &state, pasted: true) {
            state.message = .init(pasteIgnored)
        }
    }

    /// Printable characters read together: each acts as its key would, but a text field takes the rest of them in
    /// one insert, so a paste into a terminal without bracketed paste costs one edit and one frame, not one each.
    static func typed(_ text: String, in state: inout ConsoleState) -> [ConsoleCommand] {
        var commands: [ConsoleCommand] = []
        var rest = Substring(text)
        while let first = rest.first {
            if insert(String(rest), in: &state, pasted: false) { break }
            commands += noting(.character(first), in: &state)
            rest = rest.dropFirst()
        }
        return commands
    }

    /// Inserts `text` into the text field being edited, if one is; false when none is (the caller treats the text
    /// otherwise). A picker waiting for its spec's result takes nothing, as it takes no key.
    private static func insert(_ text: String, in state: inout ConsoleState, pasted: Bool) -> Bool {
        switch state.mode {
        case .filter:
            var field = state.filter
            insert(text, into: &field, limit: FieldLimit.filter, name: "the filter", pasted: pasted, in: &state)
            if field != state.filter {
                state.filter = field
                state.rebuildLines()
            }
        case .saveName(var field):
            insert(text, into: &field, limit: FieldLimit.profileName, name: "a name", pasted: pasted, in: &state)
            state.mode = .saveName(field)
        case .timeToLive(let seam, var field):
            insert(text, into: &field, limit: FieldLimit.timeToLive, name: "a time", pasted: pasted, in: &state)
            state.mode = .timeToLive(seam, field)
        case .palette(var palette):
            insert(text, into: &palette.field, limit: paletteLimit, name: "the palette", pasted: pasted, in: &state)
            palette.selected = 0
            palette.error = nil
            state.mode = .palette(palette)
        case .answer(let seam, var field):
            insert(text, into: &field, limit: answerLimit, name: "an answer", pasted: pasted, in: &state)
            state.mode = .answer(seam, field)
        case .picker(var picker):
            guard var field = picker.field else { return false }
            guard picker.applying == nil else { return true }
            insert(text, into: &field, limit: FieldLimit.spec, name: "a spec", pasted: pasted, in: &state)
            picker.field = field
            state.mode = .picker(picker)
        default:
            return false
        }
        return true
    }

    private static func insert(
        _ text: String, into field: inout TextField, limit: Int, name: String, pasted: Bool,
        in state: inout ConsoleState
    ) {
        let dropped = field.insert(text, limit: limit)
        guard dropped > 0 else { return }
        let what = pasted ? "paste" : "text"
        state.message = .init(
            "\(name) holds at most \(limit) characters: the last \(dropped) of the \(what) were left out",
            isError: true)
    }

    /// Edits `field` with `key`, keeping it within `limit` characters (a character key past it is refused with a
    /// message); returns whether the key edits text.
    static func edit(
        _ field: inout TextField, with key: Key, limit: Int, name: String, in state: inout ConsoleState
    ) -> Bool {
        if case .character = key, field.count >= limit {
            state.message = .init("\(name) holds at most \(limit) characters", isError: true)
            return true
        }
        return field.edit(key)
    }
}
