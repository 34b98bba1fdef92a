import MischiefConsole
import Testing

@Suite struct CellGridTests {
    private let text = Style(.text)
    private let title = Style(.title)

    @Test func startsBlank() {
        let grid = CellGrid(width: 3, height: 2, fill: .background)
        #expect(grid.text == "\n")
        #expect(grid.roles == "...\n...")
        #expect(grid[2, 1] == Cell(" ", style: .background))
    }

    @Test func putWritesAndReportsColumns() {
        var grid = CellGrid(width: 10, height: 1, fill: .background)
        #expect(grid.put("abc", x: 1, y: 0, style: text) == 3)
        #expect(grid.text == " abc")
        #expect(grid.roles == ".ttt......")
    }

    @Test func putClipsToMaxWidthAndGrid() {
        var grid = CellGrid(width: 6, height: 2, fill: .background)
        #expect(grid.put("abcdef", x: 0, y: 0, style: text, maxWidth: 3) == 3)
        #expect(grid.put("abcdef", x: 3, y: 1, style: text) == 3)
        #expect(grid.text == "abc\n   abc")
        #expect(grid.put("zzz", x: 0, y: 5, style: text) == 0)  // row outside
        #expect(grid.put("zzz", x: 0, y: 0, style: text, maxWidth: 0) == 0)
    }

    @Test func wideGraphemesTakeTwoCells() {
        var grid = CellGrid(width: 8, height: 1, fill: .background)
        #expect(grid.put("東京!", x: 0, y: 0, style: text) == 5)
        #expect(grid[0, 0].text == "東")
        #expect(grid[1, 0].text == "")
        #expect(grid[1, 0].isContinuation)
        #expect(grid[2, 0].text == "京")
        #expect(grid[4, 0].text == "!")
        #expect(grid.text == "東京!")
        #expect(grid.roles == "ttttt...")
    }

    @Test func wideGraphemeCutAtClipEdgeBecomesSpace() {
        var grid = CellGrid(width: 8, height: 1, fill: .background)
        #expect(grid.put("a東京", x: 0, y: 0, style: text, maxWidth: 4) == 4)
        #expect(grid[3, 0] == Cell(" ", style: text))
        #expect(grid.text == "a東")
        #expect(grid.roles == "tttt....")

        var edge = CellGrid(width: 3, height: 1, fill: .background)
        #expect(edge.put("a🌋", x: 1, y: 0, style: text) == 2)  // cut by the grid's right edge
        #expect(edge.text == " a")
        #expect(edge.roles == ".tt")
    }

    @Test func overwritingHalfAWideGraphemeBlanksTheOtherHalf() {
        var grid = CellGrid(width: 6, height: 1, fill: .background)
        grid.put("東京", x: 0, y: 0, style: text)
        grid.put("x", x: 1, y: 0, style: title)  // right half of 東
        #expect(grid[0, 0] == Cell(" ", style: text))
        #expect(grid[1, 0] == Cell("x", style: title))
        grid.put("y", x: 2, y: 0, style: title)  // left half of 京
        #expect(grid[3, 0] == Cell(" ", style: text))
        #expect(grid.text == " xy")
    }

    @Test func combiningAndControlCharacters() {
        var grid = CellGrid(width: 6, height: 1, fill: .background)
        #expect(grid.put("e\u{301}a\u{7}b", x: 0, y: 0, style: text) == 4)
        #expect(grid[0, 0].text == "e\u{301}")
        #expect(grid[2, 0].text == "\u{FFFD}")
        #expect(grid.text == "e\u{301}a\u{FFFD}b")
        // A leading combining mark attaches to nothing and is dropped; later ones attach to the previous cell.
        #expect(grid.put("\u{301}z", x: 5, y: 0, style: text) == 1)
        #expect(grid[5, 0].text == "z")
    }

