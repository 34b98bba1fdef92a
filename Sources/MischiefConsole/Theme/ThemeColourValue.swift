/// One colour in a theme file, read from its text.
struct ThemeColourValue: Decodable, Hashable {
    var colour: Colour

    init(from decoder: any Decoder) throws {
        colour = try Self.colour(try decoder.singleValueContainer().decode(String.self), decoder: decoder)
    }

    /// The colour `text` stands for, or a decoding error located at the decoder's node.
    static func colour(_ text: String, decoder: any Decoder) throws -> Colour {
        switch Colour.parse(themeText: text) {
        case .success(let colour):
            return colour
        case .failure(var error):
            error.key = decoder.codingPath.last?.stringValue
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }
}
