/// Joins transformed segments so that the result splits back into exactly the same placeholders.
///
/// Transforms only rewrite text, but rewritten text can run into a stray `%`, `{`, `<` or `&` and turn it
/// into a new placeholder: `"100%"` expanded to `"100% one two"` would read as the specifier `% o`, and
/// `"{ name }"` with its spaces removed as `{name}`. When that happens, a U+2060 WORD JOINER (invisible,
/// zero width, no line break) is put right after each such stray character, which no placeholder can
/// contain. Strings that need no help (nearly all) are joined unchanged.
///
/// ```swift
/// PlaceholderSeal.join([.text("100% one two")])   // "100%\u{2060} one two"
/// ```
enum PlaceholderSeal {
    /// The invisible character put after a stray placeholder start.
    static let wordJoiner: Character = "\u{2060}"

    /// `segments` joined, with stray placeholder starts in text neutralised where needed.
    static func join(_ segments: [FormatSegments.Segment]) -> String {
        let expected = segments.compactMap { $0.isPlaceholder ? $0.string : nil }
        let plain = FormatSegments.join(segments)
        if FormatSegments.placeholders(in: plain) == expected { return plain }

        var characters: [Character] = []
        var isText: [Bool] = []
        for segment in segments {
            for character in segment.string {
                characters.append(character)
                isText.append(!segment.isPlaceholder)
            }
        }
        var sealed = ""
        for index in characters.indices {
            sealed.append(characters[index])
            if isText[index], FormatSegments.isTrigger(characters[index]),
                FormatSegments.tokenLength(in: characters, at: index) != nil
            {
                sealed.append(wordJoiner)
            }
        }
        if FormatSegments.placeholders(in: sealed) == expected { return sealed }

        // Characters merged across segment boundaries (a combining mark after a placeholder): also put a
        // joiner after every stray start and between every two segments.
        var separated = ""
        for (position, segment) in segments.enumerated() {
            if position > 0 { separated.append(wordJoiner) }
            switch segment {
            case .placeholder(let string):
                separated += string
            case .text(let string):
                for character in string {
                    separated.append(character)
                    if FormatSegments.isTrigger(character) { separated.append(wordJoiner) }
                }
            }
        }
        return separated
    }
}
