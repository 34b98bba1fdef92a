/// Terminal column widths of grapheme clusters, computed in pure Swift so results do not depend on the platform.
///
/// Widths are those of the cells ``CellGrid/put(_:x:y:style:maxWidth:)`` writes (see ``CellText``): a control or a
/// line or paragraph separator takes one column (it is shown as U+FFFD); invisible format characters that are shown
/// as marks (``InvisibleMarks``: bidirectional controls, zero-width spaces) take the mark's columns while marks are
/// shown and none when they are hidden; other removed format characters and combining marks, joiners and variation selectors add nothing, and a cluster that
/// starts with one takes no column (it is a lone mark); East Asian Wide and Fullwidth characters (CJK, Hangul, kana,
/// fullwidth forms) and emoji-presentation characters take two columns, as does any cluster containing U+FE0F
/// (emoji presentation selector); everything else takes one column. A cluster takes the width of its first scalar,
/// and only its first ``CellText/maxScalars`` kept scalars count.
public enum DisplayWidth {
    /// The number of columns `grapheme` occupies: 0, 1 or 2, plus the columns of its ``InvisibleMarks`` while they
    /// are shown (`⟨RLO⟩` takes 5).
    public static func of(_ grapheme: Character) -> Int {
        width(of: grapheme, countingMarks: nil)
    }

    /// The number of columns a cell's text takes as the grid wrote it (0, 1 or 2), for a terminal drawing cells:
    /// marks are cells of their own, so a character ``InvisibleMarks`` names (which the grid never writes into a
    /// cell) counts nothing here, whether or not marks are shown.
    public static func ofCell(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1, countingMarks: false) }
    }

    /// The width of `grapheme`, its marks counted as `countingMarks` says (nil: as ``InvisibleMarks/areShown``).
    private static func width(of grapheme: Character, countingMarks: Bool?) -> Int {
        if grapheme.isASCII {
            return 1  // printable, or a control shown as U+FFFD
        }
        if let split = InvisibleMarks.split(grapheme) {
            let rest = split.rest.reduce(0) { $0 + unmarkedWidth($1) }
            return rest + ((countingMarks ?? InvisibleMarks.areShown) ? split.marksWidth : 0)
        }
        return unmarkedWidth(grapheme)
    }

    /// The number of columns a grapheme with no marked character occupies: 0, 1 or 2.
    private static func unmarkedWidth(_ grapheme: Character) -> Int {
        var base = 0
        var kept = 0
        var emojiPresentation = false
        // The scalars ``CellText/forEachKept(_:_:)`` keeps, in one loop without a closure (this is the drawing path).
        for scalar in grapheme.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return 1  // shown as U+FFFD, a cluster of its own
            case .format where CellText.isRemoved(scalar): continue
            default: break
            }
            guard kept < CellText.maxScalars else { break }
            kept += 1
            if kept == 1 {
                base = of(scalar)
                guard base > 0 else { return 0 }  // a lone mark
            } else if scalar.value == 0xFE0F {
                emojiPresentation = true
            }
        }
        return emojiPresentation ? 2 : base
    }

    /// The number of columns `string` occupies.
    public static func of(_ string: String) -> Int {
        if let ascii = asciiWidth(string) {
            return ascii
        }
        return string.reduce(0) { $0 + of($1) }
    }

    /// The width of an all-ASCII string (one column per grapheme: CR LF is one), or `nil` if it is not ASCII.
    private static func asciiWidth(_ string: String) -> Int? {
        let utf8 = string.utf8
        return utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var width = 0
            var previous: UInt8 = 0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                if !(byte == 0x0A && previous == 0x0D) {
                    width += 1
                }
                previous = byte
            }
            return width
        } ?? nil
    }

    /// The number of columns a lone scalar occupies: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F {
            return value < 0x20 ? 0 : 1
        }
        if value < 0xA0 {
            return 0  // DEL and C1 controls
        }
        if isZeroWidth(scalar) {
            return 0
        }
        if isWide(value) || scalar.properties.isEmojiPresentation {
            return 2
        }
        return 1
    }

    /// Shortens `s` to at most `columns` columns, cutting at grapheme boundaries.
    ///
    /// With `ellipsis`, a shortened result ends in "…" (which takes one of the columns). A wide grapheme that
    /// does not fit is dropped, so the result may be one column narrower than `columns`.
    public static func truncate(_ s: String, to columns: Int, ellipsis: Bool) -> String {
        guard columns > 0 else { return "" }
        let budget = ellipsis ? columns - 1 : columns
        var used = 0
        var cut: String.Index?  // where the shortened text ends, once it is known to be needed
        var index = s.startIndex
        // One pass that stops past `columns`, so a long text costs what fits, not its whole length.
        while index < s.endIndex {
            let grapheme = s[index]
            used += of(grapheme)
            if used > budget, cut == nil {
                cut = index
            }
            if used > columns {
                break
            }
            index = s.index(after: index)
        }
        guard used > columns, let cut else { return s }
        return String(s[..<cut]) + (ellipsis ? "…" : "")
    }

    /// Whether a scalar is a combining mark, joiner, variation selector or other zero-width character.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0x200B || value == 0x200C || value == 0x200D || value == 0x2060 || value == 0xFEFF {
            return true
        }
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) {
            return true  // variation selectors
        }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) {
            return true  // Hangul medial vowels and final consonants combine with the leading consonant
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return value != 0x00AD  // the soft hyphen is traditionally shown
        case .control:
            return true
        default:
            return false
        }
    }

    /// Whether a scalar value is East Asian Wide or Fullwidth.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F,  // Hangul Jamo leading consonants
            0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
            0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
            0x3400...0x4DBF,  // CJK extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19,  // vertical forms
            0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
            0xFF00...0xFF60,  // fullwidth forms
            0xFFE0...0xFFE6,  // fullwidth signs
            0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,  // Tangut, Khitan, kana supplement
            0x1F200...0x1F2FF,  // enclosed ideographic supplement
            0x20000...0x2FFFD,  // CJK extensions B–F
            0x30000...0x3FFFD:  // CJK extension G and later
            true
        default:
            false
        }
    }
}
