/// A YAML text's lines as YAML (and Yams' marks) count them.
///
/// A line ends at `\n`, `\r\n`, a lone `\r`, U+0085, U+2028 or U+2029; columns count Unicode scalars from 1.
enum YAMLLines {
    /// The scalars of each line, without their line breaks.
    static func lines(of text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = [[]]
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if isBreak(scalar) {
                if !(scalar == "\n" && previous == "\r") { lines.append([]) }
            } else {
                lines[lines.count - 1].append(scalar)
            }
            previous = scalar
        }
        return lines
    }

    /// The 1-based line and column of the character at `offset` (Yams reports a reader error's place in
    /// `Character`s); the end of the text for an offset past it.
    static func position(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for character in text.prefix(max(0, offset)) {
            if character == "\r\n" || character.unicodeScalars.count == 1 && isBreak(character.unicodeScalars.first!) {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return (line, column)
    }

    /// The length in scalars of each line.
    static func lengths(of text: String) -> [Int] {
        lines(of: text).map(\.count)
    }

    /// A place moved into the text: libyaml puts the end of a text without a final line break on a line of its
    /// own, one past the last; such a place becomes the end of the last line.
    static func clamp(line: Int, column: Int, lengths: [Int]) -> (line: Int, column: Int) {
        guard !lengths.isEmpty else { return (1, 1) }
        guard line <= lengths.count else { return (lengths.count, lengths[lengths.count - 1] + 1) }
        let line = max(line, 1)
        return (line, min(max(column, 1), lengths[line - 1] + 1))
    }

    /// Whether a scalar breaks a line in YAML.
    static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar)
    }
}
