/// What rendering needs to know of the current theme; colours are the terminal's business.
public struct ThemeInfo: Sendable, Equatable {
    /// The theme's name, shown in the help screen.
    public var name: String
    /// Whether the theme has no colours: selection then also shows a `>` mark and reverse video.
    public var isMonochrome: Bool

    /// Creates theme information.
    public init(name: String, isMonochrome: Bool = false) {
        self.name = name
        self.isMonochrome = isMonochrome
    }

    /// The built-in colour theme.
    public static let standard = ThemeInfo(name: "default")
    /// A theme without colours.
    public static let monochrome = ThemeInfo(name: "mono", isMonochrome: true)
}
