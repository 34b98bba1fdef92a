import Foundation
import Mischief
import Testing

@testable import MischiefConsole

/// Invisible characters a target sends (bidirectional controls, zero-width spaces) are drawn as dim marks such as
/// `⟨RLO⟩`, counted in every width, never passed to the terminal as they are, and hidden with `I`.
@Suite struct InvisibleMarksTests {
    typealias F = ConsoleFixtures

    /// Every scalar shown as a mark, in one string.
    static let marked =
        "\u{00AD}\u{061C}\u{200B}\u{200C}\u{200D}\u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}"
        + "\u{202E}\u{2060}\u{2066}\u{2067}\u{2068}\u{2069}\u{FEFF}"

    func grid(_ text: String, width: Int = 40, style: Style = .text) -> CellGrid {
        var grid = CellGrid(width: width, height: 1, fill: .background)
        grid.put(text, x: 0, y: 0, style: style)
        return grid
    }

    /// Whether any cell holds a character that should have become a mark (an emoji's joiner aside).
    func holdsRawInvisible(_ grid: CellGrid) -> Bool {
        (0..<grid.height).contains { y in
            grid.row(y).contains { cell in
                cell.text.contains { InvisibleMarks.split($0) != nil }
            }
        }
    }

    @Test func bidiControlsShowAsDimMarksThatTakeTheirColumns() {
        let text = "\u{200F}\u{202E}Welcome"
        let grid = grid(text)
        #expect(grid.text == "⟨RLM⟩⟨RLO⟩Welcome")
        #expect(DisplayWidth.of(text) == 17)
        #expect((0..<10).allSatisfy { grid[$0, 0].style.role == .muted })
        #expect(grid[10, 0].style.role == .text)
        #expect(!holdsRawInvisible(grid))
    }

    @Test func everyNamedInvisibleCharacterGetsAMark() {
        let names = Self.marked.unicodeScalars.map { InvisibleMarks.name(of: $0) }
        #expect(!names.contains(nil))
        let spaced = Self.marked.unicodeScalars.map { "x\($0)" }.joined()
        let grid = grid(spaced, width: 200)
        for name in names.compactMap({ $0 }) { #expect(grid.text.contains("⟨\(name)⟩"), "\(name)") }
        #expect(DisplayWidth.of(spaced) == DisplayWidth.of(grid.text))
        #expect(!holdsRawInvisible(grid))
    }

    @Test func anEmojiJoinerStaysJoinedAndAStrayOneIsMarked() {
        let coder = "👩\u{200D}💻"
        let emoji = grid(coder)
        #expect(emoji.text == coder)
        #expect(DisplayWidth.of(coder) == 2)
        let stray = grid("a\u{200D}b\u{200C}c")
        #expect(stray.text == "a⟨ZWJ⟩b⟨ZWNJ⟩c")
        #expect(DisplayWidth.of("a\u{200D}b\u{200C}c") == 14)
    }

    @Test func hiddenMarksTakeNoColumnAndStillNeverReachTheTerminal() {
        InvisibleMarks.$areShown.withValue(false) {
            let grid = grid("\u{200F}\u{202E}We\u{AD}lcome a\u{200D}b")
            #expect(grid.text == "Welcome ab")
            #expect(DisplayWidth.of("\u{200F}\u{202E}We\u{AD}lcome a\u{200D}b") == 10)
            #expect(!holdsRawInvisible(grid))
            #expect(self.grid("👩\u{200D}💻").text == "👩\u{200D}💻")
        }
    }

    @Test func aMarkIsCutAtTheClipEdgeAndTruncationCountsIt() {
        var grid = CellGrid(width: 10, height: 1, fill: .background)
        #expect(grid.put("ab\u{202E}cd", x: 0, y: 0, style: .text, maxWidth: 4) == 4)
        #expect(grid.text == "ab⟨R")
        #expect(DisplayWidth.truncate("ab\u{202E}cd", to: 6, ellipsis: true) == "ab…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("ab\u{202E}cd", to: 8, ellipsis: true)) <= 8)
    }

    @Test func asciiTerminalsDrawTheMarksWithAngleBrackets() {
        #expect(ASCIIFallback.character(for: "⟨") == "<")
        #expect(ASCIIFallback.character(for: "⟩") == ">")
    }

    /// The fixture's state with a right-to-left target view and a seam title holding a control.
    func rightToLeftState(rows: Int = 40, columns: Int = 120) -> ConsoleState {
        var state = F.state(rows: rows, columns: columns)
        var data = F.data()
        data.view = TargetView(
            title: "Weather",
            lines: [
                .init("\u{200F}\u{202E}Welcome back, Ada", role: "title"),
                .init("zero\u{200B}width and a soft hy\u{AD}phen"),
                .init("👩\u{200D}💻 at work"),
            ])
        data.events.append(
            Event(
                id: 11, time: .seconds(3_710), kind: .applied, seam: "l10n.strings", source: "profile Right-to-left",
                message: "rtl\u{202E}(override)"))
        state.show(data)
        return state
    }

    @Test func theTargetPaneShowsTheMarksAndIHidesThem() throws {
        var state = rightToLeftState()
        #expect(state.showsInvisibleMarks)
        let shown = Console.render(state, size: state.size, theme: .standard)
        #expect(shown.text.contains("⟨RLM⟩⟨RLO⟩Welcome back, Ada"), "\(shown.text)")
        #expect(shown.text.contains("zero⟨ZWSP⟩width and a soft hy⟨SHY⟩phen"))
        #expect(shown.text.contains("👩\u{200D}💻 at work") && !shown.text.contains("⟨ZWJ⟩"))
        #expect(!holdsRawInvisible(shown))
        _ = F.press([.character("I")], &state)
        #expect(!state.showsInvisibleMarks)
        #expect(state.message?.text.contains("I shows them") == true)
        let hidden = Console.render(state, size: state.size, theme: .standard)
        #expect(hidden.text.contains("Welcome back, Ada") && !hidden.text.contains("⟨"))
        #expect(!holdsRawInvisible(hidden))
        _ = F.press([.character("I")], &state)
        #expect(Console.render(state, size: state.size, theme: .standard).text.contains("⟨RLO⟩"))
    }

    @Test func eventTextsShowTheMarksToo() throws {
        var state = rightToLeftState()
        _ = F.press([.character("e")], &state)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("rtl⟨RLO⟩(override)"), "\(text)")
    }

    @Test(arguments: [ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 40, columns: 120)])
    func marksNeverPushTextOverAPaneBorder(size: ScreenSize) throws {
        var state = F.state(rows: size.rows, columns: size.columns)
        var data = F.data()
        let controls = String(repeating: "\u{202E}\u{200F}", count: 20)
        data.view = TargetView(title: "T\u{202E}itle", lines: [.init(controls + "end"), .init("plain")])
        state.show(data)
        let grid = Console.render(state, size: size, theme: .standard)
        let rows = grid.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let plain = try #require(rows.firstIndex { $0.contains("plain") })
        let marked = plain - 1
        // The pane's right border stands in the same column on both rows.
        let border = try #require((0..<grid.width).last { grid[$0, plain].text == "│" })
        #expect(grid[border, marked].text == "│", "\n\(rows[marked])\n\(rows[plain])")
        #expect(rows[marked].contains("⟨RLO⟩⟨RLM⟩"))
        #expect(!holdsRawInvisible(grid))
    }

    @Test func theHelpListsTheKey() {
        var state = F.state(rows: 60, columns: 120)
        _ = F.press([.character("?")], &state)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("show or hide invisible characters"), "\(text)")
    }
}
