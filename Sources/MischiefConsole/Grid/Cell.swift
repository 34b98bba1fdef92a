/// One terminal cell: a grapheme cluster and its style.
public struct Cell: Hashable, Sendable {
    /// One grapheme cluster; `""` marks the right half of a wide character in the cell to its left.
    public var text: String
    /// How the cell is drawn.
    public var style: Style

    /// Creates a cell.
    public init(_ text: String, style: Style) {
        self.text = text
        self.style = style
    }

    /// Whether this cell is the right half of a wide character.
    public var isContinuation: Bool { text.isEmpty }

    /// A blank cell of the given style.
    public static func blank(_ style: Style) -> Cell { Cell(" ", style: style) }
}
