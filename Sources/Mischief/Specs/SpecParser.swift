/// A recursive-descent parser from tokens to a ``Spec``.
///
/// Grammar (spaces allowed between tokens):
///
/// ```
/// spec        := composition ('->' composition)*
/// composition := term ('+' term)*
/// term        := [number '%' ['@' 'key']] [integer '*'] name ['(' [argument (',' argument)*] ')']
/// argument    := [name ':'] value
/// value       := string | [sign] number ['%' | unit] | date | true | false | null | word
///              | '[' values ']' | '{' members '}' | spec
/// ```
///
/// A value is a nested spec when it is an action with parentheses, starts with `p%` followed by more of a term or
/// with `n*`, or is followed by `+` or `->`. `@key` after a probability draws it per ``ChaosKey`` instead of per
/// call.
struct SpecParser {
    /// The spec's text.
    let text: String
    /// The text's Unicode scalars, for quoting source ranges (columns count scalars).
    let characters: [Unicode.Scalar]
    /// The tokens, ending with `.end` or `.error`.
    let tokens: [SpecToken]
    /// The index of the next token.
    var index = 0
    /// How deeply values are nested.
    var depth = 0

    /// The deepest nesting of values (arrays, objects, nested specs) accepted.
    static let maximumDepth = 32

    /// Creates a parser over `text`.
    init(text: String) {
        self.text = text
        self.characters = Array(text.unicodeScalars)
        self.tokens = SpecLexer.tokens(of: text)
    }

    /// A signed number as written, before it is read as a probability, count or value.
    struct Literal {
        var negative: Bool
        var amount: String
        var unit: String
        var text: String
        var start: Int
        var isWhole: Bool
    }

    // MARK: Token access

    /// The token `offset` ahead, without throwing lexical errors (used for lookahead).
    private func look(_ offset: Int = 0) -> SpecToken {
        tokens[min(index + offset, tokens.count - 1)]
    }

    /// The next token, throwing if it is a lexical error.
    private func current() throws(SpecError) -> SpecToken {
        let token = look()
        if case .error(let error) = token.kind {
            throw error
        }
        return token
    }

    @discardableResult
    private mutating func advance() -> SpecToken {
        let token = look()
        index += 1
        return token
    }

    private func error(_ message: String, at column: Int) -> SpecError {
        SpecError(text: text, column: column, message: message)
    }

    /// The source text from `start` up to the end of the previous token, e.g. `50% 3*`.
    private func source(from start: Int) -> String {
        let end = index > 0 ? tokens[index - 1].end : start
        return SpecLexer.string(characters[(start - 1)..<max(start - 1, end - 1)])
    }

    /// True when a (possibly signed) number starts `offset` tokens ahead; a sign must touch its number.
    private func isNumberStart(_ offset: Int = 0) -> Bool {
        let token = look(offset)
        if case .number = token.kind {
            return true
        }
        guard token.kind == .plus || token.kind == .minus else {
            return false
        }
        let next = look(offset + 1)
        if case .number = next.kind, next.start == token.end {
            return true
        }
        return false
    }

    /// The number of tokens a (possibly signed) number takes `offset` tokens ahead.
    private func numberLength(_ offset: Int = 0) -> Int {
        look(offset).kind == .plus || look(offset).kind == .minus ? 2 : 1
    }

    private mutating func parseSignedNumber() -> Literal {
        var negative = false
        var sign = ""
        var first = advance()
        let start = first.start
        if first.kind == .plus || first.kind == .minus {
            negative = first.kind == .minus
            sign = first.text
            first = advance()
        }
        guard case .number(let amount, let unit) = first.kind else {
            preconditionFailure("parseSignedNumber called without a number")
        }
        return Literal(
            negative: negative, amount: amount, unit: unit, text: sign + first.text, start: start,
            isWhole: first.isWholeNumber
        )
    }

    // MARK: Specs and terms

    /// Parses the whole text as a spec, requiring the end afterwards.
    mutating func parseWholeSpec() throws(SpecError) -> Spec {
        if try current().kind == .end {
            throw error("empty spec; expected an action such as 'off'", at: 1)
        }
        let spec = try parseSpec()
        let next = try current()
        guard next.kind == .end else {
            throw error("unexpected \(next.quoted); expected '+', '->' or the end of the spec", at: next.start)
        }
        return spec
    }

