/// Maps each ``StyleRole`` to colours and attributes (bold, reverse, dim).
public struct Palette: Hashable, Sendable {
    /// How one role looks.
    public struct Entry: Hashable, Sendable {
        /// Foreground colour.
        public var foreground: Colour
        /// Background colour.
        public var background: Colour
        /// Whether the role is drawn bold.
        public var bold: Bool
        /// Whether the role is drawn in reverse video (foreground and background swapped).
        public var reverse: Bool
        /// Whether the role is drawn dim (faint).
        public var dim: Bool

        /// Creates an entry.
        public init(
            foreground: Colour, background: Colour = .default, bold: Bool = false, reverse: Bool = false,
            dim: Bool = false
        ) {
            self.foreground = foreground
            self.background = background
            self.bold = bold
            self.reverse = reverse
            self.dim = dim
        }
    }

    /// Entries by role; roles without an entry use ``fallback``.
    public var entries: [StyleRole: Entry]
    /// The look of roles without an entry.
    public var fallback: Entry

    /// Creates a palette.
    public init(entries: [StyleRole: Entry], fallback: Entry = Entry(foreground: .default)) {
        self.entries = entries
        self.fallback = fallback
    }

    /// The look of `role`.
    public subscript(role: StyleRole) -> Entry {
        get { entries[role] ?? fallback }
        set { entries[role] = newValue }
    }

    /// This palette with every colour downsampled to `depth`.
    public func downsampled(to depth: ColourDepth) -> Palette {
        func convert(_ entry: Entry) -> Entry {
            Entry(
                foreground: entry.foreground.downsampled(to: depth),
                background: entry.background.downsampled(to: depth),
                bold: entry.bold, reverse: entry.reverse, dim: entry.dim
            )
        }
        return Palette(entries: entries.mapValues(convert), fallback: convert(fallback))
    }

    /// A dark theme on the terminal's default background, in RGB (downsampled as needed).
    public static let standard = Palette(entries: [
        .background: Entry(foreground: .default),
        .text: Entry(foreground: .default),
        .muted: Entry(foreground: .rgb(0x8a, 0x8a, 0x8a)),
        .border: Entry(foreground: .rgb(0x5f, 0x87, 0xaf)),
        .title: Entry(foreground: .rgb(0xff, 0xd7, 0x5f), bold: true),
        .selection: Entry(foreground: .rgb(0x00, 0x00, 0x00), background: .rgb(0x87, 0xaf, 0xd7)),
        .active: Entry(foreground: .rgb(0x5f, 0xd7, 0x5f), bold: true),
        .reverted: Entry(foreground: .rgb(0x87, 0x87, 0x87)),
        .reverting: Entry(foreground: .rgb(0xd7, 0xaf, 0x00)),
        .warning: Entry(foreground: .rgb(0xff, 0xaf, 0x00), bold: true),
        .error: Entry(foreground: .rgb(0xff, 0x5f, 0x5f), bold: true),
        .accent: Entry(foreground: .rgb(0xd7, 0x87, 0xff)),
    ])
}
