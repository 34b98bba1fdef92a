/// A held call's JSON laid out for people: one member a line, indented, so it wraps between tokens, never in the
/// middle of a key (`"i` / `d":`); and back on one line for an answer field. Numbers, strings and escapes are kept
/// as written, byte for byte: only the whitespace between tokens changes.
enum JSONLayout {
    /// `text` with one member or element a line, two spaces an level; `text` unchanged when it is not a JSON object
    /// or array (its strings unclosed, its brackets unbalanced).
    static func pretty(_ text: String) -> String {
        guard let compact = compact(text) else { return text }
        let scalars = Array(compact.unicodeScalars)
        var out = String.UnicodeScalarView()
        var depth = 0
        var string = StringScan()
        func newline() {
            out.append("\n")
            for _ in 0..<(2 * depth) { out.append(" ") }
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            defer { index += 1 }
            if string.takes(scalar) {
                out.append(scalar)
                continue
            }
            switch scalar {
            case "\"":
                string.isInside = true
                out.append(scalar)
            case "{", "[":
                out.append(scalar)
                let close: Unicode.Scalar = scalar == "{" ? "}" : "]"
                if index + 1 < scalars.count, scalars[index + 1] == close {
                    out.append(close)  // `{}` and `[]` stay on their line
                    index += 1
                } else {
                    depth += 1
                    newline()
                }
            case "}", "]":
                depth = max(0, depth - 1)
                newline()
                out.append(scalar)
            case ",":
                out.append(scalar)
                newline()
            case ":":
                out.append(":")
                out.append(" ")
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` without whitespace between tokens, on one line; nil when it is not a JSON object or array.
    static func compact(_ text: String) -> String? {
        let first = text.unicodeScalars.first { !isSpace($0) }
        guard first == "{" || first == "[" else { return nil }
        var out = String.UnicodeScalarView()
        var depth = 0
        var string = StringScan()
        for scalar in text.unicodeScalars {
            if string.takes(scalar) {
                out.append(scalar)
                continue
            }
            if isSpace(scalar) { continue }
            switch scalar {
            case "\"": string.isInside = true
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                guard depth >= 0 else { return nil }
            default: break
            }
            out.append(scalar)
        }
        guard !string.isInside, depth == 0 else { return nil }
        return String(out)
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\n" || scalar == "\r" || scalar == "\t"
    }

    /// Where a scan is in a JSON string: inside one, and just after a backslash there.
    struct StringScan {
        var isInside = false
        private var escaped = false

        /// Whether `scalar` belongs to the string being read (the closing quote too); keeps track of escapes and
        /// of where the string ends. Outside a string, false.
        mutating func takes(_ scalar: Unicode.Scalar) -> Bool {
            guard isInside else { return false }
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                isInside = false
            }
            return true
        }
    }
}
