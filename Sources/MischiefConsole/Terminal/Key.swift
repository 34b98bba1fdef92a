/// A key press decoded by a terminal.
public enum Key: Hashable, Sendable {
    /// A printable character (including non-ASCII).
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end, insert, enter, tab, backTab, backspace, delete, escape
    /// Function key F`n` (1-based).
    case function(Int)
    /// A control chord; the payload is the lower-case letter (`"c"` for Ctrl-C) or the punctuation character
    /// (`"@"`, `"\\"`, `"]"`, `"^"`, `"_"`).
    case control(Character)
    /// Alt (Meta) with a printable character: ESC then the character. Distinct from the character itself, so Alt-1
    /// never acts as 1; the console binds no Alt chord.
    case alt(Character)
    /// The terminal was resized; the new size is reported separately.
    case resize
    /// A click or a turn of the wheel (terminals that report the mouse, unless `--no-mouse`).
    case mouse(Mouse)
    /// Text the user pasted, as the terminal marked it (bracketed paste, `ESC [ 200 ~` … `ESC [ 201 ~`): text, never
    /// keys. A text field inserts it (a newline in it never accepts anything); elsewhere it is ignored.
    case paste(String)
    /// Printable characters read together, in order: what ``character(_:)`` keys typed in a row mean, one after
    /// another, taken in one step (a paste into a terminal without bracketed paste arrives so). A text field inserts
    /// them at once; elsewhere each acts as its key would.
    case typed(String)
}
