import CNcurses
import MischiefConsole

/// What ncurses is given for a grid cell: pure, so the grid → terminal step is testable without a terminal.
///
/// The grid measures graphemes with ``DisplayWidth``; ncurses advances its cursor by what the C library's
/// `wcwidth` says. A write is only ever made of one printable base character plus zero-width combining marks, and
/// it always advances the cursor by exactly the columns the grid gave the cell: a grapheme the C library thinks
/// narrower is padded with a space, one it thinks wider or cannot print becomes U+FFFD. So a row sent to ncurses
/// is exactly as wide as the grid's, whatever text a target published.
enum CursesCellText {
    /// One `setcchar`/`mvwadd_wch` write.
    struct Write: Equatable {
        /// The base character and its combining characters (at most `CCHARW_MAX`), not NUL-terminated.
        var characters: [wchar_t]
        /// The columns the C library advances for `characters`: 1 or 2.
        var width: Int
        /// Whether a space follows in the next column (the grid's cell is wider than the C library thinks).
        var padded: Bool

        /// The grid columns the write covers.
        var columns: Int { width + (padded ? 1 : 0) }
    }

    /// The most characters a `cchar_t` holds (`CCHARW_MAX`).
    static let maxCharacters = 5
    /// A space.
    static let space: wchar_t = 0x20
    /// U+FFFD REPLACEMENT CHARACTER, shown for what cannot be printed.
    static let replacement: wchar_t = 0xFFFD

    /// The write for `cell` at column `x` of a screen `visibleWidth` columns wide.
    ///
    /// A wide grapheme that the screen edge would cut in half becomes a space; the continuation marker `""` (the
    /// right half of a wide grapheme drawn on its own) becomes a space.
    static func write(for cell: Cell, x: Int, visibleWidth: Int) -> Write {
        let gridWidth = cell.text.isEmpty ? 1 : min(2, max(1, DisplayWidth.of(cell.text)))
        if gridWidth == 2 && x + 1 >= visibleWidth {
            return Write(characters: [space], width: 1, padded: false)
        }
        var (characters, width) = terminalCharacters(cell.text)
        if width > gridWidth {
            (characters, width) = ([replacementOrQuestionMark], 1)
        }
        return Write(characters: characters, width: width, padded: width < gridWidth)
    }

    /// The writes that draw a whole row of cells from column 0, as a full redraw makes them.
    static func row(_ cells: ArraySlice<Cell>, visibleWidth: Int) -> [Write] {
        var writes: [Write] = []
        var x = 0
        let width = min(cells.count, visibleWidth)
        while x < width {
            let write = write(for: cells[cells.startIndex + x], x: x, visibleWidth: width)
            writes.append(write)
            x += write.columns
        }
        return writes
    }

    /// The characters to send for a grapheme and the column width the C library gives them.
    ///
    /// Keeps the base scalar and the combining marks after it (at most ``maxCharacters`` in all); drops the rest of
    /// emoji ZWJ sequences (terminals disagree on joining them), any control or format character, and U+FE0F when
    /// the C library thinks the base is narrow. Unprintable graphemes become U+FFFD; `""` becomes a space.
    static func terminalCharacters(_ text: String) -> (characters: [wchar_t], width: Int) {
        var scalars = text.unicodeScalars.makeIterator()
        guard let base = scalars.next() else { return ([space], 1) }
        let baseWidth = Int(cn_wcwidth(wchar_t(bitPattern: base.value)))
        guard baseWidth >= 1, baseWidth <= 2, isPrintable(base) else { return ([replacementOrQuestionMark], 1) }
        var characters: [wchar_t] = [wchar_t(bitPattern: base.value)]
        while characters.count < maxCharacters, let scalar = scalars.next() {
            guard isCombining(scalar) else { break }
            if scalar.value == 0xFE0F && baseWidth == 1 {
                continue
            }
            characters.append(wchar_t(bitPattern: scalar.value))
        }
        return (characters, baseWidth)
    }

    /// U+FFFD if the C library can print it in one column (a UTF-8 locale), else `?`.
    static var replacementOrQuestionMark: wchar_t {
        cn_wcwidth(replacement) == 1 ? replacement : 0x3F
    }

    /// Whether a scalar may start a write: not a control, format, surrogate or unassigned character.
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator: false
        default: true
        }
    }

    /// Whether a scalar may follow the base in a write: a zero-width nonspacing or enclosing mark.
    private static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: cn_wcwidth(wchar_t(bitPattern: scalar.value)) == 0
        default: false
        }
    }
}
