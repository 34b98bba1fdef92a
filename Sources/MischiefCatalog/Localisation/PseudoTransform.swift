/// One pseudo-localisation rewrite of a displayed string, to reveal layout and localisation bugs.
///
/// Every transform except ``showKeys`` and ``empty`` rewrites only the text between placeholders (see
/// ``FormatSegments``): each format specifier, brace placeholder, markup tag and entity of the input is
/// in the output exactly once, unchanged and in its original order, so `String(format:)` still gets the
/// right arguments. Transforms are deterministic and compose left to right in a ``PseudoLocalisation``.
///
/// ```swift
/// let pseudo = PseudoLocalisation([.accents, .brackets])
/// pseudo.apply(to: "Welcome, %@", key: "home.title")   // "[Ŵéļçöɱé, %@]"
/// ```
public enum PseudoTransform: Hashable, Sendable {
    /// Replaces every ASCII Latin letter with an accented look-alike, as Android's en-XA:
    /// `"Welcome"` → `"Ŵéļçöɱé"`. Reveals hard-coded strings and clipped diacritics.
    ///
    /// Each letter maps to one precomposed letter, so the length in characters is unchanged; digits,
    /// punctuation and non-ASCII text are kept.
    case accents

    /// Appends readable filler words (`" one two three …"`) after everything else until the text is
    /// about `ratio` times as long, growing short strings more, as real translations do.
    ///
    /// With `n` the number of text characters (placeholders not counted), the target length is
    /// `n × (1 + 5 × (ratio − 1))` for `n` ≤ 10, `n × (1 + 2 × (ratio − 1))` for 11 … 20, and `n × ratio`
    /// beyond, rounded up (with `ratio` 1.4: × 3, × 1.8 and × 1.4). Whole words are added until the target
    /// is reached, so the result is at most 5 characters longer than the target. A string without text
    /// gets no filler; `ratio` is clamped to `1 ... 10`. No filler goes past
    /// ``PseudoLocalisation/maximumLength`` Unicode scalars in all.
    /// `"Welcome"` with ratio 1.4 → `"Welcome one two three"`.
    case expand(ratio: Double)

    /// Puts `[` before and `]` after the whole string, as Android's en-XA, so a clipped end shows:
    /// `"Welcome"` → `"[Welcome]"`, `""` → `"[]"`.
    case brackets

    /// Repeats each run of text between placeholders, as Xcode's double-length pseudo-language:
    /// `"Hello %@!"` → `"Hello Hello %@! !"`.
    ///
    /// A space separates the two copies unless the run starts or ends with whitespace already
    /// (`"Welcome"` → `"Welcome Welcome"`); placeholders appear once. A run whose copy would take the string
    /// past ``PseudoLocalisation/maximumLength`` Unicode scalars is left single.
    case double

    /// Makes the string display right to left: U+200F RIGHT-TO-LEFT MARK and U+202E RIGHT-TO-LEFT
    /// OVERRIDE before it, U+202C POP DIRECTIONAL FORMATTING and U+200F after it. Nothing is reversed in
    /// the string itself.
    ///
    /// These are the marks Android's ar-XB puts around each word. Around the whole string the display is
    /// the same (the words read right to left, each mirrored), and the leading RLM makes the paragraph
    /// right to left, so the label also aligns to the right. Values substituted for placeholders are
    /// mirrored too, as on Android.
    case rtl

    /// Turns printable ASCII into full-width forms (U+FF01 … U+FF5E; space → U+3000 IDEOGRAPHIC SPACE), which
    /// take two columns in a terminal and are wider in most fonts: `"Hi 5"` → `"Ｈｉ　５"`.
    /// Non-ASCII text and controls (newlines, tabs) are kept; combining marks stay on their widened letter.
    case wide

    /// Joins words into long compounds with no line-break opportunity, as German does.
    ///
    /// Within each run of text between placeholders, the spaces (any whitespace but line breaks) between
    /// words are removed until the compound has at least 20 characters; then one space is kept and a new
    /// compound starts. Whitespace at the ends of a run, next to placeholders, is kept.
    /// `"Welcome back, %@"` → `"Welcomeback, %@"`.
    case longWords

