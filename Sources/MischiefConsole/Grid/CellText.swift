/// What a grapheme cluster of any text becomes in a cell: the one place text is made safe for a terminal.
///
/// Text from a target can hold anything: C0 and C1 controls (ESC starts terminal commands), bidirectional controls
/// that reorder the rest of a terminal row, zero-width spaces and joiners, combining marks with nothing to combine
/// with, clusters of hundreds of marks. ``CellGrid/put(_:x:y:style:maxWidth:)`` passes every grapheme cluster
/// through ``classify(_:)``, so a cell only ever holds one grapheme cluster of printable scalars, at most
/// ``maxScalars`` long, and ``DisplayWidth`` measures exactly what the grid shows.
///
/// ```swift
/// CellText.classify("\u{1B}")    // .cell("\u{FFFD}", width: 1): a control is shown as U+FFFD
/// CellText.classify("\u{202E}")  // .invisible: the cell holds nothing; the grid draws ⟨RLO⟩ (InvisibleMarks)
/// CellText.classify("\u{301}")   // .marks("\u{301}"): a lone combining mark joins the previous cell
/// ```
public enum CellText {
    /// What a grapheme cluster becomes.
    public enum Kind: Hashable, Sendable {
        /// One grapheme cluster that takes `width` (1 or 2) columns, as shown.
        case cell(String, width: Int)
        /// Zero-width marks with no base of their own (a lone combining mark): joined to the cell before them when
        /// they still form one grapheme cluster of the same width there (see ``joining(_:to:)``), else dropped.
        case marks(String)
        /// Nothing to show in a cell: format and bidirectional controls, zero-width spaces (those
        /// ``InvisibleMarks`` names are drawn as marks by ``CellGrid/put(_:x:y:style:maxWidth:)``).
        case invisible
    }

    /// The most scalars a cell keeps of one cluster (a ZWJ family with skin tones fits; a tower of marks is cut).
    public static let maxScalars = 16

    /// What `grapheme` becomes in a cell.
    ///
    /// Controls (C0, DEL, C1) and the line and paragraph separators are shown as U+FFFD, a tab as a space; format characters other than the zero-width
    /// joiner, the soft hyphen and tag characters (bidirectional controls, zero-width spaces, word joiners, byte
    /// order marks, Arabic prepended signs) are removed; what is left is cut to ``maxScalars`` scalars.
    public static func classify(_ grapheme: Character) -> Kind {
        if let ascii = grapheme.asciiValue, ascii >= 0x20, ascii < 0x7F {
            return .cell(String(grapheme), width: 1)
        }
        if grapheme.unicodeScalars.contains(where: isLineControl) {
            return .cell(grapheme == "\t" ? " " : "\u{FFFD}", width: 1)
        }
        if let split = InvisibleMarks.split(grapheme) {
            // The marks are the grid's to draw (or drop); a cell holds what is left.
            guard let rest = split.rest.first else { return .invisible }
            return classify(rest)
        }
        var kept = String.UnicodeScalarView()
        forEachKept(grapheme) { kept.append($0) }
        guard !kept.isEmpty else { return .invisible }
        let text = String(kept)
        let width = DisplayWidth.of(grapheme)
        guard width > 0 else { return .marks(text) }
        guard text.count == 1 else {
            // Removing scalars split the cluster (not seen in practice, but cheap to rule out): keep the first one.
            let first = text.first ?? "\u{FFFD}"
            return .cell(String(first), width: max(1, DisplayWidth.of(first)))
        }
        return .cell(text, width: width)
    }

    /// `text` (a cell's grapheme) with `marks` appended, if that is still one grapheme cluster of the same width and
    /// at most ``maxScalars`` scalars; else `nil` (the marks are dropped).
    public static func joining(_ marks: String, to text: String) -> String? {
        guard !text.isEmpty else { return nil }
        let joined = text + marks
        guard joined.unicodeScalars.count <= maxScalars, joined.count == 1,
            DisplayWidth.of(joined) == DisplayWidth.of(text)
        else { return nil }
        return joined
    }

    /// Whether a scalar is removed from cells: a format character (Cf) other than the zero-width joiner (which
    /// joins emoji), the soft hyphen (shown) and tag characters (which make subdivision flags).
    public static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.properties.generalCategory == .format else { return false }
        let value = scalar.value
        return value != 0x200D && value != 0x00AD && !(0xE0020...0xE007F).contains(value)
    }

    /// Whether a scalar is a control (C0, DEL, C1) or a line or paragraph separator: a cluster of its own, shown as
    /// U+FFFD.
    public static func isLineControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// Calls `body` with the scalars of `grapheme` a cell keeps: not removed, at most ``maxScalars``.
    @inline(__always)
    static func forEachKept(_ grapheme: Character, _ body: (Unicode.Scalar) -> Void) {
        var kept = 0
        for scalar in grapheme.unicodeScalars where !isRemoved(scalar) {
            guard kept < maxScalars else { return }
            kept += 1
            body(scalar)
        }
    }
}
