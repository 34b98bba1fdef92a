/// A pipeline of pseudo-localisation transforms applied to every string an app looks up.
///
/// Transforms run left to right on the text between placeholders (see ``FormatSegments``), so format
/// specifiers and markup survive every transform except ``PseudoTransform/showKeys`` and
/// ``PseudoTransform/empty``. The result is deterministic. Where rewritten text would turn a stray `%`,
/// `{`, `<` or `&` into a new placeholder, an invisible U+2060 WORD JOINER is put after it.
///
/// The output is bounded: ``PseudoTransform/expand(ratio:)`` and ``PseudoTransform/double`` add nothing that
/// would take the string past ``maximumLength`` Unicode scalars, so however many of them are chained, a string
/// of `n` scalars comes out with at most `max(n, maximumLength)` scalars, plus 4 for each ``PseudoTransform/rtl``
/// and 2 for each ``PseudoTransform/brackets``, plus the word joiners (at most one per character and one between
/// placeholders). ``PseudoTransform/showKeys`` counts the key's length instead of the text's.
///
/// ```swift
/// let pseudo = PseudoLocalisation.enXA
/// pseudo.apply(to: "Welcome", key: "home.title")          // "[Ŵéļçöɱé one two three]"
/// pseudo.apply(to: "%d new", key: "inbox.count")          // "[%d ñéŵ one two]"
/// PseudoLocalisation([.showKeys, .brackets]).apply(to: "Welcome", key: "home.title")   // "[home.title]"
/// ```
public struct PseudoLocalisation: Hashable, Sendable {
    /// The transforms, applied left to right.
    public var transforms: [PseudoTransform]

    /// Makes a pipeline applying `transforms` left to right (an empty list changes nothing).
    public init(_ transforms: [PseudoTransform]) {
        self.transforms = transforms
    }

    /// The most Unicode scalars growing transforms take a string to: 65,536 (64 Ki).
    public static let maximumLength = 65_536

    /// Android's en-XA: `[.accents, .expand(ratio: 1.4), .brackets]`.
    ///
    /// Letters are accented, filler words are added after the text (× 3 for up to 10 characters, × 1.8 for
    /// 11 … 20, × 1.4 beyond; the filler itself is not accented), and the whole is put in `[` `]`:
    /// `"Welcome"` → `"[Ŵéļçöɱé one two three]"`.
    public static let enXA = PseudoLocalisation([.accents, .expand(ratio: 1.4), .brackets])

    /// Android's ar-XB: `[.rtl]`, the string shown right to left in a right-to-left paragraph.
    ///
    /// Android wraps each word in RLM RLO … PDF RLM and does nothing else (no accents, no expansion, no
    /// brackets); ``PseudoTransform/rtl`` puts the same marks around the whole string, which displays
    /// the same. `"Hi %@"` → `"\u{200F}\u{202E}Hi %@\u{202C}\u{200F}"`.
    public static let arXB = PseudoLocalisation([.rtl])

    /// `text`, looked up under `key`, after every transform.
    public func apply(to text: String, key: String) -> String {
        var segments = FormatSegments.split(text)
        for transform in transforms {
            segments = transform.apply(to: segments, key: key)
        }
        return PlaceholderSeal.join(segments)
    }
}
