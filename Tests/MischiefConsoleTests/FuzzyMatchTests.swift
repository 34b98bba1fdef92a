import Testing

@testable import MischiefConsole

/// The palette's fuzzy match: a subsequence, runs and word starts first, stable, whole graphemes only.
@Suite struct FuzzyMatchTests {
    @Test func matchesASubsequenceAndNothingElse() {
        #expect(FuzzyMatch.score("rvt", in: "revert the seam") != nil)
        #expect(FuzzyMatch.score("RVT", in: "revert the seam") != nil)  // case is ignored
        #expect(FuzzyMatch.score("tvr", in: "revert the seam") == nil)  // order matters
        #expect(FuzzyMatch.score("revertx", in: "revert") == nil)
        #expect(FuzzyMatch.score("", in: "anything") == 0)
        #expect(FuzzyMatch.score("a", in: "") == nil)
    }

    @Test func runsAndWordStartsRankFirst() {
        let items = ["a profile list", "save recording", "revert all", "theme retro"]
        #expect(FuzzyMatch.ranked("re", items) { $0 }.first == "revert all")  // start of the text, a run
        #expect(FuzzyMatch.ranked("rec", items) { $0 } == ["save recording"])
        // A word start beats a letter inside a word: `sr` is save recording's two word starts.
        #expect(FuzzyMatch.ranked("sr", ["classroom", "save recording"]) { $0 }.first == "save recording")
        // Consecutive letters beat scattered ones.
        #expect(
            FuzzyMatch.score("shift", in: "clock.now shift(by)")! > FuzzyMatch.score("shift", in: "s h i f t")!)
    }

    @Test func equalScoresKeepTheirOrder() {
        let items = (0..<50).map { "item \($0)" }
        #expect(FuzzyMatch.ranked("item", items) { $0 } == items)
        #expect(FuzzyMatch.ranked("", items) { $0 } == items)
    }

    @Test func hostileUnicodeIsMatchedByWholeGraphemes() {
        let flag = "🇯🇵"
        let family = "👨‍👩‍👧‍👦"
        let stacked = "e\u{301}\u{302}\u{303}"
        let candidate = "profile \(flag) Tokyo \(family) \(stacked) \u{202E}rtl\u{202C} \u{200B}zw"
        #expect(FuzzyMatch.score(flag, in: candidate) != nil)
        #expect(FuzzyMatch.score("🇯", in: candidate) == nil)  // half a flag is not a character of the text
        #expect(FuzzyMatch.score(family, in: candidate) != nil)
        #expect(FuzzyMatch.score("👨", in: candidate) == nil)  // nor is one person of a family
        #expect(FuzzyMatch.score(stacked, in: candidate) != nil)
        #expect(FuzzyMatch.score("e", in: "\(stacked)") == nil)
        #expect(FuzzyMatch.score("rtl", in: candidate) != nil)
        // Whatever the text, scoring never traps and ranking keeps every match exactly once.
        let hostile = [
            flag, family, stacked, "\u{1B}[31m", "\u{0}\u{7F}\u{85}", String(repeating: "w", count: 400), "İstanbul",
            "ß", "\u{FEFF}", "🇯🇵🇯", "a\u{200D}b",
        ]
        for query in hostile + ["i", "ss", "w", ""] {
            let ranked = FuzzyMatch.ranked(query, hostile) { $0 }
            #expect(Set(ranked).count == ranked.count)
            for item in ranked { #expect(FuzzyMatch.score(query, in: item) != nil) }
        }
    }
}
