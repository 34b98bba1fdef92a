import Testing

@testable import MischiefCatalog

@Suite struct PseudoTransformTests {
    static let preserving: [PseudoTransform] = [
        .accents, .expand(ratio: 1.4), .expand(ratio: 1), .expand(ratio: 3), .brackets, .double, .rtl, .wide,
        .longWords,
    ]

    private func apply(_ transform: PseudoTransform, _ text: String, key: String = "some.key") -> String {
        PseudoLocalisation([transform]).apply(to: text, key: key)
    }

    @Test(arguments: preserving, Corpus.strings)
    func preservesPlaceholders(_ transform: PseudoTransform, _ text: String) {
        let output = apply(transform, text)
        #expect(FormatSegments.placeholders(in: output) == FormatSegments.placeholders(in: text))
    }

    @Test func preservesPlaceholdersInEveryPairOfTransforms() {
        var failures: [String] = []
        for first in Self.preserving {
            for second in Self.preserving {
                for text in Corpus.strings {
                    let output = PseudoLocalisation([first, second]).apply(to: text, key: "k")
                    if FormatSegments.placeholders(in: output) != FormatSegments.placeholders(in: text) {
                        failures.append("\(first), \(second): \(text.debugDescription) → \(output.debugDescription)")
                    }
                }
            }
        }
        #expect(failures == [])
    }

