extension Guard.Condition {
    /// Reads a condition written as text:
    ///
    /// - `errors(SEAM) > P% over DURATION` — more than P percent of the calls threw over the window; add `min N`
    ///   for the fewest calls in the window before it can trip (5 by default);
    /// - `no-success(SEAM) for DURATION` — no call returned without throwing for that long;
    /// - `check(SEAM)` or `check(SEAM) fails N times` — the health-check seam returned false (N times in a row).
    ///
    /// Durations are spec durations (`10s`, `1m`), more than zero and at most a day.
    ///
    /// - Throws: ``SpecError`` with the column of the problem and what was expected there.
    public init(parsing text: String) throws(SpecError) {
        var reader = GuardReader(text: text)
        reader.skipSpaces()
        let keywordColumn = reader.column
        let keyword = reader.word()
        switch keyword {
        case "errors":
            let seam = try reader.seamArgument()
            try reader.expect(">")
            let fraction = try reader.percent()
            try reader.expectWord("over")
            let window = try reader.duration()
            var minimum = Self.defaultMinimumCalls
            if reader.peekWord() == "min" {
                _ = reader.word()
                minimum = try reader.integer(in: 1...1_000_000, what: "a number of calls")
            }
            try reader.end()
            self = .errorRate(seam: seam, above: fraction, over: window, minimumCalls: minimum)
        case "no-success":
            let seam = try reader.seamArgument()
            try reader.expectWord("for")
            let duration = try reader.duration()
            try reader.end()
            self = .noSuccess(seam: seam, for: duration)
        case "check":
            let seam = try reader.seamArgument()
            var failures = 1
            if reader.peekWord() == "fails" {
                _ = reader.word()
                failures = try reader.integer(in: 1...1000, what: "how many failed checks in a row")
                reader.skipSpaces()
                let column = reader.column
                let unit = reader.word()
                guard unit == "times" || unit == "time" else {
                    throw reader.error(at: column, "expected 'times' after the count")
                }
            }
            try reader.end()
            self = .check(seam: seam, failures: failures)
        default:
            let found = keyword.isEmpty ? reader.found : "'\(keyword)'"
            throw reader.error(
                at: keywordColumn,
                "expected errors(SEAM) > P% over DURATION, no-success(SEAM) for DURATION or check(SEAM), not \(found)")
        }
    }
}

/// Reads a guard condition left to right, counting columns in Unicode scalars as ``SpecError`` does.
struct GuardReader {
    let text: String
    let scalars: [Unicode.Scalar]
    var index = 0

    init(text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    /// The 1-based column of the next scalar.
    var column: Int { index + 1 }

    /// What comes next, for messages: `'>'`, or `the end`.
    var found: String {
        guard index < scalars.count else { return "the end" }
        var word = ""
        var at = index
        while at < scalars.count, !scalars[at].properties.isWhitespace, word.unicodeScalars.count < 20 {
            word.unicodeScalars.append(scalars[at])
            at += 1
        }
        return "'\(word)'"
    }

    func error(at column: Int, _ message: String) -> SpecError {
        SpecError(text: text, column: column, message: message)
    }

    mutating func skipSpaces() {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
    }

    /// Letters and `-`, after spaces; empty when none.
    mutating func word() -> String {
        skipSpaces()
        var word = ""
        while index < scalars.count, scalars[index].properties.isAlphabetic || scalars[index] == "-" {
            word.unicodeScalars.append(scalars[index])
            index += 1
        }
        return word
    }

    mutating func peekWord() -> String {
        var copy = self
        return copy.word()
    }

    mutating func expect(_ symbol: Unicode.Scalar) throws(SpecError) {
        skipSpaces()
        guard index < scalars.count, scalars[index] == symbol else {
            throw error(at: column, "expected '\(symbol)', found \(found)")
        }
        index += 1
    }

    mutating func expectWord(_ expected: String) throws(SpecError) {
        skipSpaces()
        let start = column
        let found = self.found
        guard word() == expected else { throw error(at: start, "expected '\(expected)', found \(found)") }
    }

    /// `(seam.id)`.
    mutating func seamArgument() throws(SpecError) -> SeamID {
        try expect("(")
        skipSpaces()
        let start = column
        var raw = ""
        while index < scalars.count, scalars[index] != ")", !scalars[index].properties.isWhitespace {
            raw.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard !raw.isEmpty else { throw error(at: start, "expected a seam id such as net.request, found \(found)") }
        let seam: SeamID
        do throws(MischiefError) {
            seam = try SeamID(raw)
        } catch {
            throw self.error(at: start, "'\(raw)' is not a seam id: \(error.description)")
        }
        try expect(")")
        return seam
    }

    /// Digits with an optional fraction, as text; empty when none.
    private mutating func number() -> String {
        skipSpaces()
        var digits = ""
        while index < scalars.count, scalars[index].properties.numericType != nil || scalars[index] == "." {
            guard scalars[index].isASCII else { break }
            digits.unicodeScalars.append(scalars[index])
            index += 1
        }
        return digits
    }

    /// `50%` as 0.5; between 0% and 100% (not 100%: more than all calls never threw).
    mutating func percent() throws(SpecError) -> Double {
        skipSpaces()
        let start = column
        let found = self.found
        let digits = number()
        guard let value = Double(digits), value.isFinite, digits.first != "." else {
            throw error(at: start, "expected a percentage such as 50%, found \(found)")
        }
        guard index < scalars.count, scalars[index] == "%" else {
            throw error(at: column, "expected '%' after \(digits), found \(self.found)")
        }
        index += 1
        guard value >= 0, value < 100 else {
            throw error(at: start, "a percentage of errors must be at least 0% and below 100%, not \(digits)%")
        }
        return value / 100
    }

    /// A spec duration, more than zero and at most a day.
    mutating func duration() throws(SpecError) -> Duration {
        skipSpaces()
        let start = column
        var raw = ""
        while index < scalars.count, !scalars[index].properties.isWhitespace {
            raw.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard !raw.isEmpty else { throw error(at: start, "expected a duration such as 10s or 1m, found the end") }
        let parsed: SpecDuration
        do throws(SpecError) {
            parsed = try SpecDuration(parsing: raw)
        } catch {
            throw self.error(at: start, error.message)
        }
        guard parsed.duration > .zero, parsed.duration <= Registry.longestTTL else {
            throw error(at: start, "a guard's duration must be more than 0s and at most 1d, not \(raw)")
        }
        return parsed.duration
    }

    mutating func integer(in range: ClosedRange<Int>, what: String) throws(SpecError) -> Int {
        skipSpaces()
        let start = column
        let found = self.found
        let digits = number()
        guard let value = Int(digits) else { throw error(at: start, "expected \(what), found \(found)") }
        guard range.contains(value) else {
            throw error(at: start, "\(what) must be \(range.lowerBound)–\(range.upperBound), not \(value)")
        }
        return value
    }

    mutating func end() throws(SpecError) {
        skipSpaces()
        guard index == scalars.count else { throw error(at: column, "expected the end, found \(found)") }
    }
}
