/// A walk over a YAML file's scalars that keeps the line and column, reading one scalar's source text.
///
/// Lines and columns count as Yams' marks do: a line break is `\n`, `\r\n`, `\r`, U+0085, U+2028 or U+2029;
/// columns count Unicode scalars from 1.
struct YAMLSourceCursor {
    /// The file's scalars.
    private let scalars: [Unicode.Scalar]
    /// The file name for locations.
    private let file: String
    /// The index of the next scalar.
    private var index = 0
    private var line = 1
    private var column = 1
    /// The indentation of a block scalar's content (`|`, `>`), once known.
    private var indent = 0
    /// Whether the cursor is at the start of a continuation line, before its indentation.
    private var atLineStart = false

    /// A cursor at `start` in `text`, or nil when `text` has no such place.
    init?(text: YAMLSourceText, at start: FileLocation) {
        guard let index = text.index(line: start.line, column: start.column) else { return nil }
        scalars = text.scalars
        file = start.file
        self.index = index
        line = start.line
        column = start.column
    }

    /// Where the cursor is.
    var location: FileLocation { FileLocation(file: file, line: line, column: column) }

    /// Moves from the node's start to its content: past an opening quote, or past a block header line.
    mutating func enterContent(of style: YAMLScalarSource.Style) {
        switch style {
        case .plain:
            break
        case .singleQuoted, .doubleQuoted:
            advance()
        case .literal, .folded:
            while index < scalars.count, breakLength(at: index) == 0 { advance() }
            advance()
            indent = firstContentIndent()
            atLineStart = true
        }
    }

    /// Moves to just past the next source scalar that reads as `wanted`, skipping what the style drops
    /// (indentation, escapes of other scalars, folded breaks), and returns where it was written; nil at the end
    /// of the file or of a quoted scalar.
    mutating func next(matching wanted: Unicode.Scalar, style: YAMLScalarSource.Style) -> FileLocation? {
        while index < scalars.count {
            if atLineStart {
                atLineStart = false
                skipIndentation(block: style == .literal || style == .folded)
                continue
            }
            let here = location
            let scalar = scalars[index]
            if breakLength(at: index) > 0 {
                advance()
                atLineStart = true
                if wanted == "\n" || wanted == " " { return here }
                continue
            }
            switch style {
            case .doubleQuoted where scalar == "\"", .singleQuoted where scalar == "'" && peek(1) != "'":
                return nil
            case .singleQuoted where scalar == "'":
                advance()
            case .doubleQuoted where scalar == "\\":
                advance()
                if breakLength(at: index) > 0 {
                    advance()
                    atLineStart = true
                    continue
                }
                let (value, length) = escape()
                for _ in 0..<length { advance() }
                if value == wanted { return here }
                continue
            default:
                break
            }
            advance()
            if scalar == wanted { return here }
        }
        return nil
    }

    // MARK: Reading

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    /// The length of the line break at `position` (2 for `\r\n`), or 0 when there is none.
    private func breakLength(at position: Int) -> Int {
        guard position < scalars.count else { return 0 }
        switch scalars[position] {
        case "\r": return position + 1 < scalars.count && scalars[position + 1] == "\n" ? 2 : 1
        case "\n", "\u{85}", "\u{2028}", "\u{2029}": return 1
        default: return 0
        }
    }

    /// Moves past one scalar, or one line break.
    private mutating func advance() {
        guard index < scalars.count else { return }
        let length = breakLength(at: index)
        if length > 0 {
            index += length
            line += 1
            column = 1
        } else {
            index += 1
            column += 1
        }
    }

    /// Skips a block scalar's indentation, or a flow scalar's leading white space on a continuation line.
    private mutating func skipIndentation(block: Bool) {
        var skipped = 0
        while let next = peek(0), block ? next == " " && skipped < indent : next == " " || next == "\t" {
            advance()
            skipped += 1
        }
    }

    /// The indentation of a block scalar's first line that holds more than spaces.
    private func firstContentIndent() -> Int {
        var position = index
        var spaces = 0
        while position < scalars.count {
            if scalars[position] == " " {
                spaces += 1
                position += 1
            } else if breakLength(at: position) > 0 {
                spaces = 0
                position += breakLength(at: position)
            } else {
                break
            }
        }
        return spaces
    }

    /// The escape after a backslash (the cursor is past the backslash): the scalar it stands for (nil when it is
    /// not a valid escape) and how many scalars it takes.
    private func escape() -> (Unicode.Scalar?, Int) {
        guard let letter = peek(0) else { return (nil, 0) }
        let simple: [Unicode.Scalar: UInt32] = [
            "0": 0, "a": 7, "b": 8, "t": 9, "\t": 9, "n": 10, "v": 11, "f": 12, "r": 13, "e": 0x1B, " ": 0x20,
            "\"": 0x22, "/": 0x2F, "\\": 0x5C, "N": 0x85, "_": 0xA0, "L": 0x2028, "P": 0x2029,
        ]
        if let value = simple[letter] { return (Unicode.Scalar(value), 1) }
        let digits: Int
        switch letter {
        case "x": digits = 2
        case "u": digits = 4
        case "U": digits = 8
        default: return (nil, 1)
        }
        var value: UInt32 = 0
        for offset in 1...digits {
            guard let digit = peek(offset), digit.isASCII, let number = Character(digit).hexDigitValue else {
                return (nil, offset)
            }
            value = value &* 16 &+ UInt32(number)
        }
        return (Unicode.Scalar(value), digits + 1)
    }
}
