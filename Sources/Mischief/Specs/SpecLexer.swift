/// Splits a spec's text into tokens, stopping at the first lexical error.
///
/// The lexer reads Unicode scalars, not grapheme clusters: a combining mark or a joiner right after an opening
/// quote belongs to the string, not to the quote, and columns count scalars (see ``SourceRange``).
struct SpecLexer {
    /// The whole text, for errors.
    let text: String
    /// The text's Unicode scalars.
    let characters: [Unicode.Scalar]
    /// The index of the next scalar (0-based; the column is `position + 1`).
    var position = 0

    /// Creates a lexer over `text`.
    init(text: String) {
        self.text = text
        self.characters = Array(text.unicodeScalars)
    }

    /// The text of `scalars` as a string.
    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// All tokens, ending with `.end`, or with `.error` at the first lexical error.
    static func tokens(of text: String) -> [SpecToken] {
        var lexer = SpecLexer(text: text)
        var tokens: [SpecToken] = []
        while true {
            lexer.skipWhitespace()
            if lexer.position >= lexer.characters.count {
                let column = lexer.characters.count + 1
                tokens.append(SpecToken(kind: .end, start: column, end: column, text: ""))
                return tokens
            }
            do throws(SpecError) {
                tokens.append(try lexer.nextToken())
            } catch {
                let column = error.column
                tokens.append(SpecToken(kind: .error(error), start: column, end: column, text: ""))
                return tokens
            }
        }
    }

    private mutating func skipWhitespace() {
        while position < characters.count, Self.isSpace(characters[position]) {
            position += 1
        }
    }

