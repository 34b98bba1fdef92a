import MischiefConsole

/// How each role is drawn by ncurses: colour pair, pair colours and attributes; pure, so it is testable.
public struct CursesColourPlan: Hashable, Sendable {
    /// How one role is drawn.
    public struct Look: Hashable, Sendable {
        /// The colour pair (0 = the terminal's default colours, used in monochrome).
        public var pair: Int32
        /// The pair's foreground colour number (-1 = default).
        public var foreground: Int32
        /// The pair's background colour number (-1 = default).
        public var background: Int32
        /// Whether the role is bold.
        public var bold: Bool
        /// Whether the role is reversed.
        public var reverse: Bool
        /// Whether the role is dim.
        public var dim: Bool
    }

    /// The depth colours were mapped to.
    public let depth: ColourDepth
    /// Looks by role (every role is present).
    public let looks: [StyleRole: Look]

    /// Plans the looks of `palette` at `depth`.
    ///
    /// - Parameters:
    ///   - directColour: the terminal takes 24-bit colour numbers (`0xRRGGBB`, terminfo "direct" types).
    ///   - defaultColours: `use_default_colors` succeeded, so -1 means the terminal's default colour.
    public init(palette: Palette, depth: ColourDepth, directColour: Bool, defaultColours: Bool) {
        self.depth = depth
        var looks: [StyleRole: Look] = [:]
        for (index, role) in StyleRole.allCases.enumerated() {
            let entry = palette[role]
            if depth == .monochrome {
                looks[role] = Look(
                    pair: 0, foreground: -1, background: -1,
                    bold: entry.bold || [.title, .active, .warning, .error].contains(role),
                    reverse: entry.reverse || role == .selection,
                    dim: entry.dim || role == .muted || role == .reverted
                )
            } else {
                looks[role] = Look(
                    pair: Int32(index + 1),
                    foreground: Self.number(entry.foreground, depth, directColour, defaultColours, background: false),
                    background: Self.number(entry.background, depth, directColour, defaultColours, background: true),
                    bold: entry.bold, reverse: entry.reverse, dim: entry.dim
                )
            }
        }
        self.looks = looks
    }

    /// The ncurses colour number of `colour` at `depth`.
    static func number(
        _ colour: Colour, _ depth: ColourDepth, _ directColour: Bool, _ defaultColours: Bool, background: Bool
    ) -> Int32 {
        let direct = directColour && depth == .trueColour
        switch colour.downsampled(to: depth) {
        case .default:
            return defaultColours ? -1 : (background ? 0 : 7)
        case .named(let name):
            if direct && name.rawValue >= 8 {
                let (r, g, b) = Colour.rgbOfIndex(name.rawValue)
                return Int32(r << 16 | g << 8 | b)
            }
            return Int32(name.rawValue)
        case .indexed(let index):
            if direct && index >= 8 {
                let (r, g, b) = Colour.rgbOfIndex(index)
                return Int32(r << 16 | g << 8 | b)
            }
            return Int32(index)
        case .rgb(let r, let g, let b):
            if direct {
                return Int32(r) << 16 | Int32(g) << 8 | Int32(b)
            }
            return Int32(Colour.nearest256(r, g, b))
        }
    }

    /// The depth the terminal claims: `COLORTERM=truecolor|24bit` → true colour, else from the colour count.
    public static func detectedDepth(hasColours: Bool, colours: Int, colorTerm: String?) -> ColourDepth {
        guard hasColours, colours >= 8 else { return .monochrome }
        if let colorTerm, ["truecolor", "24bit"].contains(colorTerm.lowercased()) {
            return .trueColour
        }
        return colours >= 256 ? .colours256 : .colours8
    }

    /// The deepest depth ncurses can actually emit for a terminal with `colours` colours.
    ///
    /// True colour needs a terminfo "direct" type (`COLORS` ≥ 2²⁴); otherwise RGB is mapped to the 256 palette.
    public static func capability(hasColours: Bool, colours: Int) -> ColourDepth {
        guard hasColours, colours >= 8 else { return .monochrome }
        if colours >= 1 << 24 {
            return .trueColour
        }
        return colours >= 256 ? .colours256 : .colours8
    }

    /// The shallower of two depths.
    public static func shallower(_ a: ColourDepth, _ b: ColourDepth) -> ColourDepth {
        let order: [ColourDepth] = [.monochrome, .colours8, .colours256, .trueColour]
        return order[min(order.firstIndex(of: a)!, order.firstIndex(of: b)!)]
    }
}
