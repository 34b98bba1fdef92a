/// Splits a localised string into plain text and the placeholders and markup that must survive untouched.
///
/// Pseudo-localisation may only rewrite the text *between* placeholders: a `%d` that became `%ď`, or a
/// `<b>` that became `<ƀ>`, would break `String(format:)` or the markup parser of the app. The tokenizer
/// recognises, in this order of precedence at each `%`, `{`, `<` or `&`:
///
/// - **printf-style format specifiers**, as `String(format:)` and `printf` read them:
///   `%` [positional `n$`] [flags `-+ #0'`] [width: digits, `*` or `*n$`] [precision: `.` then digits,
///   `*` or `*n$`] [length modifier `hh h ll l q L j z t`] conversion `d i o u x X D O U e E f F g G a A c C
///   s S p n @`, plus the literal `%%`. So `%@`, `%1$@`, `%.2f`, `%lld`, `%-5s`, `%zd` and `%%` are all
///   placeholders. A `%` that does not start a complete specifier (`"100%"`, `"%"`) is text.
///   Because a space is a flag, `"50% off"` holds the specifier `% o` (octal, space flag): that is how
///   `String(format:)` reads it too, so it is kept whole.
/// - **brace placeholders**: `{` one or more ASCII letters, digits, `_`, `.` or `-` (not first) `}`, such
///   as `{name}`, `{0}` or `{user.name}`. `{}` and `{a b}` are text.
/// - **markup tags**: `<` optionally `/`, an ASCII letter, then anything up to the first `>` outside a
///   quoted attribute value, with no `<` in between: `<b>`, `</b>`, `<a href="x>y">`, `<br/>`.
///   `a < b` is text.
/// - **character entities**: `&name;`, `&#123;`, `&#x1F600;` (so that `&amp;` keeps meaning `&`).
///
/// Everything else is text. Adjacent text is merged, and no segment is empty; joining the segments'
/// strings gives back the input exactly.
///
/// ```swift
/// FormatSegments.split("Hi %@, <b>%d</b> new")
/// // [.text("Hi "), .placeholder("%@"), .text(", "), .placeholder("<b>"), .placeholder("%d"),
/// //  .placeholder("</b>"), .text(" new")]
/// FormatSegments.placeholders(in: "%1$@ sent %2$d photos")   // ["%1$@", "%2$d"]
/// ```
public enum FormatSegments: Sendable {
    /// One piece of a split string: text that may be rewritten, or a placeholder that must not be.
    public enum Segment: Hashable, Sendable {
        /// Text shown to the user; pseudo-localisation rewrites it.
        case text(String)
        /// A format specifier, brace placeholder, markup tag or entity, kept exactly as written.
        case placeholder(String)

        /// The segment's characters, as they appear in the string.
        public var string: String {
            switch self {
            case .text(let string), .placeholder(let string): return string
            }
        }

        /// Whether this is a placeholder (kept as written) rather than text.
        public var isPlaceholder: Bool {
            if case .placeholder = self { return true }
            return false
        }
    }

    /// Splits `text` into text and placeholder segments; joining their strings gives back `text`.
    public static func split(_ text: String) -> [Segment] {
        let characters = Array(text)
        var segments: [Segment] = []
        var pending = ""
        var index = 0
        while index < characters.count {
            if let length = tokenLength(in: characters, at: index) {
                if !pending.isEmpty {
                    segments.append(.text(pending))
                    pending = ""
                }
                segments.append(.placeholder(String(characters[index..<index + length])))
                index += length
            } else {
                pending.append(characters[index])
                index += 1
            }
        }
        if !pending.isEmpty { segments.append(.text(pending)) }
        return segments
    }

    /// The placeholders of `text`, in order, each as written.
    public static func placeholders(in text: String) -> [String] {
        split(text).compactMap { $0.isPlaceholder ? $0.string : nil }
    }

    /// Joins segments back into one string.
    public static func join(_ segments: [Segment]) -> String {
        segments.map(\.string).joined()
    }

    // MARK: - Tokenizer

    /// Whether `character` can start a placeholder.
    static func isTrigger(_ character: Character) -> Bool {
        character == "%" || character == "{" || character == "<" || character == "&"
    }

    /// The number of characters of the placeholder starting at `index`, or `nil` if none starts there.
    static func tokenLength(in characters: [Character], at index: Int) -> Int? {
        switch characters[index] {
        case "%": return formatSpecifierLength(in: characters, at: index)
        case "{": return braceLength(in: characters, at: index)
        case "<": return tagLength(in: characters, at: index)
        case "&": return entityLength(in: characters, at: index)
        default: return nil
        }
    }