    /// Shows the lookup key instead of the text, to find which key a label uses. The key is shown as
    /// written; placeholders of the text are not kept (those in the key are kept as placeholders).
    case showKeys

    /// Shows nothing: the empty string, to find labels that collapse or lose their meaning.
    /// Placeholders are not kept. Later transforms still apply (`[.empty, .brackets]` gives `"[]"`).
    case empty
}

extension PseudoTransform {
    /// `segments` after this transform.
    func apply(to segments: [FormatSegments.Segment], key: String) -> [FormatSegments.Segment] {
        switch self {
        case .accents:
            return Self.mapText(segments, PseudoAccents.apply)
        case .expand(let ratio):
            let length = segments.reduce(0) { $0 + ($1.isPlaceholder ? 0 : $1.string.count) }
            let extra = PseudoExpansion.targetLength(forTextLength: length, ratio: ratio) - length
            let room = PseudoLocalisation.maximumLength - Self.scalarCount(segments)
            guard extra > 0, room > 0 else { return segments }
            return Self.normalised(segments + [.text(PseudoExpansion.filler(count: extra, limit: room))])
        case .brackets:
            return Self.normalised([.text("[")] + segments + [.text("]")])
        case .double:
            var room = PseudoLocalisation.maximumLength - Self.scalarCount(segments)
            return Self.mapText(segments) { text in
                let doubled = Self.doubled(text)
                let growth = doubled.unicodeScalars.count - text.unicodeScalars.count
                guard growth <= room else { return text }
                room -= growth
                return doubled
            }
        case .rtl:
            return Self.normalised([.text("\u{200F}\u{202E}")] + segments + [.text("\u{202C}\u{200F}")])
        case .wide:
            return Self.mapText(segments, Self.widened)
        case .longWords:
            return Self.mapText(segments, Self.compounded)
        case .showKeys:
            return FormatSegments.split(key)
        case .empty:
            return []
        }
    }

    /// The number of Unicode scalars of the string `segments` make.
    static func scalarCount(_ segments: [FormatSegments.Segment]) -> Int {
        segments.reduce(0) { $0 + $1.string.unicodeScalars.count }
    }

    /// The length from which ``longWords`` stops joining words into a compound.
    static let compoundLength = 20

    private static func mapText(
        _ segments: [FormatSegments.Segment],
        _ transform: (String) -> String
    ) -> [FormatSegments.Segment] {
        normalised(
            segments.map { segment in
                if case .text(let text) = segment { return .text(transform(text)) }
                return segment
            })
    }

    /// Merges adjacent text and drops empty text.
    private static func normalised(_ segments: [FormatSegments.Segment]) -> [FormatSegments.Segment] {
        var result: [FormatSegments.Segment] = []
        for segment in segments {
            guard case .text(let text) = segment else {
                result.append(segment)
                continue
            }
            if text.isEmpty { continue }
            if case .text(let previous)? = result.last {
                result[result.count - 1] = .text(previous + text)
            } else {
                result.append(segment)
            }
        }
        return result
    }

    private static func doubled(_ text: String) -> String {
        guard let first = text.first, let last = text.last else { return text }
        let separator = first.isWhitespace || last.isWhitespace ? "" : " "
        return text + separator + text
    }

    private static func widened(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x20: result.append("\u{3000}")
            case 0x21...0x7E: result.append(Unicode.Scalar(scalar.value + 0xFEE0) ?? scalar)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    private static func compounded(_ text: String) -> String {
        let characters = Array(text)
        func isSeparator(_ character: Character) -> Bool { character.isWhitespace && !character.isNewline }
        guard let start = characters.firstIndex(where: { !isSeparator($0) }),
            let end = characters.lastIndex(where: { !isSeparator($0) })
        else { return text }
        var result = String(characters[..<start])
        var compound = 0
        var index = start
        while index <= end {
            if isSeparator(characters[index]) {
                var runEnd = index
                while isSeparator(characters[runEnd]) { runEnd += 1 }
                if compound >= compoundLength {
                    result += String(characters[index..<runEnd])
                    compound = 0
                }
                index = runEnd
            } else {
                result.append(characters[index])
                compound += 1
                index += 1
            }
        }
        return result + String(characters[(end + 1)...])
    }
}
