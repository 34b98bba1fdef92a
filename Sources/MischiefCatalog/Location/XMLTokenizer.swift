/// A strict, linear-time reader for the part of XML that GPX files use, so no file can reach a general XML parser.
///
/// It reads elements, attributes in either quote style, character data with the five predefined entities and
/// numeric character references, and CDATA sections; it skips comments, processing instructions and the XML
/// declaration, and refuses a DOCTYPE (so no entity or external file is ever read). The bytes are checked to be
/// UTF-8 made of XML characters before anything else; nesting is limited to ``maxDepth``.
///
/// ```swift
/// var tokenizer = try XMLTokenizer(Array("<gpx><trk/></gpx>".utf8))
/// while let token = try tokenizer.next() { print(token) }   // start gpx, start trk, end trk, end gpx
/// ```
struct XMLTokenizer {
    /// One piece of the document.
    enum Token: Equatable {
        /// `<name attributes…>` (or `<name/>`, then followed by its `.end`), on `line`.
        case start(name: String, attributes: [Attribute], line: Int)
        /// `</name>`, or the end of an empty-element tag, on `line`.
        case end(name: String, line: Int)
        /// Character data inside the root element, references decoded; CDATA sections come as they are.
        case text(String)
    }

    /// An attribute as written: its qualified name and its decoded, normalised value.
    struct Attribute: Equatable {
        var name: String
        var value: String
    }

    /// The deepest nesting accepted.
    static let maxDepth = 256

    let bytes: [UInt8]
    /// The next byte to read, its line (1-based) and where that line starts.
    var index = 0
    var line = 1
    var lineStart = 0
    private var open: [String] = []
    private var pendingEnd: String?
    private var seenRoot = false

    /// A tokenizer for `bytes`, after checking they are UTF-8 made of XML characters (a byte order mark is skipped).
    init(_ bytes: [UInt8]) throws(XMLSyntaxError) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        try validateCharacters()
    }

    /// The next token, or nil at the end of a well-formed document.
    mutating func next() throws(XMLSyntaxError) -> Token? {
        if let name = pendingEnd {
            pendingEnd = nil
            open.removeLast()
            return .end(name: name, line: line)
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                if let text = try characterData() { return .text(text) }
                continue
            }
            let start = mark
            switch byte(at: index + 1) {
            case UInt8(ascii: "?"):
                guard isNameStart(byte(at: index + 2)) else { throw error("expected a name after '<?'", at: start) }
                try skip(past: Array("?>".utf8), from: index + 2, unclosed: "a processing instruction", at: start)
            case UInt8(ascii: "!"):
                if let text = try declaration(at: start) { return .text(text) }
            case UInt8(ascii: "/"):
                return try endTag(at: start)
            default:
                return try startTag(at: start)
            }
        }
        if let element = open.last {
            throw error("the document ends before its elements are closed (<\(element)> is open)", at: mark)
        }
        guard seenRoot else { throw error("the document has no root element", at: mark) }
        return nil
    }

    // MARK: Markup

    private mutating func startTag(at start: Mark) throws(XMLSyntaxError) -> Token {
        if open.isEmpty, seenRoot { throw error("content after the root element", at: start) }
        advance(to: index + 1)
        guard let name = scanName() else { throw error("expected an element name after '<'", at: mark) }
        var attributes: [Attribute] = []
        var names: Set<String> = []
        while true {
            let spaced = skipSpace()
            guard index < bytes.count else { throw error("a tag is missing its closing '>'", at: mark) }
            if bytes[index] == UInt8(ascii: ">") {
                advance(to: index + 1)
                break
            }
            if bytes[index] == UInt8(ascii: "/") {
                guard byte(at: index + 1) == UInt8(ascii: ">") else { throw error("expected '>' after '/'", at: mark) }
                advance(to: index + 2)
                pendingEnd = name
                break
            }
            guard spaced else { throw error("expected a space before the attribute", at: mark) }
            let attributeMark = mark
            guard let attribute = scanName() else { throw error("expected an attribute name or '>'", at: mark) }
            skipSpace()
            guard byte(at: index) == UInt8(ascii: "=") else {
                throw error("attribute '\(attribute)' has no value (write \(attribute)=\"…\")", at: mark)
            }
            advance(to: index + 1)
            skipSpace()
            let value = try attributeValue(of: attribute)
            guard names.insert(attribute).inserted else {
                throw error("attribute '\(attribute)' appears twice on one element", at: attributeMark)
            }
            attributes.append(Attribute(name: attribute, value: value))
        }
        guard open.count < Self.maxDepth else {
            throw error("elements nest deeper than \(Self.maxDepth) levels", at: start)
        }
        open.append(name)
        seenRoot = true
        return .start(name: name, attributes: attributes, line: start.line)
    }

    private mutating func endTag(at start: Mark) throws(XMLSyntaxError) -> Token {
        advance(to: index + 2)
        guard let name = scanName() else { throw error("expected an element name after '</'", at: mark) }
        skipSpace()
        guard byte(at: index) == UInt8(ascii: ">") else { throw error("a tag is missing its closing '>'", at: mark) }
        advance(to: index + 1)
        guard let element = open.last, element == name else {
            throw error("a closing tag does not match the open element", at: start)
        }
        open.removeLast()
        return .end(name: name, line: start.line)
    }

    /// `<!--…-->` (skipped, nil), `<![CDATA[…]]>` (its text); a DOCTYPE or anything else is an error.
    private mutating func declaration(at start: Mark) throws(XMLSyntaxError) -> String? {
        if matches("<!--", at: index) {
            try skip(past: Array("-->".utf8), from: index + 4, unclosed: "a comment", at: start)
            return nil
        }
        if matches("<![CDATA[", at: index) {
            guard !open.isEmpty else { throw error("a CDATA section outside the root element", at: start) }
            let body = index + 9
            try skip(past: Array("]]>".utf8), from: body, unclosed: "a CDATA section", at: start)
            return String(decoding: bytes[body..<(index - 3)], as: UTF8.self)
        }
        if matches("<!DOCTYPE", at: index) {
            throw error("a DOCTYPE is not allowed in a GPX file (entities are not read)", at: start)
        }
        throw error("expected a comment or CDATA section after '<!'", at: start)
    }

    /// Text up to the next '<': nil when it is only white space outside the root element.
    private mutating func characterData() throws(XMLSyntaxError) -> String? {
        let end = bytes[index...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
        if open.isEmpty {
            if let other = bytes[index..<end].firstIndex(where: { !Self.isSpace($0) }) {
                let message =
                    seenRoot ? "content after the root element" : "the document does not start with an element"
                throw error(message, at: mark(at: other))
            }
            advance(to: end)
            return nil
        }
        let text = try decode(index..<end, attribute: false)
        advance(to: end)
        return text
    }

    /// A quoted attribute value starting at `index`, decoded and with tabs and line breaks made spaces.
    private mutating func attributeValue(of attribute: String) throws(XMLSyntaxError) -> String {
        let quote = byte(at: index)
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error("the value of attribute '\(attribute)' is not in quotes", at: mark)
        }
        let body = index + 1
        guard let end = bytes[body...].firstIndex(of: quote!) else {
            throw error("the value of attribute '\(attribute)' is not closed", at: mark)
        }
        if let less = bytes[body..<end].firstIndex(of: UInt8(ascii: "<")) {
            throw error("'<' inside the value of attribute '\(attribute)'", at: mark(at: less))
        }
        let value = try decode(body..<end, attribute: true)
        advance(to: end + 1)
        return value
    }
}
