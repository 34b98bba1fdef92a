/// One token of a spec's text, with its columns.
struct SpecToken: Equatable {
    /// What the token is.
    var kind: Kind
    /// The first column (1-based).
    var start: Int
    /// The column just past the token.
    var end: Int
    /// The token's source text.
    var text: String

    /// The kinds of tokens.
    enum Kind: Equatable {
        /// An action name, label, word or keyword: ASCII letters, digits, `-` and `_`, starting with a letter.
        case identifier
        /// An unsigned number with an optional unit, such as `12.5`, `1e-05` or `250ms`.
        case number(amount: String, unit: String)
        /// A quoted string, escapes resolved.
        case string(String)
        /// An ISO 8601 date or date-time.
        case date(SpecDate)
        case leftParen, rightParen, comma, colon, percent, star, plus, minus, arrow
        /// `@`, which scopes a probability: `10%@key`.
        case at
        case leftBrace, rightBrace, leftBracket, rightBracket
        /// The end of the text.
        case end
        /// A lexical error; the lexer stops after it.
        case error(SpecError)
    }

    /// True for a number without a fraction, exponent or unit.
    var isWholeNumber: Bool {
        guard case .number(let amount, let unit) = kind else {
            return false
        }
        return unit.isEmpty && !amount.contains(".") && !amount.contains("e") && !amount.contains("E")
    }

    /// How messages refer to the token: `'b'`, `string "x"`, `the end of the spec`.
    var quoted: String {
        switch kind {
        case .end:
            return "the end of the spec"
        case .string:
            return "string \(text)"
        default:
            return "'\(text)'"
        }
    }
}
