/// A one-line text being edited: the filter, a spec in the action picker, a profile name.
///
/// Keys are taken literally: any printable character (including `q`, digits and `/`) is inserted at the cursor.
/// Editing keys: ←/→, Home/End (and Ctrl-A/Ctrl-E), Backspace, Delete, Ctrl-U (delete to the start), Ctrl-K
/// (delete to the end), Ctrl-W (delete the word before the cursor). Pasted text goes in with ``insert(_:limit:)``,
/// in one step whatever its length, with its newlines and tabs as spaces.
public struct TextField: Sendable, Equatable {
    /// The text.
    public private(set) var text: String
    /// The cursor, in characters from the start: `0...text.count`.
    public private(set) var cursor: Int
    /// The text's length in characters, kept so that typing at the end never counts the whole text again.
    public private(set) var count: Int

    /// The most characters any field holds; consoles give each field a lower limit of its own.
    public static let maximumLength = 4_096

    /// Creates a field holding `text`, with the cursor at `cursor` (clamped), or at the end.
    public init(_ text: String = "", cursor: Int? = nil) {
        self.text = text
        count = text.count
        self.cursor = min(max(0, cursor ?? count), count)
    }

    /// Inserts `pasted` at the cursor, in one step: newlines (CR LF as one) and tabs become spaces, other controls
    /// are dropped, so a paste never carries Enter into anything. At most `limit` characters stay in the field.
    ///
    /// - Returns: How many characters of `pasted` did not fit.
    @discardableResult
    public mutating func insert(_ pasted: String, limit: Int = TextField.maximumLength) -> Int {
        let clean = Self.singleLine(pasted)
        let room = max(0, min(limit, Self.maximumLength) - count)
        let fitting = clean.count <= room ? clean : String(clean.prefix(room))
        let dropped = clean.count - fitting.count
        guard !fitting.isEmpty else { return dropped }
        let split = index(cursor)
        let before = String(text[..<split]) + fitting
        text = before + text[split...]
        count = text.count
        cursor = min(before.count, count)
        return dropped
    }

    /// `text` on one line: CR LF, CR, LF, tabs and the other line and paragraph separators as one space each, other
    /// controls (C0, DEL, C1) dropped.
    public static func singleLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar.value {
            case 0x0A where afterCR: continue
            case 0x09...0x0D, 0x85, 0x2028, 0x2029: scalars.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Applies an editing key; returns false (and changes nothing) for keys that do not edit text.
    public mutating func edit(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            guard count < Self.maximumLength else { return true }
            if cursor == count, let last = text.last {
                // Typing at the end: only the last character can join the new one (a combining mark, half a flag).
                text.append(character)
                count += (String(last) + String(character)).count - 1
                cursor = count
                return true
            }
            // A combining mark (or half a flag) joins the character before it: count the cursor again, never +1.
            let (before, after) = (String(text[..<index(cursor)]) + String(character), text[index(cursor)...])
            text = before + after
            count = text.count
            cursor = min(before.count, count)
        default:
            guard let command = KeyBindings.edit[key] else { return false }
            edit(command)
        }
        return true
    }

    /// Does what an editing key asks for (``KeyBindings`` says which key asks for what).
    private mutating func edit(_ command: EditCommand) {
        switch command {
        case .deleteBackward:
            guard cursor > 0 else { return }
            text.remove(at: index(cursor - 1))
            count = text.count
            cursor = min(cursor - 1, count)
        case .deleteForward:
            guard cursor < count else { return }
            text.remove(at: index(cursor))
            count = text.count
        case .left:
            cursor = max(0, cursor - 1)
        case .right:
            cursor = min(count, cursor + 1)
        case .start:
            cursor = 0
        case .end:
            cursor = count
        case .deleteToStart:
            text.removeSubrange(text.startIndex..<index(cursor))
            count = text.count
            cursor = 0
        case .deleteToEnd:
            text.removeSubrange(index(cursor)...)
            count = text.count
        case .deleteWord:
            let characters = Array(text.prefix(cursor))
            var start = characters.count
            while start > 0, characters[start - 1] == " " {
                start -= 1
            }
            while start > 0, characters[start - 1] != " " {
                start -= 1
            }
            text.removeSubrange(index(start)..<index(cursor))
            count = text.count
            cursor = start
        }
    }

    /// The string index of a character offset.
    private func index(_ offset: Int) -> String.Index {
        offset >= count ? text.endIndex : text.index(text.startIndex, offsetBy: max(0, offset))
    }
}
