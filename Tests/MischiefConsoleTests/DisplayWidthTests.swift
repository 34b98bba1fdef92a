import MischiefConsole
import Testing

@Suite struct DisplayWidthTests {
    @Test func ascii() {
        #expect(DisplayWidth.of(Character("a")) == 1)
        #expect(DisplayWidth.of("hello, world") == 12)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func cjkAndHangulAndKana() {
        #expect(DisplayWidth.of(Character("東")) == 2)
        #expect(DisplayWidth.of("東京") == 4)
        #expect(DisplayWidth.of(Character("한")) == 2)
        #expect(DisplayWidth.of(Character("ひ")) == 2)
        #expect(DisplayWidth.of(Character("カ")) == 2)
        #expect(DisplayWidth.of(Character("ｶ")) == 1)  // halfwidth katakana
    }

    @Test func fullwidthForms() {
        #expect(DisplayWidth.of(Character("Ａ")) == 2)  // U+FF21
        #expect(DisplayWidth.of(Character("！")) == 2)  // U+FF01
        #expect(DisplayWidth.of(Character("￥")) == 2)  // U+FFE5
    }

    @Test func emoji() {
        #expect(DisplayWidth.of(Character("🌋")) == 2)
        #expect(DisplayWidth.of(Character("⚡")) == 2)  // U+26A1 has emoji presentation
        #expect(DisplayWidth.of(Character("❤")) == 1)  // text presentation by default
        #expect(DisplayWidth.of(Character("❤\u{FE0F}")) == 2)  // U+FE0F forces emoji presentation
        #expect(DisplayWidth.of(Character("🇯🇵")) == 2)  // regional indicator pair
        #expect(DisplayWidth.of(Character("👍🏽")) == 2)  // skin tone modifier
    }

    @Test func combiningMarksAddNothing() {
        let decomposed = Character("e\u{301}")
        #expect(DisplayWidth.of(decomposed) == 1)
        #expect(DisplayWidth.of("caf" + "e\u{301}") == 4)
        #expect(DisplayWidth.of(Character("\u{301}")) == 0)  // a lone combining mark
        #expect(DisplayWidth.of(Character("\u{1100}\u{1161}\u{11A8}")) == 2)  // decomposed Hangul syllable
    }

    @Test func zwjSequencesAreOneWideCluster() {
        #expect(DisplayWidth.of(Character("👩\u{200D}💻")) == 2)
        #expect(DisplayWidth.of(Character("👨\u{200D}👩\u{200D}👧")) == 2)
        #expect(DisplayWidth.of("\u{200D}") == 5)  // a joiner joining nothing is shown: ⟨ZWJ⟩
        #expect(InvisibleMarks.$areShown.withValue(false) { DisplayWidth.of("\u{200D}") } == 0)
    }

    /// Widths are those of the cells the grid writes: a control shows as U+FFFD, invisible characters take their
    /// marks' columns (none while marks are hidden), removed format characters and lone marks take nothing.
    @Test func controlsTakeTheirReplacementsColumn() {
        #expect(DisplayWidth.of(Character("\u{7}")) == 1)
        #expect(DisplayWidth.of(Character("\u{1B}")) == 1)
        #expect(DisplayWidth.of(Character("\u{9B}")) == 1)
        #expect(DisplayWidth.of(Character("\r\n")) == 1)
        #expect(DisplayWidth.of("\u{200F}\u{202E}ab\u{202C}\u{200F}") == 22)  // ⟨RLM⟩⟨RLO⟩ab⟨PDF⟩⟨RLM⟩
        #expect(DisplayWidth.of("a\u{200B}b\u{2060}c\u{FEFF}") == 18)  // a⟨ZWSP⟩b⟨WJ⟩c⟨BOM⟩
        InvisibleMarks.$areShown.withValue(false) {
            #expect(DisplayWidth.of("\u{200F}\u{202E}ab\u{202C}\u{200F}") == 2)
            #expect(DisplayWidth.of("a\u{200B}b\u{2060}c\u{FEFF}") == 3)
        }
        #expect(DisplayWidth.ofCell("\u{202E}") == 0)  // a cell never holds one: its mark is cells of its own
        #expect(DisplayWidth.of(Character("\u{0600}5")) == 1)  // a prepended Arabic sign is removed
    }

    @Test func onlyTheFirstScalarsOfAClusterCount() {
        let marks = String(repeating: "\u{301}", count: CellText.maxScalars)
        #expect(DisplayWidth.of(Character("a" + marks + "\u{FE0F}")) == 1)
        #expect(DisplayWidth.of(Character("a\u{301}\u{FE0F}")) == 2)
    }

    @Test func truncate() {
        #expect(DisplayWidth.truncate("hello", to: 10, ellipsis: true) == "hello")
        #expect(DisplayWidth.truncate("hello", to: 5, ellipsis: true) == "hello")
        #expect(DisplayWidth.truncate("hello", to: 4, ellipsis: true) == "hel…")
        #expect(DisplayWidth.truncate("hello", to: 4, ellipsis: false) == "hell")
        #expect(DisplayWidth.truncate("東京都", to: 4, ellipsis: false) == "東京")
        #expect(DisplayWidth.truncate("東京都", to: 5, ellipsis: true) == "東京…")
        #expect(DisplayWidth.truncate("東京都", to: 4, ellipsis: true) == "東…")  // one column left unused
        #expect(DisplayWidth.truncate("e\u{301}tude", to: 3, ellipsis: true) == "e\u{301}t…")
        #expect(DisplayWidth.truncate("hello", to: 0, ellipsis: true) == "")
        #expect(DisplayWidth.truncate("hello", to: 1, ellipsis: true) == "…")
    }
}
