/// A range of columns in a spec's text.
///
/// Columns are 1-based and counted in Unicode scalars (a combining mark is a column of its own, as in the YAML
/// files' locations); `end` is exclusive, so a one-character token at the start of the text has `start == 1` and
/// `end == 2`.
public struct SourceRange: Hashable, Sendable {
    /// The first column of the range (1-based).
    public var start: Int
    /// The column just past the range (exclusive).
    public var end: Int

    /// Creates a range from its first column and the column just past it.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// A placeholder range for terms built in code rather than parsed.
    public static let unknown = SourceRange(start: 1, end: 1)
}