    /// Presets 4 and 6 of the demo put bidirectional controls, zero-width characters and lone marks in target text;
    /// the grid joined each to the cell before, so a cell held several graphemes (and the terminal crashed on it).
    @Test func everyCellHoldsOnePrintableGrapheme() {
        let hostile = "\u{200F}\u{202E}Hi\u{202C}\u{200F} x\u{200B}y\u{0600}\u{2060}z\u{1B}[0m"
        InvisibleMarks.$areShown.withValue(false) {
            var grid = CellGrid(width: 12, height: 1, fill: .background)
            let written = grid.put(hostile, x: 0, y: 0, style: text)
            #expect(written == 10)
            #expect(grid.text == "Hi xyz\u{FFFD}[0m")
            for x in 0..<grid.width {
                #expect(grid[x, 0].text.count == 1, "cell \(x): \(grid[x, 0].text.unicodeScalars.map(\.value))")
            }
            // A lone variation selector would make "☺" wide without a second cell: it is dropped instead.
            #expect(grid.put("☺\u{200B}\u{FE0F}!", x: 0, y: 0, style: text) == 2)
            #expect(grid[0, 0].text == "☺" && grid[1, 0].text == "!")
        }
        // With marks shown (the default), the invisible characters are marks of one character a cell.
        var grid = CellGrid(width: 60, height: 1, fill: .background)
        #expect(grid.put(hostile, x: 0, y: 0, style: text) == 40)
        #expect(grid.text == "⟨RLM⟩⟨RLO⟩Hi⟨PDF⟩⟨RLM⟩ x⟨ZWSP⟩y⟨WJ⟩z\u{FFFD}[0m")
        for x in 0..<grid.width {
            #expect(grid[x, 0].text.count == 1, "cell \(x): \(grid[x, 0].text.unicodeScalars.map(\.value))")
        }
        #expect(grid.put("☺\u{200B}\u{FE0F}!", x: 0, y: 0, style: text) == 8)
        #expect(grid[0, 0].text == "☺" && grid[1, 0].text == "⟨" && grid[7, 0].text == "!")
    }

    @Test func negativeXClipsOnTheLeft() {
        var grid = CellGrid(width: 4, height: 1, fill: .background)
        #expect(grid.put("東ab", x: -1, y: 0, style: text) == 4)
        #expect(grid.text == " ab")
        #expect(grid.roles == "ttt.")
    }

    @Test func fillClips() {
        var grid = CellGrid(width: 4, height: 3, fill: .background)
        grid.fill(x: 2, y: 1, width: 10, height: 10, style: Style(.selection))
        #expect(grid.roles == "....\n..ss\n..ss")
    }

    @Test func boxWithTitle() {
        var grid = CellGrid(width: 12, height: 4, fill: .background)
        grid.box(x: 0, y: 0, width: 12, height: 4, style: Style(.border), title: "Faults")
        #expect(
            grid.text == """
                ┌─ Faults ─┐
                │          │
                │          │
                └──────────┘
                """)
        #expect(
            grid.roles == """
                bbbbbbbbbbbb
                b..........b
                b..........b
                bbbbbbbbbbbb
                """)
    }

    @Test func boxTruncatesLongTitlesAndClips() {
        var grid = CellGrid(width: 10, height: 3, fill: .background)
        grid.box(x: 0, y: 0, width: 10, height: 3, style: Style(.border), title: "A very long title")
        #expect(grid.text.split(separator: "\n").first == "┌─ A v… ─┐")
        var clipped = CellGrid(width: 4, height: 2, fill: .background)
        clipped.box(x: 1, y: 0, width: 6, height: 5, style: Style(.border), title: nil)
        #expect(clipped.text == " ┌──\n │")
    }

    @Test func snapshotsOfMixedContent() {
        var grid = CellGrid(width: 10, height: 2, fill: .background)
        grid.put("🌋 ok", x: 0, y: 0, style: Style(.warning))
        grid.put("err", x: 7, y: 1, style: Style(.error))
        grid.put("A", x: 0, y: 1, style: Style(.accent))
        #expect(grid.text == "🌋 ok\nA      err")
        #expect(grid.roles == "wwwww.....\nA......eee")
    }

    @Test func rolesHaveDistinctSnapshotCharacters() {
        let characters = StyleRole.allCases.map(\.snapshotCharacter)
        #expect(Set(characters).count == StyleRole.allCases.count)
    }
}
