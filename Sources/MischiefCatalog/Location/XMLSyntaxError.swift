/// Why ``XMLTokenizer`` stopped: what it found, and the 1-based line and column (in characters) where.
struct XMLSyntaxError: Error, Hashable {
    var line: Int
    var column: Int
    var message: String
}
