import Yams

/// Where a YAML scalar was written, to find the file location of a position inside its decoded value.
///
/// A scalar's value is not its source text: quotes, escapes (`\t`, `\u00e9`, `''`), indentation, line folding
/// (a line break read as a space) and block headers (`|`, `>-`) stand between them. ``location(ofScalar:in:)``
/// walks the source alongside the value, so an error at the 11th scalar of a folded spec is reported where that
/// scalar was written, on whichever line.
///
/// ```swift
/// // entries:
/// //   clock.now: >-
/// //     shift(1d) +
/// //     bogus(
/// source.location(ofScalar: 18, in: "shift(1d) + bogus(")   // line 4, column 11: just after "bogus("
/// ```
public struct YAMLScalarSource: Hashable, Sendable {
    /// How the scalar was written.
    public enum Style: Hashable, Sendable {
        /// Unquoted (`clock.now: shift(+1d)`): the text is the source, so a column maps one to one.
        case plain
        /// In single quotes, where `''` stands for one quote, so columns after it shift by one.
        case singleQuoted
        /// In double quotes, with backslash escapes, so an escape's column is where its backslash is.
        case doubleQuoted
        /// A `|` block: lines kept as written, each indented in the file.
        case literal
        /// A `>` block: lines folded into one, so a column may lie on a later line of the file.
        case folded
    }

    /// The whole file's text, shared by the file's scalars.
    let text: YAMLSourceText
    /// Where the scalar's node starts: its first character, opening quote or block indicator.
    let start: FileLocation
    /// How the scalar was written.
    public let style: Style

    /// A source for a scalar node of `text` whose node starts at `start`.
    init(text: YAMLSourceText, start: FileLocation, style: Node.Scalar.Style) {
        self.text = text
        self.start = start
        switch style {
        case .singleQuoted: self.style = .singleQuoted
        case .doubleQuoted: self.style = .doubleQuoted
        case .literal: self.style = .literal
        case .folded: self.style = .folded
        default: self.style = .plain
        }
    }

    /// Compares the location and style; the text is compared only when they are equal.
    public static func == (lhs: YAMLScalarSource, rhs: YAMLScalarSource) -> Bool {
        lhs.start == rhs.start && lhs.style == rhs.style
            && (lhs.text === rhs.text || lhs.text.scalars == rhs.text.scalars)
    }

    /// Hashes the location and style (not the whole file).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(style)
    }

    /// The file location of the scalar at `offset` (0-based, in Unicode scalars) of `value`, the scalar's decoded
    /// text; `offset == value.unicodeScalars.count` is the place just past its last scalar.
    ///
    /// Returns nil when the source cannot be followed that far (the value does not come from this source).
    public func location(ofScalar offset: Int, in value: String) -> FileLocation? {
        let wanted = Array(value.unicodeScalars)
        guard offset >= 0, offset <= wanted.count, var cursor = YAMLSourceCursor(text: text, at: start) else {
            return nil
        }
        cursor.enterContent(of: style)
        for scalar in wanted[..<offset] {
            guard cursor.next(matching: scalar, style: style) != nil else { return nil }
        }
        // Just past the last scalar (on the next line when that was a line break), or where the scalar was written.
        return offset < wanted.count ? cursor.next(matching: wanted[offset], style: style) : cursor.location
    }
}
