/// A key press decoded by a terminal.
public enum Key: Hashable, Sendable {
    /// A printable character (including non-ASCII).
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end, enter, tab, backTab, backspace, delete, escape
    /// Function key F`n` (1-based).
    case function(Int)
    /// A control chord; the payload is the lower-case letter (`"c"` for Ctrl-C) or the punctuation character
    /// (`"@"`, `"\\"`, `"]"`, `"^"`, `"_"`).
    case control(Character)
    /// The terminal was resized; the new size is reported separately.
    case resize
}
