/// How a cell is drawn: its semantic role plus two attribute overrides.
public struct Style: Hashable, Sendable {
    /// The semantic role; the palette maps it to colours.
    public var role: StyleRole
    /// Draws the cell bold in addition to what the palette says.
    public var bold: Bool
    /// Swaps foreground and background.
    public var reverse: Bool

    /// Creates a style for `role`.
    public init(_ role: StyleRole, bold: Bool = false, reverse: Bool = false) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
    }

    /// The plain style of a role.
    public static func role(_ role: StyleRole) -> Style { Style(role) }

    /// The plain background style.
    public static let background = Style(.background)
    /// The plain text style.
    public static let text = Style(.text)
}
