/// A one-line text being edited: the filter, a spec in the action picker, a profile name.
///
/// Keys are taken literally: any printable character (including `q`, digits and `/`) is inserted at the cursor.
/// Editing keys: ←/→, Home/End (and Ctrl-A/Ctrl-E), Backspace, Delete, Ctrl-U (delete to the start), Ctrl-K
/// (delete to the end), Ctrl-W (delete the word before the cursor).
public struct TextField: Sendable, Equatable {
    /// The text.
    public private(set) var text: String
    /// The cursor, in characters from the start: `0...text.count`.
    public private(set) var cursor: Int

    /// Creates a field holding `text`, with the cursor at `cursor` (clamped), or at the end.
    public init(_ text: String = "", cursor: Int? = nil) {
        self.text = text
        self.cursor = min(max(0, cursor ?? text.count), text.count)
    }

    /// Applies an editing key; returns false (and changes nothing) for keys that do not edit text.
    public mutating func edit(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            // A combining mark (or half a flag) joins the character before it: count the cursor again, never +1.
            let (before, after) = (String(text[..<index(cursor)]) + String(character), text[index(cursor)...])
            text = before + after
            cursor = min(before.count, text.count)
        case .backspace, .control("h"):
            guard cursor > 0 else { return true }
            text.remove(at: index(cursor - 1))
            cursor -= 1
        case .delete, .control("d"):
            guard cursor < text.count else { return true }
            text.remove(at: index(cursor))
        case .left, .control("b"):
            cursor = max(0, cursor - 1)
        case .right, .control("f"):
            cursor = min(text.count, cursor + 1)
        case .home, .control("a"):
            cursor = 0
        case .end, .control("e"):
            cursor = text.count
        case .control("u"):
            text.removeSubrange(text.startIndex..<index(cursor))
            cursor = 0
        case .control("k"):
            text.removeSubrange(index(cursor)...)
        case .control("w"):
            let characters = Array(text.prefix(cursor))
            var start = characters.count
            while start > 0, characters[start - 1] == " " {
                start -= 1
            }
            while start > 0, characters[start - 1] != " " {
                start -= 1
            }
            text.removeSubrange(index(start)..<index(cursor))
            cursor = start
        default:
            return false
        }
        return true
    }

    /// The string index of a character offset.
    private func index(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: min(max(0, offset), text.count))
    }
}
