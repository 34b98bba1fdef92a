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

    /// A double-quoted string with JSON escapes for `"`, `\` and control characters only.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"":
                result += "\\\""
            case "\\":
                result += "\\\\"
            case "\n":
                result += "\\n"
            case "\r":
                result += "\\r"
            case "\t":
                result += "\\t"
            case "\u{8}":
                result += "\\b"
            case "\u{C}":
                result += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