    /// Parses `composition ('->' composition)*`, stopping before any other token.
    private mutating func parseSpec() throws(SpecError) -> Spec {
        var alternatives = [try parseComposition(after: nil)]
        while look().kind == .arrow {
            let arrow = advance()
            alternatives.append(try parseComposition(after: arrow))
        }
        return Spec(alternatives: alternatives)
    }

    private mutating func parseComposition(after operatorToken: SpecToken?) throws(SpecError) -> Spec.Composition {
        var terms = [try parseTerm(after: operatorToken)]
        while look().kind == .plus {
            let plus = advance()
            if terms.count == Spec.maximumCompositionTerms {
                let next = look()
                throw error(
                    "a '+' composition has at most \(Spec.maximumCompositionTerms) terms; split the work into "
                        + "fewer, larger actions",
                    at: next.kind == .end ? plus.start : next.start)
            }
            terms.append(try parseTerm(after: plus))
        }
        return Spec.Composition(terms: terms)
    }

    private mutating func parseTerm(after operatorToken: SpecToken?) throws(SpecError) -> Spec.Term {
        let start = try current().start
        var probability: Double?
        var scope = ProbabilityScope.call
        var count: Int?
        if isNumberStart() {
            let literal = parseSignedNumber()
            if look().kind == .percent {
                advance()
                probability = try readProbability(literal)
                if try current().kind == .at {
                    scope = try parseScope(after: literal)
                }
                if isNumberStart() {
                    let second = parseSignedNumber()
                    switch look().kind {
                    case .star:
                        advance()
                        count = try readCount(second)
                    case .percent:
                        throw error(
                            "a term has at most one probability; found a second one, '\(second.text)%'",
                            at: second.start)
                    default:
                        throw error("expected '*' after '\(second.text)' to make a count like '3*'", at: second.start)
                    }
                }
            } else if look().kind == .star {
                advance()
                count = try readCount(literal)
                if isNumberStart() {
                    let second = parseSignedNumber()
                    if look().kind == .percent {
                        throw error(
                            "the probability must come before the count, as in '\(second.text)%\(count!)*'",
                            at: second.start)
                    }
                    throw error(
                        "expected an action after '\(source(from: start))', found '\(second.text)'",
                        at: second.start)
                }
            } else if case .error(let error) = look().kind {
                throw error
            } else if !literal.unit.isEmpty {
                throw error("expected an action, found '\(literal.text)'", at: literal.start)
            } else {
                throw error(
                    "expected '%' or '*' after '\(literal.text)'; a term looks like '50%3*off'",
                    at: literal.start)
            }
        }
        let name = try current()
        if name.kind == .at {
            throw misplacedScope(at: name, probability: probability, scope: scope, count: count)
        }
        guard name.kind == .identifier else {
            let prefix = probability != nil || count != nil ? source(from: start) : nil
            if name.kind == .end, let operatorToken, prefix == nil {
                throw error(
                    "unexpected '\(operatorToken.text)' at the end of the spec; expected an action",
                    at: operatorToken.start)
            }
            if let context = prefix ?? operatorToken?.text {
                throw error("expected an action after '\(context)', found \(name.quoted)", at: name.start)
            }
            throw error("expected an action, found \(name.quoted)", at: name.start)
        }
        advance()
        if look().kind == .percent {
            throw error("probability must be a number between 0 and 100, got '\(name.text)'", at: name.start)
        }
        if look().kind == .star {
            throw error("count must be a positive whole number, got '\(name.text)'", at: name.start)
        }
        var arguments: [Spec.Argument] = []
        var end = name.end
        if look().kind == .leftParen {
            (arguments, end) = try parseArguments(of: name)
        }
        return Spec.Term(
            probability: probability,
            per: scope,
            count: count,
            action: name.text,
            arguments: arguments,
            location: SourceRange(start: start, end: end),
            actionLocation: SourceRange(start: name.start, end: name.end),
            source: text
        )
    }

