import MischiefCatalog

/// Pseudo-localisation on any text: placeholders kept once and in order, and the output bounded.
///
/// The first byte says how many transforms (0–7), the next ones which (and the ratio of `expand`); the rest is
/// the text, and its first line also the key.
let pseudoHarness = FuzzHarness(name: "pseudo", summary: "pseudo-localisation keeps placeholders; output bounded") {
    bytes in
    guard let first = bytes.first else { return }
    let count = Int(first % 8)
    guard bytes.count > count else { return }
    var transforms: [PseudoTransform] = []
    for byte in bytes.dropFirst().prefix(count) {
        let all: [PseudoTransform] = [
            .accents, .expand(ratio: 1 + Double(byte >> 4) * 0.6), .brackets, .double, .rtl, .wide, .longWords,
            .showKeys, .empty,
        ]
        transforms.append(all[Int(byte & 0x0F) % all.count])
    }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(count + 1)...]), as: UTF8.self)
    let key = String(text.prefix { $0 != "\n" })
    let output = PseudoLocalisation(transforms).apply(to: text, key: key)

    var expected = FormatSegments.placeholders(in: text)
    for transform in transforms {
        if transform == .showKeys { expected = FormatSegments.placeholders(in: key) }
        if transform == .empty { expected = [] }
    }
    fuzzCheck(
        FormatSegments.placeholders(in: output) == expected,
        "placeholders changed: \(transforms) on \(text.debugDescription) → \(output.debugDescription)")

    // The documented bound: growing stops at the cap, brackets and rtl add at most 4 each, and the word joiners
    // that keep stray `%`, `{`, `<`, `&` from forming placeholders at most double the rest.
    let longest = max(text.unicodeScalars.count, key.unicodeScalars.count, PseudoLocalisation.maximumLength)
    let bound = 3 * (longest + 4 * transforms.count)
    fuzzCheck(output.unicodeScalars.count <= bound, "output of \(output.unicodeScalars.count) scalars past \(bound)")
}
