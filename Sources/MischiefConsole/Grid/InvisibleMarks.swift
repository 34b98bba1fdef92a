/// Invisible format characters a target's text may hold (bidirectional controls, zero-width spaces and joiners, the
/// byte order mark, the soft hyphen), shown as short dim marks such as `⟨RLO⟩` so the console tells what the target
/// sends without passing the control to the terminal, where it would reorder the rest of the row.
///
/// ``CellGrid/put(_:x:y:style:maxWidth:)`` draws a mark's characters in the `muted` role, one column each, and
/// ``DisplayWidth`` counts them, so layout and cutting see the same columns the grid writes. A zero-width joiner
/// inside an emoji sequence (👩‍💻) joins it and gets no mark. ``areShown`` is off while the console's `I` key hides
/// the marks: then the characters are dropped, taking no column. In ASCII mode the terminal draws `⟨` and `⟩` as
/// `<` and `>` (``ASCIIFallback``).
///
/// ```swift
/// #expect(InvisibleMarks.name(of: "\u{202E}") == "RLO")
/// #expect(DisplayWidth.of("\u{200F}\u{202E}ab") == 12)  // ⟨RLM⟩⟨RLO⟩ab
/// ```
public enum InvisibleMarks {
    /// Whether marks are drawn (the default) or the characters dropped; set for one render with
    /// `InvisibleMarks.$areShown.withValue(false) { … }`, as ``Console/render(_:size:theme:)`` does.
    @TaskLocal public static var areShown = true

    /// The opening and closing characters of a mark.
    public static let open: Character = "⟨"
    public static let close: Character = "⟩"

    /// The short name of a character shown as a mark, or nil for every other.
    public static func name(of scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00AD: "SHY"
        case 0x061C: "ALM"
        case 0x200B: "ZWSP"
        case 0x200C: "ZWNJ"
        case 0x200D: "ZWJ"
        case 0x200E: "LRM"
        case 0x200F: "RLM"
        case 0x202A: "LRE"
        case 0x202B: "RLE"
        case 0x202C: "PDF"
        case 0x202D: "LRO"
        case 0x202E: "RLO"
        case 0x2060: "WJ"
        case 0x2066: "LRI"
        case 0x2067: "RLI"
        case 0x2068: "FSI"
        case 0x2069: "PDI"
        case 0xFEFF: "BOM"
        default: nil
        }
    }

    /// The mark shown for `name`: `⟨RLO⟩`.
    public static func mark(named name: String) -> String { "\(open)\(name)\(close)" }

    /// A grapheme cluster taken apart: what is left of it without its marked characters, and their marks in order.
    public struct Split: Equatable, Sendable {
        /// The cluster without its marked characters (empty when it was only those).
        public var rest: String
        /// The marks, such as `⟨ZWJ⟩`, in the order their characters came.
        public var marks: [String]

        /// The columns the marks take (each of their characters takes one).
        public var marksWidth: Int { marks.reduce(0) { $0 + $1.count } }
    }

    /// `grapheme` taken apart, or nil when it holds no marked character (the common case, checked without
    /// allocating). A zero-width joiner followed in its cluster by an emoji joins an emoji sequence and is kept.
    public static func split(_ grapheme: Character) -> Split? {
        let scalars = grapheme.unicodeScalars
        guard scalars.contains(where: { mayBeMarked($0.value) }) else { return nil }
        var rest = String.UnicodeScalarView()
        var marks: [String] = []
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if let name = name(of: scalar), !(scalar.value == 0x200D && joinsEmoji(before: next, in: scalars)) {
                marks.append(mark(named: name))
            } else {
                rest.append(scalar)
            }
            index = next
        }
        guard !marks.isEmpty else { return nil }
        return Split(rest: String(rest), marks: marks)
    }

    /// Whether the scalar after a zero-width joiner is an emoji it joins (GB11: only a pictograph continues a
    /// cluster after a joiner, so a joiner followed by anything else, or by nothing, joins nothing visible).
    private static func joinsEmoji(before index: String.UnicodeScalarView.Index, in scalars: String.UnicodeScalarView)
        -> Bool
    {
        guard index < scalars.endIndex else { return false }
        let next = scalars[index]
        return !next.isASCII && next.properties.isEmoji
    }

    /// A cheap first test: whether a scalar value may be one ``name(of:)`` names.
    @inline(__always)
    private static func mayBeMarked(_ value: UInt32) -> Bool {
        value == 0x00AD || value == 0x061C || (0x200B...0x200F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2060...0x2069).contains(value) || value == 0xFEFF
    }
}
