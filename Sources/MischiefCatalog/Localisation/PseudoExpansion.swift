/// The length curve and filler words behind ``PseudoTransform/expand(ratio:)``.
///
/// Translations of short strings grow far more than translations of long ones ("OK" → "Einverstanden"),
/// so the growth asked for, `ratio − 1`, is multiplied for short texts. With `n` the number of characters
/// of text (placeholders and markup not counted):
///
/// | text length `n` | target length               | with `ratio` 1.4 |
/// |-----------------|-----------------------------|------------------|
/// | 0               | 0 (nothing is added)        | —                |
/// | 1 … 10          | `n × (1 + 5 × (ratio − 1))` | × 3.0            |
/// | 11 … 20         | `n × (1 + 2 × (ratio − 1))` | × 1.8            |
/// | 21 and more     | `n × ratio`                 | × 1.4            |
///
/// The target is rounded up. `ratio` is clamped to `1 ... 10` (`nan` counts as 1), so a ratio of 1 or less
/// adds nothing. Filler is whole words from ``words`` (`one two three …`, starting again after `ten`),
/// each preceded by a space, added until the text reaches the target: the result is never shorter than
/// the target and at most ``longestFillerLength`` − 1 characters longer. Filler stops short of the target
/// where the string would pass ``PseudoLocalisation/maximumLength`` Unicode scalars.
///
/// ```swift
/// PseudoExpansion.targetLength(forTextLength: 7, ratio: 1.4)   // 21
/// PseudoExpansion.filler(count: 14)                           // " one two three"
/// ```
enum PseudoExpansion {
    /// The filler words, used in this order and then again from the start.
    static let words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// The longest filler word with its leading space.
    static let longestFillerLength = 6

    /// How much more than `ratio − 1` a text of `length` characters grows.
    static func growthMultiplier(forTextLength length: Int) -> Double {
        switch length {
        case ...10: return 5
        case 11...20: return 2
        default: return 1
        }
    }

    /// The factor a text of `length` characters is expanded by under `ratio`.
    static func factor(forTextLength length: Int, ratio: Double) -> Double {
        let clamped = ratio.isNaN ? 1 : min(max(ratio, 1), 10)
        return 1 + (clamped - 1) * growthMultiplier(forTextLength: length)
    }

    /// The number of characters a text of `length` characters is expanded to (at least `length`).
    static func targetLength(forTextLength length: Int, ratio: Double) -> Int {
        guard length > 0 else { return 0 }
        let target = (Double(length) * factor(forTextLength: length, ratio: ratio)).rounded(.up)
        return max(length, Int(target))
    }

    /// Filler words, each after a space, with at least `count` characters in all (empty if `count` ≤ 0), but
    /// never more than `limit` characters: the last word that would pass `limit` is left out.
    ///
    /// Linear in the length of the result: the length is counted as words are added, never recounted.
    static func filler(count: Int, limit: Int = .max) -> String {
        var filler = ""
        var length = 0
        var position = 0
        while length < count {
            let word = words[position % words.count]
            guard length + 1 + word.utf8.count <= limit else { break }
            filler += " "
            filler += word
            length += 1 + word.utf8.count
            position += 1
        }
        return filler
    }
}
