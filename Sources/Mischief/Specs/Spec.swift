/// A behaviour typed as text: terms combined with `+` (composition) and `->` (fallback).
///
/// A term is `[p%[@key]][n*]action[(args)]`: fire with probability `p` percent, only on the first `n` calls that
/// reach it, then fall through. `p%` draws for each call; `p%@key` draws once for each ``ChaosKey`` (a user, a
/// request), so `10%@key offline` takes the same tenth of users offline on every call, and none of the calls made
/// without a key. `a + b` applies both terms to one call, left to right; `a -> b` tries `b` when `a` did not
/// fire. `+` binds tighter than `->`, so `a + b -> c` means `(a + b) -> c`. Parentheses only delimit arguments.
///
/// ```swift
/// let spec = try Spec(parsing: "50% 3* shift(+1d) -> off")
/// spec.description  // "50%3*shift(1d) -> off"
/// ```
public struct Spec: Hashable, Sendable, CustomStringConvertible {
    /// The fallback chain `a -> b -> c`, tried in order; never empty for parsed specs.
    public var alternatives: [Composition]

    /// Creates a spec from its fallback chain.
    public init(alternatives: [Composition]) {
        self.alternatives = alternatives
    }

    /// Creates a spec of a single term.
    public init(_ term: Term) {
        self.alternatives = [Composition(terms: [term])]
    }

    /// The longest spec text accepted, in bytes of UTF-8: 64 KiB. Longer text is refused before it is read.
    public static let maximumLength = 65_536

    /// The most terms a `+` composition may have. Each term wraps the rest of the composition, so a behaviour
    /// nests as deeply as its longest composition; a fallback chain (`->`) or a `seq` may be longer.
    public static let maximumCompositionTerms = 64

    /// Parses a spec's text.
    ///
    /// Parsing takes time in proportion to the text, which is at most ``maximumLength`` bytes.
    ///
    /// - Throws: a `SpecError` naming the first problem and its column.
    public init(parsing text: String) throws(SpecError) {
        try Self.checkLength(text)
        var parser = SpecParser(text: text)
        self = try parser.parseWholeSpec()
    }

    /// Refuses text longer than ``maximumLength``, pointing at the first scalar past it.
    private static func checkLength(_ text: String) throws(SpecError) {
        guard text.utf8.count > maximumLength else { return }
        var bytes = 0
        var column = 1
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > maximumLength { break }
            column += 1
        }
        throw SpecError(
            text: text, column: column,
            message: "a spec is at most \(maximumLength) bytes long (64 KiB); this one has \(text.utf8.count)")
    }

    /// The canonical text: `a + b -> c`, with terms printed as ``Term/description``.
    public var description: String {
        alternatives.map(\.description).joined(separator: " -> ")
    }

    /// True when the spec is a single bare action such as `off`, which would read back as a word, not a spec.
    var isBareAction: Bool {
        guard alternatives.count == 1, alternatives[0].terms.count == 1 else {
            return false
        }
        let term = alternatives[0].terms[0]
        return term.probability == nil && term.count == nil && term.arguments.isEmpty
    }

    /// Terms applied together to one call: `a + b + c`.
    public struct Composition: Hashable, Sendable, CustomStringConvertible {
        /// The terms, applied left to right; never empty for parsed specs.
        public var terms: [Term]

        /// Creates a composition of terms.
        public init(terms: [Term]) {
            self.terms = terms
        }

        /// The terms' canonical text joined with ` + `.
        public var description: String {
            terms.map(\.description).joined(separator: " + ")
        }
    }
}
