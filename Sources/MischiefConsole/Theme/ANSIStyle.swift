/// ANSI (SGR) escape sequences that draw a palette entry on a terminal, for output outside the console.
///
/// Colours are downsampled to the depth first: 24-bit as `38;2;r;g;b`, the 256 palette as `38;5;n`, the
/// 16 named colours as `30`–`37` / `90`–`97` (backgrounds `48;…`, `40`–`47`, `100`–`107`); bold is `1`,
/// dim `2`, reverse `7`.
public enum ANSIStyle: Sendable {
    /// Ends every style: `ESC[0m`.
    public static let reset = "\u{1B}[0m"

    /// The escape sequence that starts drawing `entry` at `depth`, or "" when the entry changes nothing.
    public static func escape(for entry: Palette.Entry, depth: ColourDepth) -> String {
        let codes = parameters(for: entry, depth: depth)
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// `text` drawn as `entry` at `depth`, followed by a reset (just `text` when the entry changes nothing).
    public static func styled(_ text: String, _ entry: Palette.Entry, depth: ColourDepth) -> String {
        let start = escape(for: entry, depth: depth)
        return start.isEmpty ? text : start + text + reset
    }

    /// The SGR parameters for `entry` at `depth`, attributes first.
    public static func parameters(for entry: Palette.Entry, depth: ColourDepth) -> [String] {
        var codes: [String] = []
        if entry.bold { codes.append("1") }
        if entry.dim { codes.append("2") }
        if entry.reverse { codes.append("7") }
        codes += colourParameters(entry.foreground.downsampled(to: depth), background: false)
        codes += colourParameters(entry.background.downsampled(to: depth), background: true)
        return codes
    }

    /// The SGR parameters that set one colour (none for the terminal's default).
    private static func colourParameters(_ colour: Colour, background: Bool) -> [String] {
        let extended = background ? "48" : "38"
        switch colour {
        case .default:
            return []
        case .rgb(let r, let g, let b):
            return [extended, "2", String(r), String(g), String(b)]
        case .indexed(let index):
            return [extended, "5", String(index)]
        case .named(let name):
            let base = (name.rawValue < 8 ? 30 : 90) + (background ? 10 : 0)
            return [String(base + Int(name.rawValue % 8))]
        }
    }
}
