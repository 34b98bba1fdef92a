import Foundation

/// How a theme file writes one role: a colour alone (the foreground), or a mapping.
///
/// ```yaml
/// muted: "#8a8a8a"
/// title: { fg: "#ffd75f", bold: true }
/// selection: { fg: black, bg: 110 }
/// ```
/// In the mapping, `fg` defaults to the terminal's colour, `bold`, `reverse` and `dim` to false, and a missing
/// `bg` is filled in later with the `background` role's background.
struct ThemeRoleDocument: Decodable, Hashable {
    var foreground: Colour
    var background: Colour?
    var bold: Bool
    var reverse: Bool
    var dim: Bool

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case fg, bg, bold, reverse, dim
    }

    init(foreground: Colour, background: Colour? = nil, bold: Bool = false, reverse: Bool = false, dim: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
    }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self.init(foreground: try ThemeColourValue.colour(text, decoder: decoder))
            return
        }
        let container: KeyedDecodingContainer<CodingKeys>
        do {
            container = try decoder.container(keyedBy: CodingKeys.self)
        } catch let DecodingError.typeMismatch(_, context) {
            let role = decoder.codingPath.last.map { " for '\($0.stringValue)'" } ?? ""
            let found = context.debugDescription.range(of: ", found ").map {
                context.debugDescription[$0.lowerBound...]
            }
            let message =
                "expected a colour or a mapping with "
                + CodingKeys.allCases.map { "'\($0.stringValue)'" }.joined(separator: ", ") + role + (found ?? "")
            throw DecodingError.typeMismatch(
                Self.self, .init(codingPath: decoder.codingPath, debugDescription: message))
        }
        self.init(
            foreground: try container.decodeIfPresent(ThemeColourValue.self, forKey: .fg)?.colour ?? .default,
            background: try container.decodeIfPresent(ThemeColourValue.self, forKey: .bg)?.colour,
            bold: try container.decodeIfPresent(Bool.self, forKey: .bold) ?? false,
            reverse: try container.decodeIfPresent(Bool.self, forKey: .reverse) ?? false,
            dim: try container.decodeIfPresent(Bool.self, forKey: .dim) ?? false
        )
    }

    /// The palette entry, with `background` standing in for a missing `bg`.
    func entry(background inherited: Colour) -> Palette.Entry {
        Palette.Entry(
            foreground: foreground, background: background ?? inherited, bold: bold, reverse: reverse, dim: dim)
    }
}
