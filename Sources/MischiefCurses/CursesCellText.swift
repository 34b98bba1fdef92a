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
        if cell.text.utf8.count == 1, let byte = cell.text.utf8.first, byte >= 0x20, byte < 0x7F {
            return Write(wchar_t(byte), width: 1)  // printable ASCII: most cells
        }
        let gridWidth = cell.text.isEmpty ? 1 : min(2, max(1, DisplayWidth.ofCell(cell.text)))
        if gridWidth == 2 && x + 1 >= visibleWidth {
            return Write(space, width: 1)
        }
        var write = terminalCharacters(cell.text)
        if write.width > gridWidth {
            write = Write(replacementOrQuestionMark, width: 1)
        }
        write.padded = write.width < gridWidth
        return write
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
    /// the C library thinks the base is narrow. Unprintable graphemes become their ``ASCIIFallback`` (a border
    /// without a UTF-8 locale), else U+FFFD; `""` becomes a space.
    static func terminalCharacters(_ text: String) -> Write {
        var scalars = text.unicodeScalars.makeIterator()
        guard let base = scalars.next() else { return Write(space, width: 1) }
        let baseWidth = Int(cn_wcwidth(wchar_t(bitPattern: base.value)))
        guard baseWidth >= 1, baseWidth <= 2, isPrintable(base) else {
            // Without a UTF-8 locale the console's own borders, marks and bars are drawn in ASCII, not as `?`.
            if let ascii = ASCIIFallback.character(for: base) { return Write(wchar_t(ascii.value), width: 1) }
            return Write(replacementOrQuestionMark, width: 1)
        }
        var write = Write(wchar_t(bitPattern: base.value), width: baseWidth)
        while write.count < maxCharacters, let scalar = scalars.next() {
            guard isCombining(scalar) else { break }
            if scalar.value == 0xFE0F && baseWidth == 1 {
                continue
            }
            write.append(wchar_t(bitPattern: scalar.value))
        }
        return write
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