    /// A space, tab or line break: the only space between tokens.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < characters.count ? characters[position + offset] : nil
    }

    private func error(_ message: String, at index: Int) -> SpecError {
        SpecError(text: text, column: index + 1, message: message)
    }

    private func token(_ kind: SpecToken.Kind, from start: Int) -> SpecToken {
        SpecToken(kind: kind, start: start + 1, end: position + 1, text: Self.string(characters[start..<position]))
    }

    static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
        guard let value = scalar?.value else {
            return false
        }
        return value >= 48 && value <= 57
    }

    static func isLetter(_ scalar: Unicode.Scalar?) -> Bool {
        guard let value = scalar?.value else {
            return false
        }
        return (value >= 65 && value <= 90) || (value >= 97 && value <= 122)
    }

    /// The value of an ASCII hexadecimal digit, or nil.
    static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 48...57: return scalar.value - 48
        case 65...70: return scalar.value - 55
        case 97...102: return scalar.value - 87
        default: return nil
        }
    }

    /// The tokens of one character, made once (not for every token).
    private static let singles: [Unicode.Scalar: SpecToken.Kind] = [
        "(": .leftParen, ")": .rightParen, ",": .comma, ":": .colon, "%": .percent, "*": .star, "+": .plus,
        "{": .leftBrace, "}": .rightBrace, "[": .leftBracket, "]": .rightBracket, "@": .at,
    ]

    private mutating func nextToken() throws(SpecError) -> SpecToken {
        let start = position
        let character = characters[position]
        guard character.isASCII else {
            throw error(
                "unexpected character \(Self.shown(character)); specs are ASCII outside quoted strings",
                at: start)
        }
        if let kind = Self.singles[character] {
            position += 1
            return token(kind, from: start)
        }
        if character == "-" {
            position += 1
            if peek() == ">" {
                position += 1
                return token(.arrow, from: start)
            }
            return token(.minus, from: start)
        }
        if character == "\"" {
            return try string()
        }
        if Self.isDigit(character) {
            if (0..<4).allSatisfy({ Self.isDigit(peek($0)) }) && peek(4) == "-" && Self.isDigit(peek(5)) {
                return try date()
            }
            return try number()
        }
        if Self.isLetter(character) {
            while let next = peek(),
                Self.isLetter(next) || Self.isDigit(next) || next == "_"
                    || (next == "-" && peek(1) != ">")
            {
                position += 1
            }
            return token(.identifier, from: start)
        }
        throw error("unexpected character \(Self.shown(character))", at: start)
    }

    /// How an error shows a scalar: `'x'`, or `U+0301` for one that would not show on its own (a mark, a
    /// joiner, a control, a space).
    static func shown(_ scalar: Unicode.Scalar) -> String {
        if SpecFormat.escapesEverywhere(scalar) || SpecFormat.isZeroWidth(scalar) || scalar.properties.isWhitespace {
            return "U+" + SpecFormat.hex(scalar.value)
        }
        return "'\(scalar)'"
    }

    private mutating func number() throws(SpecError) -> SpecToken {
        let start = position
        while Self.isDigit(peek()) {
            position += 1
        }
        if peek() == "." {
            guard Self.isDigit(peek(1)) else {
                position += 1
                let text = Self.string(characters[start..<position])
                throw error("invalid number '\(text)': expected a digit after '.'", at: start)
            }
            position += 1
            while Self.isDigit(peek()) {
                position += 1
            }
        }
        if peek() == "e" || peek() == "E" {
            if Self.isDigit(peek(1)) || ((peek(1) == "+" || peek(1) == "-") && Self.isDigit(peek(2))) {
                position += 2
                while Self.isDigit(peek()) {
                    position += 1
                }
            }
        }
        let amountEnd = position
        while Self.isLetter(peek()) {
            position += 1
        }
        let amount = Self.string(characters[start..<amountEnd])
        let unit = Self.string(characters[amountEnd..<position])
        return token(.number(amount: amount, unit: unit), from: start)
    }

    private mutating func date() throws(SpecError) -> SpecToken {
        let start = position
        while Self.isDigit(peek()) || peek() == "-" {
            position += 1
        }
        if peek() == "T" || peek() == "t" {
            position += 1
            while Self.isDigit(peek()) || peek() == ":" || peek() == "." {
                position += 1
            }
            if peek() == "Z" || peek() == "z" {
                position += 1
            } else if (peek() == "+" || peek() == "-") && Self.isDigit(peek(1)) {
                position += 1
                while Self.isDigit(peek()) || peek() == ":" {
                    position += 1
                }
            }
        }
        while Self.isLetter(peek()) || Self.isDigit(peek()) {
            position += 1
        }
        let text = Self.string(characters[start..<position])
        do throws(SpecDate.Invalid) {
            return token(.date(try SpecDate.parse(text)), from: start)
        } catch {
            throw self.error("invalid date '\(text)': \(error.reason)", at: start)
        }
    }

    private mutating func string() throws(SpecError) -> SpecToken {
        let start = position
        position += 1
        var value = ""
        while true {
            guard let character = peek() else {
                throw error("unterminated string starting at column \(start + 1)", at: start)
            }
            position += 1
            if character == "\"" {
                return token(.string(value), from: start)
            }
            guard character == "\\" else {
                value.unicodeScalars.append(character)
                continue
            }
            let escapeStart = position - 1
            guard let escaped = peek() else {
                throw error("unterminated string starting at column \(start + 1)", at: start)
            }
            position += 1
            switch escaped {
            case "\"": value.append("\"")
            case "\\": value.append("\\")
            case "/": value.append("/")
            case "b": value.append("\u{8}")
            case "f": value.append("\u{C}")
            case "n": value.append("\n")
            case "r": value.append("\r")
            case "t": value.append("\t")
            case "u":
                let high = try unicodeEscape(at: escapeStart)
                if (0xD800...0xDBFF).contains(high) {
                    guard peek() == "\\", peek(1) == "u" else {
                        throw error("unpaired surrogate in escape '\\u\(SpecFormat.hex(high))'", at: escapeStart)
                    }
                    let lowStart = position
                    position += 2
                    let low = try unicodeEscape(at: lowStart)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("unpaired surrogate in escape '\\u\(SpecFormat.hex(high))'", at: escapeStart)
                    }
                    let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    value.unicodeScalars.append(Unicode.Scalar(combined)!)
                } else if let scalar = Unicode.Scalar(high) {
                    value.unicodeScalars.append(scalar)
                } else {
                    throw error("unpaired surrogate in escape '\\u\(SpecFormat.hex(high))'", at: escapeStart)
                }
            default:
                throw error(
                    "invalid escape '\\\(escaped)' in string; use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t "
                        + "or \\uXXXX", at: escapeStart)
            }
        }
    }

    /// Reads the four hex digits after `\u` (the position is just past the `u`).
    private mutating func unicodeEscape(at escapeStart: Int) throws(SpecError) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let character = peek(offset), let digit = Self.hexValue(character) else {
                let end = min(characters.count, position + 4)
                let written = Self.string(characters[escapeStart..<end])
                let shown = written.split(separator: "\"").first.map(String.init) ?? ""
                throw error("invalid unicode escape '\(shown)'; expected four hex digits after \\u", at: escapeStart)
            }
            value = value * 16 + digit
        }
        position += 4
        return value
    }
}
