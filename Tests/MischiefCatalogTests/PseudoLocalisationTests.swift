import Testing

@testable import MischiefCatalog

@Suite struct PseudoLocalisationTests {
    private func apply(_ transforms: [PseudoTransform], _ text: String) -> String {
        PseudoLocalisation(transforms).apply(to: text, key: "key")
    }

    @Test func noTransformsChangeNothing() {
        for text in Corpus.strings {
            #expect(apply([], text) == text)
        }
    }

    @Test func compositionOrder() {
        // Accents leave brackets alone, so these two commute…
        #expect(apply([.accents, .brackets], "Welcome") == "[Ŵéļçöɱé]")
        #expect(apply([.brackets, .accents], "Welcome") == "[Ŵéļçöɱé]")
        // …but these do not.
        #expect(apply([.wide, .brackets], "Welcome") == "[Ｗｅｌｃｏｍｅ]")
        #expect(apply([.brackets, .wide], "Welcome") == "［Ｗｅｌｃｏｍｅ］")
        #expect(apply([.double, .brackets], "Welcome") == "[Welcome Welcome]")
        #expect(apply([.brackets, .double], "Welcome") == "[Welcome] [Welcome]")
        #expect(apply([.accents, .expand(ratio: 1.4)], "Welcome") == "Ŵéļçöɱé one two three")
        #expect(apply([.expand(ratio: 1.4), .accents], "Welcome") == "Ŵéļçöɱé öñé ţŵö ţĥŕéé")
        #expect(apply([.showKeys, .accents], "Welcome") == "ķéý")
        #expect(apply([.accents, .showKeys], "Welcome") == "key")
        #expect(apply([.rtl, .brackets], "Hi") == "[\u{200F}\u{202E}Hi\u{202C}\u{200F}]")
    }

    @Test func presets() {
        #expect(PseudoLocalisation.enXA.transforms == [.accents, .expand(ratio: 1.4), .brackets])
        #expect(PseudoLocalisation.arXB.transforms == [.rtl])
        #expect(PseudoLocalisation.enXA.apply(to: "Welcome", key: "home.title") == "[Ŵéļçöɱé one two three]")
        #expect(PseudoLocalisation.enXA.apply(to: "%d new", key: "inbox.count") == "[%d ñéŵ one two]")
        #expect(PseudoLocalisation.enXA.apply(to: "", key: "k") == "[]")
        #expect(PseudoLocalisation.arXB.apply(to: "Hi %@", key: "k") == "\u{200F}\u{202E}Hi %@\u{202C}\u{200F}")
        #expect(
            PseudoLocalisation([.showKeys, .brackets]).apply(to: "Welcome", key: "home.title") == "[home.title]")
    }

    @Test func isDeterministic() {
        let pseudo = PseudoLocalisation([.accents, .expand(ratio: 1.7), .longWords, .double, .brackets, .rtl])
        for text in Corpus.strings {
            #expect(pseudo.apply(to: text, key: "k") == pseudo.apply(to: text, key: "k"))
        }
    }

    @Test func expandGrowsShortStringsMore() {
        let source = "Pseudo localisation shows where layouts break long before translators see the app at all."
        var factors: [Int: Double] = [:]
        for length in 1...80 {
            let text = String(source.prefix(length))
            let output = apply([.expand(ratio: 1.4)], text)
            let target = PseudoExpansion.targetLength(forTextLength: length, ratio: 1.4)
            #expect(output.count >= target, "\(text.debugDescription) → \(output.debugDescription)")
            #expect(output.count <= target + PseudoExpansion.longestFillerLength - 1)
            #expect(output.hasPrefix(text))
            factors[length] = Double(output.count) / Double(length)
        }
        for length in 1...10 { #expect(factors[length]! >= 3.0) }
        for length in 11...20 { #expect(factors[length]! >= 1.8 && factors[length]! < 2.4) }
        for length in 21...80 { #expect(factors[length]! >= 1.4 && factors[length]! < 1.7) }
        #expect(PseudoExpansion.targetLength(forTextLength: 7, ratio: 1.4) == 21)
        #expect(PseudoExpansion.targetLength(forTextLength: 15, ratio: 1.4) == 27)
        #expect(PseudoExpansion.targetLength(forTextLength: 50, ratio: 1.4) == 70)
        #expect(PseudoExpansion.targetLength(forTextLength: 7, ratio: 2) == 42)
    }

    @Test func chainedExpansionStopsAtTheCap() {
        // Before the cap, four expand(10) on 40 characters grew to 400,000 characters (38.6 s per lookup).
        let text = String(repeating: "Ab %d ", count: 8)
        let output = apply(Array(repeating: .expand(ratio: 10), count: 4), text)
        let length = output.unicodeScalars.count
        #expect(length <= PseudoLocalisation.maximumLength)
        #expect(length > PseudoLocalisation.maximumLength - PseudoExpansion.longestFillerLength)
        #expect(output.hasPrefix(text))
        #expect(FormatSegments.placeholders(in: output) == FormatSegments.placeholders(in: text))
    }

    @Test func expandingALongTextStopsAtTheCap() {
        // 13,600 characters × 10 would be 136,000: the filler stops at the cap instead.
        let text = String(repeating: "Lorem ipsum ", count: 1_134)
        let output = apply([.expand(ratio: 10)], text)
        #expect(output.unicodeScalars.count <= PseudoLocalisation.maximumLength)
        #expect(output.unicodeScalars.count > PseudoLocalisation.maximumLength - PseudoExpansion.longestFillerLength)
        #expect(output.hasPrefix(text))
        let past = String(repeating: "x", count: PseudoLocalisation.maximumLength + 10)
        #expect(apply([.expand(ratio: 2)], past) == past)
    }

    @Test func repeatedDoublingStopsAtTheCap() {
        let output = apply(Array(repeating: .double, count: 30), "Hi %@ there")
        #expect(output.unicodeScalars.count <= PseudoLocalisation.maximumLength)
        #expect(FormatSegments.placeholders(in: output) == ["%@"])
    }

    @Test func fillerCountsItsLengthAndKeepsToItsLimit() {
        #expect(PseudoExpansion.filler(count: 14) == " one two three")
        #expect(PseudoExpansion.filler(count: 14, limit: 13) == " one two")
        #expect(PseudoExpansion.filler(count: 0) == "")
        let long = PseudoExpansion.filler(count: 1_000_000)
        #expect(long.utf8.count >= 1_000_000 && long.utf8.count < 1_000_000 + PseudoExpansion.longestFillerLength)
    }

    @Test func expandCountsOnlyText() {
        // "%1$@ sent %2$d photos" has 13 text characters: × 1.8 → 24, so 11 filler characters.
        #expect(apply([.expand(ratio: 1.4)], "%1$@ sent %2$d photos") == "%1$@ sent %2$d photos one two three")
    }

    @Test func everyTransformTogetherKeepsPlaceholders() {
        let all: [PseudoTransform] = [.longWords, .accents, .double, .expand(ratio: 2), .wide, .brackets, .rtl]
        for text in Corpus.strings {
            for pipeline in [all, all.reversed()] {
                let output = apply(pipeline, text)
                #expect(FormatSegments.placeholders(in: output) == FormatSegments.placeholders(in: text))
            }
        }
    }
}
