extension XMLTokenizer {
    /// A place in the document: a byte index, its 1-based line and where that line starts.
    struct Mark {
        var index: Int
        var line: Int
        var lineStart: Int
    }

    /// Where the tokenizer is.
    var mark: Mark { Mark(index: index, line: line, lineStart: lineStart) }

    /// The place of byte `target`, at or after the tokenizer's position (counts the line breaks in between).
    func mark(at target: Int) -> Mark {
        var place = mark
        for i in index..<target where isLineBreak(at: i) {
            place.line += 1
            place.lineStart = i + 1
        }
        place.index = target
        return place
    }

    /// Moves to byte `end`, counting line breaks (CR LF, LF or a lone CR) on the way.
    mutating func advance(to end: Int) {
        for i in index..<end where isLineBreak(at: i) {
            line += 1
            lineStart = i + 1
        }
        index = end
    }

    private func isLineBreak(at i: Int) -> Bool {
        bytes[i] == 0x0A || (bytes[i] == 0x0D && byte(at: i + 1) != 0x0A)
    }

    /// An error at `place`; the column counts characters, not bytes.
    func error(_ message: String, at place: Mark) -> XMLSyntaxError {
        let end = min(place.index, bytes.count)
        let column = 1 + bytes[min(place.lineStart, end)..<end].count { $0 & 0xC0 != 0x80 }
        return XMLSyntaxError(line: place.line, column: column, message: message)
    }

    func byte(at i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }

    func matches(_ literal: String, at i: Int) -> Bool {
        let expected = literal.utf8
        guard i + expected.count <= bytes.count else { return false }
        return bytes[i..<(i + expected.count)].elementsEqual(expected)
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Letters, '_', ':' and any non-ASCII character may start a name.
    func isNameStart(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// Reads a name at the tokenizer's position, or returns nil (not moving) when none starts there.
    mutating func scanName() -> String? {
        guard isNameStart(byte(at: index)) else { return nil }
        let end = bytes[index...].firstIndex { !isNameByte($0) } ?? bytes.count
        let name = String(decoding: bytes[index..<end], as: UTF8.self)
        advance(to: end)
        return name
    }

    /// Skips white space; returns whether there was any.
    @discardableResult
    mutating func skipSpace() -> Bool {
        let end = bytes[index...].firstIndex { !Self.isSpace($0) } ?? bytes.count
        defer { advance(to: end) }
        return end > index
    }

    /// Moves past the first `terminator` at or after `start`, or fails: "`unclosed` is not closed".
    mutating func skip(
        past terminator: [UInt8], from start: Int, unclosed: String, at opening: Mark
    ) throws(XMLSyntaxError) {
        var i = start
        while i + terminator.count <= bytes.count {
            if bytes[i] == terminator[0], bytes[i..<(i + terminator.count)].elementsEqual(terminator) {
                advance(to: i + terminator.count)
                return
            }
            i += 1
        }
        throw error("\(unclosed) is not closed", at: opening)
    }

    /// The text of `range` with references decoded; in attribute values, tabs and line breaks become spaces.
    func decode(_ range: Range<Int>, attribute: Bool) throws(XMLSyntaxError) -> String {
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: "&") || (attribute && $0 < 0x20) }
        guard bytes[range].contains(where: special) else { return String(decoding: bytes[range], as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let byte = bytes[i]
            if byte == UInt8(ascii: "&") {
                let window = (i + 1)..<min(range.upperBound, i + 16)
                guard let semicolon = bytes[window].firstIndex(of: UInt8(ascii: ";")),
                    let scalar = Self.reference(bytes[(i + 1)..<semicolon])
                else { throw error("a bad entity reference (escape '&' as '&amp;')", at: mark(at: i)) }
                decoded.append(contentsOf: String(Character(scalar)).utf8)
                i = semicolon + 1
            } else if attribute, byte < 0x20 {
                // CR LF is one line break, so one space.
                if !(byte == 0x0D && self.byte(at: i + 1) == 0x0A) { decoded.append(0x20) }
                i += 1
            } else {
                decoded.append(byte)
                i += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// `lt`, `gt`, `amp`, `apos`, `quot`, `#NNN` or `#xHHH` as the character it stands for; nil for anything else.
    static func reference(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "apos": return "'"
        case "quot": return "\""
        default: break
        }
        guard name.first == UInt8(ascii: "#") else { return nil }
        let hex = name.dropFirst().first == UInt8(ascii: "x")
        let digits = name.dropFirst(hex ? 2 : 1)
        let isDigit: (UInt8) -> Bool = { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (hex && (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20))
        }
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy(isDigit),
            let value = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10),
            isCharacter(value)
        else { return nil }
        return Unicode.Scalar(value)
    }

    /// Whether `value` is a character XML allows (its `Char` production).
    static func isCharacter(_ value: UInt32) -> Bool {
        value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }
}
