import Foundation
import Mischief
import Testing

@testable import MischiefConsole

/// The screen uses its space and shows what matters without colour or UTF-8: help columns, focus, ASCII stand-ins.
@Suite struct ConsoleScreenTests {
    typealias F = ConsoleFixtures

    static let sizes = [
        ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 40, columns: 120), ScreenSize(rows: 60, columns: 200),
    ]

    func name(_ base: String, _ size: ScreenSize) -> String { "\(base)-\(size.columns)x\(size.rows)" }

    /// Every help screen, scrolled from the top to the bottom, as one text.
    func helpText(_ size: ScreenSize) -> String {
        var state = F.state(rows: size.rows, columns: size.columns)
        _ = F.press([.character("?")], &state)
        var pages: [String] = []
        for _ in 0..<(HelpView.lineCount(size) / max(1, size.rows - 3) + 2) {
            pages.append(Console.render(state, size: size, theme: .standard).text)
            _ = F.press([.pageDown], &state)
        }
        return pages.joined(separator: "\n")
    }

    @Test(arguments: sizes) func theHelpCutsNothingAndGrowsColumnsWithTheScreen(size: ScreenSize) {
        var state = F.state(rows: size.rows, columns: size.columns)
        _ = F.press([.character("?")], &state)
        let grid = Console.render(state, size: size, theme: .standard)
        assertSnapshot(grid, named: name("help", size))
        let text = helpText(size)
        #expect(!text.replacingOccurrences(of: "1 … 9", with: "").contains("…"), "a description is cut")
        // Every word of every description is on some page.
        let words = Set(text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "│" }).map(String.init))
        for section in KeyBindings.helpSections {
            for row in section.rows {
                for word in row.help.split(separator: " ") { #expect(words.contains(String(word)), "\(word)") }
            }
        }
        // Every mode's keys are more than these screens hold: the help takes as many columns as the width allows,
        // and scrolls, with a marker.
        #expect(HelpView.layout(size).count == HelpView.maxColumnCount(screenColumns: size.columns))
        #expect(HelpView.lineCount(size) > size.rows - 3)
        #expect(grid.text.split(separator: "\n")[size.rows - 2].contains("↓"))
        // Side by side, the sections take well under two thirds of the height they take in one column.
        let wideShort = ScreenSize(rows: 24, columns: 200)
        #expect(HelpView.layout(wideShort).count == 3)
        #expect(HelpView.lineCount(wideShort) * 3 < HelpView.layout(columns: 200, count: 1).map(\.count).max()! * 2)
    }

    @Test func theFocusedPaneIsMarkedInItsTitleWithoutColour() {
        var state = F.state(rows: 40, columns: 120)
        let list = Console.render(state, size: state.size, theme: .monochrome).text
        #expect(list.contains("┌─ ▶ Seams · 12 "))
        #expect(!list.contains("▶ clock.now"))
        _ = F.press([.tab], &state)
        let detail = Console.render(state, size: state.size, theme: .monochrome).text
        #expect(detail.contains("┌─ Seams · 12 "))
        #expect(detail.contains("┌─ ▶ clock.now "))
        _ = F.press([.tab], &state)
        let target = Console.render(state, size: state.size, theme: .monochrome).text
        #expect(target.filter { $0 == "▶" }.count == 1)
    }

    @Test func theConsolesOwnSymbolsHaveASCIIStandIns() {
        let symbols = "─│┌┐└┘●○◐·…↑↓←→▶␣⏎—▁▂▃▄▅▆▇█"
        let ascii = String(String.UnicodeScalarView(symbols.unicodeScalars.compactMap(ASCIIFallback.character)))
        #expect(ascii == "-|++++*o%.~^v<>>_<-.:-=+*#%")
        // Target text has none: it stays a replacement character.
        #expect(ASCIIFallback.character(for: "東") == nil)
        #expect(ASCIIFallback.character(for: "☀") == nil)
        // Every symbol the main screen draws itself has one.
        var state = F.state(rows: 40, columns: 120)
        _ = F.press([.character("p")], &state)
        let screens = [F.state(rows: 40, columns: 120), state].map {
            Console.render($0, size: $0.size, theme: .standard)
        }
        for grid in screens {
            for y in [0, 2, 3, grid.height - 1] {
                for x in 0..<grid.width {
                    for scalar in grid[x, y].text.unicodeScalars where !scalar.isASCII {
                        #expect(ASCIIFallback.character(for: scalar) != nil, "\(scalar) at \(x),\(y)")
                    }
                }
            }
        }
    }
}
