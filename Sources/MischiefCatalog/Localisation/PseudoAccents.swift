/// The look-alike table behind ``PseudoTransform/accents``: every ASCII Latin letter to one accented letter.
///
/// Each replacement is a single precomposed Unicode scalar outside ASCII, so the text stays readable,
/// keeps its length in characters, and can never be mistaken for (part of) a placeholder.
///
/// ```swift
/// PseudoAccents.apply(to: "Welcome")   // "Ŵéļçöɱé"
/// ```
enum PseudoAccents {
    /// `a`…`z`, in order.
    static let lowercase: [Character] = Array("åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýž")
    /// `A`…`Z`, in order.
    static let uppercase: [Character] = Array("ÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")

    /// `character` with an accent if it is an ASCII letter; any other character unchanged.
    static func accented(_ character: Character) -> Character {
        guard let value = character.asciiValue else { return character }
        switch value {
        case 0x61...0x7A: return lowercase[Int(value - 0x61)]
        case 0x41...0x5A: return uppercase[Int(value - 0x41)]
        default: return character
        }
    }

    /// `text` with every ASCII letter accented.
    static func apply(to text: String) -> String {
        String(text.map(accented))
    }
}
