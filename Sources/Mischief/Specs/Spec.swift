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

    /// Parses a spec's text.
    ///
    /// - Throws: a `SpecError` naming the first problem and its column.
    public init(parsing text: String) throws(SpecError) {
        var parser = SpecParser(text: text)
        self = try parser.parseWholeSpec()
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
