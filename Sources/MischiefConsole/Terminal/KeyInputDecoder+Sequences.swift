extension KeyInputDecoder {
    /// Escape sequences of the common encodings for the keys terminals disagree on, with their keys.
    ///
    /// What a terminal library that decodes sequences itself should be taught besides its terminfo entry (ncurses'
    /// `define_key`), so that Home is Home under any `TERM`: xterm (`ESC [ H`, `ESC O H`), tmux/screen and VT220
    /// (`ESC [ 1 ~`), rxvt (`ESC [ 7 ~`), the Linux console (`ESC [ [ A` for F1). ``KeyInputDecoder`` decodes every
    /// one of them, and their forms with modifiers (`ESC [ 1 ; 5 H`), itself.
    package static let knownSequences: [(sequence: String, key: Key)] = {
        var sequences: [(String, Key)] = []
        for (final, key) in [("A", Key.up), ("B", .down), ("C", .right), ("D", .left), ("H", .home), ("F", .end)] {
            sequences += [("\u{1B}[" + final, key), ("\u{1B}O" + final, key)]
        }
        for number in [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24] {
            sequences.append(("\u{1B}[\(number)~", EscapeSequence.tildeKey(number)!))
        }
        for (index, final) in ["P", "Q", "R", "S"].enumerated() {
            sequences.append(("\u{1B}O" + final, .function(index + 1)))
        }
        for (index, final) in ["A", "B", "C", "D", "E"].enumerated() {
            sequences.append(("\u{1B}[[" + final, .function(index + 1)))
        }
        sequences.append(("\u{1B}[Z", .backTab))
        return sequences
    }()
}
