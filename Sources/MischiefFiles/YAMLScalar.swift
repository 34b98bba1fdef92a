import Yams

/// Reads a YAML scalar as null, a boolean, a number or text, following the YAML 1.2 core schema.
///
/// Only plain (unquoted) scalars can be null, booleans or numbers; quoted scalars are always text.
/// Booleans are `true`/`false` only (`yes`/`no` are text).
struct YAMLScalar {
    /// The scalar being read.
    let scalar: Node.Scalar

    /// The scalar's text exactly as YAML gives it.
    var text: String { scalar.string }

    /// The explicit tag (`!!str`, `!!int`, ...), if the file gave one.
    var explicitTag: Tag.Name? {
        let name = Tag.Name(rawValue: scalar.tag.rawValue)
        return name == .implicit || name == .nonSpecific ? nil : name
    }

    /// Whether the scalar was written without quotes and without a block indicator.
    var isPlain: Bool {
        (scalar.style == .plain || scalar.style == .any) && explicitTag == nil
    }

    /// Whether the scalar was written in quotes (or as a block scalar).
    var isQuoted: Bool { ![.plain, .any].contains(scalar.style) }

    /// Whether the scalar means "no value": empty, `~` or `null`.
    var isNull: Bool {
        if explicitTag == .null { return true }
        return isPlain && ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// The boolean value, for `true` and `false` (any capitalisation YAML 1.2 allows).
    var bool: Bool? {
        guard isPlain || explicitTag == .bool else { return nil }
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// The result of reading the scalar as an integer.
    enum IntegerReading {
        /// Not written as an integer at all.
        case notInteger
        /// An integer whose magnitude does not fit in 64 bits.
        case tooLarge
        /// An integer: its sign and magnitude.
        case value(negative: Bool, magnitude: UInt64)
    }

    /// Reads decimal, `0x` hexadecimal, `0o` octal and `0b` binary integers with an optional sign.
    var integer: IntegerReading {
        guard isPlain || explicitTag == .int else { return .notInteger }
        var body = Substring(text)
        var negative = false
        if let first = body.first, first == "+" || first == "-" {
            negative = first == "-"
            body = body.dropFirst()
        }
        var radix = 10
        for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where body.hasPrefix(prefix) {
            radix = base
            body = body.dropFirst(2)
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return .notInteger }
        guard body.allSatisfy({ Int(String($0), radix: radix) != nil }) else { return .notInteger }
        guard let magnitude = UInt64(body, radix: radix) else { return .tooLarge }
        return .value(negative: negative, magnitude: magnitude)
    }

    /// The floating-point value, including YAML's `.inf`, `-.inf` and `.nan`.
    var double: Double? {
        guard isPlain || explicitTag == .float || explicitTag == .int else { return nil }
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        if case let .value(negative, magnitude) = integer {
            let value = Double(magnitude)
            return negative ? -value : value
        }
        // Swift also accepts "inf", "nan" and hexadecimal floats; YAML does not, so insist on a digit.
        guard text.contains(where: \.isNumber), !text.lowercased().contains("n"), !text.contains("x") else {
            return nil
        }
        return Double(text)
    }

    /// Whether the scalar reads as a number or boolean (so it is shown without quotes in messages).
    var looksNumericOrBoolean: Bool {
        guard isPlain else { return false }
        if bool != nil || double != nil { return true }
        if case .tooLarge = integer { return true }
        return false
    }

    /// How the scalar is shown in a message: `nothing`, `null`, `12`, `true` or `"text"`.
    var summary: String {
        if isNull { return text.isEmpty ? "nothing" : "null" }
        if looksNumericOrBoolean { return text }
        return YAMLScalar.quoted(text, limit: 40)
    }

    /// The text in double quotes with YAML escapes, cut to `limit` Unicode scalars.
    static func quoted(_ text: String, limit: Int = .max) -> String {
        var body = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count == limit {
                body += "…"
                break
            }
            switch scalar {
            case "\"": body += "\\\""
            case "\\": body += "\\\\"
            case "\n": body += "\\n"
            case "\t": body += "\\t"
            case "\r": body += "\\r"
            case "\u{85}", "\u{2028}", "\u{2029}", "\u{FEFF}":
                body += "\\u" + hex(scalar.value)
            default:
                if scalar.properties.generalCategory == .control {
                    body += "\\u" + hex(scalar.value)
                } else {
                    body.unicodeScalars.append(scalar)
                }
            }
        }
        return "\"\(body)\""
    }

    /// Four (or more) upper-case hexadecimal digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