    private static let flags: Set<Character> = ["-", "+", " ", "#", "0", "'"]
    private static let conversions = Set("diouxXDOUeEfFgGaAcCsSpn@")
    private static let singleLengthModifiers: Set<Character> = ["h", "l", "q", "L", "j", "z", "t"]

    private static func formatSpecifierLength(in characters: [Character], at start: Int) -> Int? {
        let count = characters.count
        var index = start + 1
        guard index < count else { return nil }
        if characters[index] == "%" { return 2 }
        // Positional argument: digits followed by `$` (`%2$d`); otherwise the digits are a width.
        let digitsEnd = skipDigits(characters, from: index)
        if digitsEnd > index, digitsEnd < count, characters[digitsEnd] == "$", characters[index] != "0" {
            index = digitsEnd + 1
        }
        while index < count, flags.contains(characters[index]) { index += 1 }
        index = skipCount(characters, from: index)
        if index < count, characters[index] == "." {
            index = skipCount(characters, from: index + 1)
        }
        if index + 1 < count, characters[index] == characters[index + 1],
            characters[index] == "h" || characters[index] == "l"
        {
            index += 2
        } else if index < count, singleLengthModifiers.contains(characters[index]) {
            index += 1
        }
        guard index < count, conversions.contains(characters[index]) else { return nil }
        return index + 1 - start
    }

    /// Skips a width or precision: digits, `*`, or `*n$`.
    private static func skipCount(_ characters: [Character], from start: Int) -> Int {
        guard start < characters.count, characters[start] == "*" else {
            return skipDigits(characters, from: start)
        }
        let digitsEnd = skipDigits(characters, from: start + 1)
        if digitsEnd > start + 1, digitsEnd < characters.count, characters[digitsEnd] == "$" {
            return digitsEnd + 1
        }
        return start + 1
    }

    private static func skipDigits(_ characters: [Character], from start: Int) -> Int {
        var index = start
        while index < characters.count, isASCIIDigit(characters[index]) { index += 1 }
        return index
    }

    private static func braceLength(in characters: [Character], at start: Int) -> Int? {
        var index = start + 1
        guard index < characters.count, characters[index] != "-" else { return nil }
        while index < characters.count, isBraceNameCharacter(characters[index]) { index += 1 }
        guard index > start + 1, index < characters.count, characters[index] == "}" else { return nil }
        return index + 1 - start
    }

    private static func tagLength(in characters: [Character], at start: Int) -> Int? {
        var index = start + 1
        if index < characters.count, characters[index] == "/" { index += 1 }
        guard index < characters.count, isASCIILetter(characters[index]) else { return nil }
        while index < characters.count {
            switch characters[index] {
            case ">":
                return index + 1 - start
            case "<":
                return nil
            case "\"", "'":
                let quote = characters[index]
                index += 1
                while index < characters.count, characters[index] != quote { index += 1 }
                guard index < characters.count else { return nil }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    private static func entityLength(in characters: [Character], at start: Int) -> Int? {
        let maximumLength = 32
        var index = start + 1
        guard index < characters.count else { return nil }
        let accepts: (Character) -> Bool
        if characters[index] == "#" {
            index += 1
            if index < characters.count, characters[index] == "x" || characters[index] == "X" {
                index += 1
                accepts = { $0.isASCII && $0.isHexDigit }
            } else {
                accepts = isASCIIDigit
            }
        } else {
            guard isASCIILetter(characters[index]) else { return nil }
            accepts = { isASCIILetter($0) || isASCIIDigit($0) }
        }
        let bodyStart = index
        while index < characters.count, index - start < maximumLength, accepts(characters[index]) { index += 1 }
        guard index > bodyStart, index < characters.count, characters[index] == ";" else { return nil }
        return index + 1 - start
    }

    private static func isASCIIDigit(_ character: Character) -> Bool {
        guard let value = character.asciiValue else { return false }
        return value >= 0x30 && value <= 0x39
    }

    private static func isASCIILetter(_ character: Character) -> Bool {
        guard let value = character.asciiValue else { return false }
        return (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
    }

    private static func isBraceNameCharacter(_ character: Character) -> Bool {
        isASCIILetter(character) || isASCIIDigit(character) || character == "_" || character == "."
            || character == "-"
    }
}