    @Test func accents() {
        #expect(apply(.accents, "Welcome") == "Ŵéļçöɱé")
        #expect(
            apply(.accents, "Welcome back, %@! You have %d new messages.")
                == "Ŵéļçöɱé ƀåçķ, %@! Ýöû ĥåṽé %d ñéŵ ɱéššåĝéš.")
        #expect(apply(.accents, "Hello {name}, <b>%@</b>") == "Ĥéļļö {name}, <b>%@</b>")
        #expect(apply(.accents, "%lld items") == "%lld îţéɱš")
        #expect(apply(.accents, "100%% done") == "100%% ðöñé")
    }

    @Test func accentTableCoversEveryLetterWithOneNonASCIIScalar() {
        #expect(PseudoAccents.lowercase.count == 26)
        #expect(PseudoAccents.uppercase.count == 26)
        for character in PseudoAccents.lowercase + PseudoAccents.uppercase {
            #expect(character.unicodeScalars.count == 1)
            #expect(!character.isASCII)
        }
        #expect(Set(PseudoAccents.lowercase + PseudoAccents.uppercase).count == 52)
    }

    @Test func expand() {
        #expect(apply(.expand(ratio: 1.4), "Welcome") == "Welcome one two three")
        #expect(apply(.expand(ratio: 1.4), "OK") == "OK one")
        #expect(apply(.expand(ratio: 1.4), "%d new") == "%d new one two")
        #expect(apply(.expand(ratio: 1.4), "Welcome back") == "Welcome back one two three")
        #expect(apply(.expand(ratio: 1.4), "Welcome back to the app") == "Welcome back to the app one two three")
        #expect(apply(.expand(ratio: 1.4), "") == "")
        #expect(apply(.expand(ratio: 1.4), "%@") == "%@")
        #expect(apply(.expand(ratio: 1), "Welcome") == "Welcome")
        #expect(apply(.expand(ratio: 0.5), "Welcome") == "Welcome")
        #expect(apply(.expand(ratio: .nan), "Welcome") == "Welcome")
        // Ratios are clamped to 10: "Hi" (2 characters) grows to at least 2 × (1 + 5 × 9) = 92 characters.
        #expect(apply(.expand(ratio: .infinity), "Hi") == apply(.expand(ratio: 10), "Hi"))
        #expect((92...96).contains(apply(.expand(ratio: .infinity), "Hi").count))
        // A stray `%` followed by filler would read as `% o`: it gets an invisible word joiner.
        #expect(apply(.expand(ratio: 1.4), "100%") == "100%\u{2060} one two")
    }

    @Test func brackets() {
        #expect(apply(.brackets, "Welcome") == "[Welcome]")
        #expect(apply(.brackets, "") == "[]")
        #expect(apply(.brackets, "%@") == "[%@]")
        #expect(apply(.brackets, "<b>Hi</b>") == "[<b>Hi</b>]")
    }

    @Test func double() {
        #expect(apply(.double, "Welcome") == "Welcome Welcome")
        #expect(apply(.double, "Hello %@!") == "Hello Hello %@! !")
        #expect(apply(.double, "%1$@ sent %2$d photos") == "%1$@ sent  sent %2$d photos photos")
        #expect(apply(.double, "100%% done") == "100 100%% done done")
        #expect(apply(.double, "") == "")
        #expect(apply(.double, "%@") == "%@")
    }

    @Test func rtl() {
        #expect(apply(.rtl, "Welcome") == "\u{200F}\u{202E}Welcome\u{202C}\u{200F}")
        #expect(apply(.rtl, "%d new") == "\u{200F}\u{202E}%d new\u{202C}\u{200F}")
        #expect(apply(.rtl, "") == "\u{200F}\u{202E}\u{202C}\u{200F}")
    }

    @Test(arguments: Corpus.strings)
    func rtlMarksBothEnds(_ text: String) {
        let scalars = Array(apply(.rtl, text).unicodeScalars)
        #expect(scalars.prefix(2) == ["\u{200F}", "\u{202E}"])
        #expect(scalars.suffix(2) == ["\u{202C}", "\u{200F}"])
        #expect(String(String.UnicodeScalarView(scalars.dropFirst(2).dropLast(2))) == text)
    }

    @Test func wide() {
        #expect(apply(.wide, "Hi 5!") == "Ｈｉ　５！")
        #expect(apply(.wide, "%d km") == "%d　ｋｍ")
        #expect(apply(.wide, "100%") == "１００％")
        #expect(apply(.wide, "Déjà vu") == "Ｄéｊà　ｖｕ")
        #expect(apply(.wide, "<b>~</b>") == "<b>～</b>")
        #expect(apply(.wide, "e\u{301}\n") == "ｅ\u{301}\n")
    }

    @Test(arguments: Corpus.strings.filter { $0.allSatisfy { $0.isASCII && !$0.isWhitespace || $0 == " " } })
    func wideMakesEveryTextCharacterFullWidth(_ text: String) {
        for segment in FormatSegments.split(apply(.wide, text)) {
            guard case .text(let string) = segment else { continue }
            for scalar in string.unicodeScalars {
                #expect((0xFF01...0xFF5E).contains(scalar.value) || scalar == "\u{3000}")
            }
        }
    }

    @Test func longWords() {
        #expect(apply(.longWords, "Welcome back") == "Welcomeback")
        #expect(
            apply(.longWords, "Welcome back, %@! You have %d new messages.")
                == "Welcomeback, %@!Youhave %d newmessages.")
        #expect(
            apply(.longWords, "This is a much longer sentence that keeps going for a while")
                == "Thisisamuchlongersentence thatkeepsgoingforawhile")
        #expect(apply(.longWords, "  padded  words  ") == "  paddedwords  ")
        #expect(apply(.longWords, "two\nlines here") == "two\nlineshere")
        // Joining must not create placeholders: a word joiner keeps `{name}` and `%5d` from forming.
        #expect(apply(.longWords, "{ name }") == "{\u{2060}name}")
        #expect(apply(.longWords, "%5 d") == "%\u{2060}5d")
    }

    @Test func longWordsReachCompoundLength() {
        let output = apply(.longWords, "one two three four five six seven eight nine ten eleven twelve")
        let words = output.split(separator: " ")
        #expect(words.dropLast().allSatisfy { $0.count >= PseudoTransform.compoundLength })
        #expect(words.joined() == "onetwothreefourfivesixseveneightnineteneleventwelve")
    }

    @Test func showKeys() {
        #expect(apply(.showKeys, "Welcome, %@", key: "home.title") == "home.title")
        #expect(apply(.showKeys, "Welcome", key: "%d items") == "%d items")
        #expect(PseudoLocalisation([.showKeys, .accents]).apply(to: "x", key: "%d items") == "%d îţéɱš")
    }

    @Test func empty() {
        #expect(apply(.empty, "Welcome, %@") == "")
        #expect(PseudoLocalisation([.empty, .brackets]).apply(to: "Welcome", key: "k") == "[]")
    }
}