    /// Parses `@key` after `p%`; the current token is the `@`.
    private mutating func parseScope(after literal: Literal) throws(SpecError) -> ProbabilityScope {
        let at = advance()
        let word = try current()
        guard word.kind == .identifier, word.text == "key" else {
            if word.kind == .identifier, word.text.hasPrefix("key") {
                throw error(
                    "expected a space after '@key', as in '\(literal.text)%@key offline', found '\(word.text)'",
                    at: word.start)
            }
            throw error(
                "expected 'key' after '@', as in '\(literal.text)%@key offline', found \(word.quoted)",
                at: word.kind == .end ? at.start : word.start)
        }
        advance()
        return .key
    }

    /// The error for an `@` where no probability is just before it.
    private func misplacedScope(
        at token: SpecToken, probability: Double?, scope: ProbabilityScope, count: Int?
    ) -> SpecError {
        if scope == .key {
            return error("a probability has one scope; found a second '@'", at: token.start)
        }
        if let count {
            return error("'@key' goes right after the probability, as in '10%@key \(count)*offline'", at: token.start)
        }
        return error("'@key' needs a probability before it, as in '10%@key offline'", at: token.start)
    }

    private func readProbability(_ literal: Literal) throws(SpecError) -> Double {
        guard literal.unit.isEmpty, let magnitude = Double(literal.amount), magnitude.isFinite,
            !literal.negative || magnitude == 0, magnitude <= 100
        else {
            throw error("probability must be between 0 and 100, got \(literal.text)", at: literal.start)
        }
        return magnitude
    }

    private func readCount(_ literal: Literal) throws(SpecError) -> Int {
        guard !literal.negative, literal.isWhole, let count = Int(literal.amount), count > 0 else {
            throw error("count must be a positive whole number, got \(literal.text)", at: literal.start)
        }
        return count
    }

    // MARK: Arguments and values

    private mutating func parseArguments(of name: SpecToken) throws(SpecError) -> ([Spec.Argument], Int) {
        advance()
        let unclosed = "expected ')' to close the arguments of '\(name.text)'"
        if look().kind == .rightParen {
            return ([], advance().end)
        }
        var arguments: [Spec.Argument] = []
        var labels: Set<String> = []
        while true {
            let first = try current()
            if first.kind == .end {
                throw error(unclosed, at: first.start)
            }
            let argument = try parseArgument()
            if let label = argument.label, !labels.insert(label).inserted {
                throw error("duplicate argument '\(label)'", at: argument.location.start)
            }
            arguments.append(argument)
            let next = try current()
            switch next.kind {
            case .comma:
                advance()
                let after = try current()
                if after.kind == .rightParen {
                    throw error("trailing ',' before ')'", at: next.start)
                }
            case .rightParen:
                advance()
                return (arguments, next.end)
            case .end:
                throw error(unclosed, at: next.start)
            default:
                throw error("expected ',' or ')' after an argument, found \(next.quoted)", at: next.start)
            }
        }
    }

    private mutating func parseArgument() throws(SpecError) -> Spec.Argument {
        let first = try current()
        var label: String?
        var what = "an argument"
        if first.kind == .identifier, look(1).kind == .colon {
            label = first.text
            what = "a value for '\(first.text)'"
            advance()
            advance()
        }
        let value = try parseValue(what)
        let end = tokens[index - 1].end
        return Spec.Argument(label: label, value: value, location: SourceRange(start: first.start, end: end))
    }

