/// Word wrapping by display width, for text shown whole (profile descriptions, an event's message).
enum TextWrap {
    /// `text` in lines of at most `width` columns: each of its lines broken at spaces, a word wider than the
    /// width broken where it reaches it. Never returns an empty array.
    static func lines(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var result: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            result += wrap(paragraph, width: width)
        }
        return result.isEmpty ? [""] : result
    }

    /// One line of text wrapped; its indentation (leading spaces) starts its first line.
    private static func wrap(_ paragraph: Substring, width: Int) -> [String] {
        var lines: [String] = []
        let indent = paragraph.prefix { $0 == " " }
        var line = String(indent.prefix(width - 1))
        var used = line.count
        for word in paragraph.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = DisplayWidth.of(String(word))
            if used > 0, used == line.count, line.allSatisfy({ $0 == " " }), used + wordWidth <= width {
                line += word
                used += wordWidth
                continue
            }
            if used > 0, used + 1 + wordWidth <= width {
                line += " " + word
                used += 1 + wordWidth
                continue
            }
            if used > 0 || !line.isEmpty {
                lines.append(line)
                line = ""
                used = 0
            }
            // A word wider than the line is cut into pieces that fit.
            for character in word {
                let characterWidth = DisplayWidth.of(character)
                if used + characterWidth > width, used > 0 {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                line.append(character)
                used += characterWidth
            }
        }
        lines.append(line)
        return lines
    }
}
