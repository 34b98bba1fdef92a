import MischiefConsole
import Testing

/// What target text becomes in cells: one printable grapheme cluster each, whatever the text holds.
@Suite struct CellTextTests {
    @Test func controlsAreShownAsReplacementCharacters() {
        #expect(CellText.classify("\u{1B}") == .cell("\u{FFFD}", width: 1))
        #expect(CellText.classify("\u{7F}") == .cell("\u{FFFD}", width: 1))
        #expect(CellText.classify("\u{9B}") == .cell("\u{FFFD}", width: 1))
        #expect(CellText.classify("\r\n") == .cell("\u{FFFD}", width: 1))
        #expect(CellText.classify("\t") == .cell(" ", width: 1))
        #expect(CellText.classify("\u{2028}") == .cell("\u{FFFD}", width: 1))
        #expect(CellText.classify("\u{2029}") == .cell("\u{FFFD}", width: 1))
    }

    @Test func formatAndBidirectionalControlsAreInvisible() {
        for scalar in [0x200B, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069, 0x061C, 0x2060, 0xFEFF, 0x0600] {
            let grapheme = Character(Unicode.Scalar(UInt32(scalar))!)
            #expect(CellText.classify(grapheme) == .invisible, "U+\(String(scalar, radix: 16))")
        }
        // The soft hyphen too: the grid draws it as the mark ⟨SHY⟩ (InvisibleMarks), never as itself.
        #expect(CellText.classify("\u{AD}") == .invisible)
    }

    @Test func loneMarksJoinOnlyWhenTheCellStaysOneGraphemeOfTheSameWidth() {
        #expect(CellText.classify("\u{301}") == .marks("\u{301}"))
        #expect(CellText.joining("\u{301}", to: "e") == "e\u{301}")
        #expect(CellText.joining("\u{301}", to: "") == nil)  // the right half of a wide grapheme
        #expect(CellText.joining("\u{FE0F}", to: "☺") == nil)  // would make it wide
        let tower = String(repeating: "\u{301}", count: CellText.maxScalars)
        #expect(CellText.joining(tower, to: "e") == nil)
    }

    @Test func clustersKeepTheirShape() {
        #expect(CellText.classify("🇵🇹") == .cell("🇵🇹", width: 2))
        #expect(CellText.classify("🇵") == .cell("🇵", width: 2))  // half a flag
        #expect(CellText.classify("👩‍👩‍👧‍👦") == .cell("👩‍👩‍👧‍👦", width: 2))
        #expect(CellText.classify("👍🏽") == .cell("👍🏽", width: 2))
        #expect(CellText.classify("東") == .cell("東", width: 2))
        #expect(CellText.classify("e\u{301}") == .cell("e\u{301}", width: 1))
    }

    @Test func towersOfMarksAreCut() {
        let grapheme = Character("a" + String(repeating: "\u{301}", count: 200))
        guard case .cell(let text, let width) = CellText.classify(grapheme) else {
            Issue.record("a cell expected")
            return
        }
        #expect(text.unicodeScalars.count == CellText.maxScalars)
        #expect(text.count == 1 && width == 1)
    }
}
