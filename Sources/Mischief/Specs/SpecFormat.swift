/// Helpers that print numbers and strings the way canonical specs write them.
enum SpecFormat {
    /// The shortest text that reads back as `value`: whole values without `.0` (`2`), others as Swift prints
    /// them (`1.5`, `1e-05`).
    static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), value.magnitude < 9.2e18 {
            return String(Int64(value))
        }
        return value.description
    }

    /// A double-quoted string with JSON escapes, so that the text reads back the same by scalars and by
    /// characters.
    ///
    /// Escaped: `"` and `\`; controls (C0, DEL, C1) and bidirectional controls everywhere, as they would change
    /// how the rest of the line shows; a scalar that would join the character before it when that character is
    /// the opening quote or the end of an escape (a combining mark, a zero-width joiner, a variation selector at
    /// the start of the string); and a scalar that would join the character after it when that is the closing
    /// quote or a backslash (a prepended concatenation mark such as U+0600 at the end). `\n`, `\r`, `\t`, `\b`,
    /// `\f` are used where they apply, else `\uXXXX` (a UTF-16 surrogate pair beyond U+FFFF).
    static func quoted(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        // Backwards: which scalars are escaped for what they are, or because they would join the syntax after.
        var escape = [Bool](repeating: false, count: scalars.count)
        for index in scalars.indices.reversed() {
            let scalar = scalars[index]
            let last = index == scalars.count - 1
            escape[index] =
                shortEscapes[scalar] != nil || escapesEverywhere(scalar)
                || ((last || escape[index + 1]) && joins(scalar, last ? "\"" : "\\"))
        }
        // Forwards: a scalar that would join the opening quote or the escape before it is escaped too.
        var result = "\""
        for (index, scalar) in scalars.enumerated() {
            if !escape[index], index == 0 || escape[index - 1], joins(result.unicodeScalars.last!, scalar) {
                escape[index] = true
            }
            if !escape[index] {
                result.unicodeScalars.append(scalar)
            } else {
                result += shortEscapes[scalar] ?? escaped(scalar)
            }
        }
        return result + "\""
    }

    /// The escapes with a letter of their own.
    private static let shortEscapes: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u{8}": "\\b", "\u{C}": "\\f",
    ]

    /// Controls and bidirectional controls, escaped wherever they are.
    static func escapesEverywhere(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether a scalar takes no width of its own: a mark, a format character (joiners, bidi controls).
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// Whether `first` and `second` make one grapheme cluster.
    static func joins(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> Bool {
        var pair = String.UnicodeScalarView()
        pair.append(first)
        pair.append(second)
        return String(pair).count == 1
    }

    /// `\uXXXX`, or a surrogate pair `\uXXXX\uXXXX` beyond U+FFFF.
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        guard scalar.value > 0xFFFF else { return "\\u" + hex(scalar.value) }
        let offset = scalar.value - 0x10000
        return "\\u" + hex(0xD800 + (offset >> 10)) + "\\u" + hex(0xDC00 + (offset & 0x3FF))
    }

    /// At least four upper-case hexadecimal digits.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
