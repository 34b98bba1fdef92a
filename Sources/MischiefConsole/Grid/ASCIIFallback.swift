/// ASCII stand-ins for the console's own symbols (borders, marks, sparkline bars, arrows), for terminals without
/// a UTF-8 locale: there a box drawn in `─│┌┐` would show as `?` or nothing, so the terminal draws `-|++` instead.
///
/// Text from a target has no stand-in: what the terminal cannot print stays a replacement character. The marks the
/// console draws for invisible characters in it (``InvisibleMarks``: `⟨RLO⟩`) are the console's own: `<RLO>`.
/// ```swift
/// #expect(ASCIIFallback.character(for: "┌") == "+")
/// ```
public enum ASCIIFallback {
    /// The ASCII character drawn for `scalar` when the terminal cannot print it, or nil when it has none.
    public static func character(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar {
        case "─", "━", "═", "—", "–", "‐": "-"
        case "│", "┃", "║": "|"
        case "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼", "╔", "╗", "╚", "╝": "+"
        case "●", "•", "✕", "×": "*"
        case "○": "o"
        case "◐": "%"
        case "·": "."
        case "…": "~"
        case "↑", "▲": "^"
        case "↓", "▼": "v"
        case "←", "‹", "⟨": "<"
        case "→", "›", "▶", "▸", "⟩": ">"
        case "␣": "_"
        case "⏎": "<"
        case "“", "”": "\""
        case "≥": ">"
        default: sparkline(scalar)
        }
    }

    /// A sparkline bar `▁`…`█` as the ASCII levels ``Format`` uses for monochrome themes: `.:-=+*#%`.
    private static func sparkline(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        guard (0x2581...0x2588).contains(scalar.value) else { return nil }
        return Array(".:-=+*#%".unicodeScalars)[Int(scalar.value - 0x2581)]
    }
}
