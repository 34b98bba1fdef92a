/// An error in a spec's text, pointing at the offending column.
///
/// Its `description` shows the message, then the spec, then a caret under the column:
///
/// ```
/// probability must be between 0 and 100, got 120
///   120%off
///   ^
/// ```
public struct SpecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The spec's text.
    public var text: String
    /// The 1-based column of the problem, counted in Unicode scalars (as ``SourceRange`` counts); one past the
    /// end for "unexpected end" errors.
    public var column: Int
    /// A message naming what was found and what was expected.
    public var message: String

    /// Creates an error for `text` at `column`.
    public init(text: String, column: Int, message: String) {
        self.text = text
        self.column = column
        self.message = message
    }

    /// The message, then the spec and a caret line, each indented by two spaces.
    ///
    /// The caret sits under the column's scalar as the text shows: the padding has a space for each scalar
    /// before it that takes room, a tab for a tab, and nothing for one that takes none (a combining mark, a
    /// joiner, a control).
    public var description: String {
        var padding = ""
        for scalar in text.unicodeScalars.prefix(max(0, column - 1)) {
            if scalar == "\t" {
                padding += "\t"
            } else if !SpecFormat.isZeroWidth(scalar), !SpecFormat.escapesEverywhere(scalar) {
                padding += " "
            }
        }
        return "\(message)\n  \(text)\n  \(padding)^"
    }
}