    /// Parses one value; `what` names the expected thing in messages ("an argument", "a value for 'by'").
    private mutating func parseValue(_ what: String) throws(SpecError) -> Spec.Value {
        let save = index
        let first = try current()
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            throw error("values may nest at most \(Self.maximumDepth) levels deep", at: first.start)
        }
        let value: Spec.Value
        switch first.kind {
        case .identifier:
            if look(1).kind == .leftParen {
                return .spec(try parseSpec())
            }
            advance()
            switch first.text {
            case "true": value = .bool(true)
            case "false": value = .bool(false)
            case "null": value = .null
            default: value = .word(first.text)
            }
        case .string(let string):
            advance()
            value = .string(string)
        case .date(let date):
            advance()
            value = .date(date)
        case .leftBrace:
            value = try parseObject()
        case .leftBracket:
            value = try parseArray()
        default:
            guard isNumberStart() else {
                throw error("expected \(what), found \(first.quoted)", at: first.start)
            }
            let length = numberLength()
            let after = look(length).kind
            if after == .star
                || (after == .percent
                    && (look(length + 1).kind == .identifier || look(length + 1).kind == .at
                        || isNumberStart(length + 1)))
            {
                return .spec(try parseSpec())
            }
            let literal = parseSignedNumber()
            if look().kind == .percent {
                advance()
                guard literal.unit.isEmpty, let magnitude = Double(literal.amount), magnitude.isFinite else {
                    throw error("invalid percentage '\(literal.text)%'", at: literal.start)
                }
                value = .percent(literal.negative ? -magnitude : magnitude)
            } else {
                value = try numberValue(literal)
            }
        }
        if look().kind == .plus || look().kind == .arrow {
            index = save
            return .spec(try parseSpec())
        }
        return value
    }

    private func numberValue(_ literal: Literal) throws(SpecError) -> Spec.Value {
        if !literal.unit.isEmpty {
            do throws(SpecDuration.Invalid) {
                let duration = try SpecDuration.parse(
                    negative: literal.negative, amount: literal.amount, unit: literal.unit, text: literal.text
                )
                return .duration(duration)
            } catch {
                throw self.error(error.message, at: literal.start)
            }
        }
        if literal.isWhole, let integer = Int((literal.negative ? "-" : "") + literal.amount) {
            return .integer(integer)
        }
        guard let magnitude = Double(literal.amount), magnitude.isFinite else {
            throw error("number '\(literal.text)' is out of range", at: literal.start)
        }
        let number = literal.negative ? -magnitude : magnitude
        if number == number.rounded(), number.magnitude < 9.2e18 {
            return .integer(Int(number))
        }
        return .number(number)
    }

    private mutating func parseArray() throws(SpecError) -> Spec.Value {
        let open = advance()
        let unclosed = "expected ']' to close the array starting at column \(open.start)"
        if look().kind == .rightBracket {
            advance()
            return .array([])
        }
        var values: [Spec.Value] = []
        while true {
            let first = try current()
            if first.kind == .end {
                throw error(unclosed, at: first.start)
            }
            values.append(try parseValue("a value in the array"))
            let next = try current()
            switch next.kind {
            case .comma:
                advance()
                if try current().kind == .rightBracket {
                    throw error("trailing ',' before ']'", at: next.start)
                }
            case .rightBracket:
                advance()
                return .array(values)
            case .end:
                throw error(unclosed, at: next.start)
            default:
                throw error("expected ',' or ']' in the array, found \(next.quoted)", at: next.start)
            }
        }
    }

    private mutating func parseObject() throws(SpecError) -> Spec.Value {
        let open = advance()
        let unclosed = "expected '}' to close the object starting at column \(open.start)"
        if look().kind == .rightBrace {
            advance()
            return .object([])
        }
        var members: [Spec.Value.Member] = []
        var keys: Set<String> = []
        while true {
            let keyToken = try current()
            guard case .string(let key) = keyToken.kind else {
                if keyToken.kind == .end {
                    throw error(unclosed, at: keyToken.start)
                }
                throw error("expected a quoted key in the object, found \(keyToken.quoted)", at: keyToken.start)
            }
            advance()
            guard keys.insert(key).inserted else {
                throw error("duplicate key \(keyToken.text) in the object", at: keyToken.start)
            }
            let colon = try current()
            guard colon.kind == .colon else {
                throw error("expected ':' after the key \(keyToken.text), found \(colon.quoted)", at: colon.start)
            }
            advance()
            let valueToken = try current()
            if [.comma, .rightBrace, .end].contains(valueToken.kind) {
                throw error(
                    "expected a value for the key \(keyToken.text), found \(valueToken.quoted)",
                    at: valueToken.start)
            }
            members.append(Spec.Value.Member(key, try parseValue("a value for the key \(keyToken.text)")))
            let next = try current()
            switch next.kind {
            case .comma:
                advance()
                if try current().kind == .rightBrace {
                    throw error("trailing ',' before '}'", at: next.start)
                }
            case .rightBrace:
                advance()
                return .object(members)
            case .end:
                throw error(unclosed, at: next.start)
            default:
                throw error("expected ',' or '}' in the object, found \(next.quoted)", at: next.start)
            }
        }
    }
}
