import Glibc
import MischiefConsole
@testable import MischiefCurses
import Testing

@Suite struct CursesTerminalTests {
    @Test(.enabled(if: isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0, "needs a non-TTY stdin or stdout"))
    func startFailsClearlyWithoutATTY() {
        let terminal = CursesTerminal()
        #expect(throws: CursesTerminalError.self) {
            try terminal.start(onKey: { _ in }, onResize: { _, _ in })
        }
        do {
            try terminal.start(onKey: { _ in }, onResize: { _, _ in })
        } catch {
            #expect("\(error)".contains("is not one"))
        }
        terminal.stop()  // stopping a terminal that never started is harmless
        terminal.draw(CellGrid(width: 1, height: 1, fill: .background))  // and so is drawing
        #expect(terminal.depth == nil)
    }

    @Test func errorMessagesNameTheProblem() {
        #expect("\(CursesTerminalError.missingTerm)".contains("TERM"))
        #expect("\(CursesTerminalError.unknownTerm("bogus"))".contains("'bogus'"))
    }

    @Test func terminalCharactersFollowTheCLibrary() {
        _ = setlocale(LC_CTYPE, "C.UTF-8")
        #expect(CursesCellText.terminalCharacters("a") == ([0x61], 1))
        #expect(CursesCellText.terminalCharacters("東") == ([0x6771], 2))
        #expect(CursesCellText.terminalCharacters("e\u{301}") == ([0x65, 0x301], 1))
        #expect(CursesCellText.terminalCharacters("") == ([0x20], 1))
        // ZWJ sequences are cut to their first emoji; U+FE0F is dropped where the C library says narrow.
        #expect(CursesCellText.terminalCharacters("👩\u{200D}💻").characters == [0x1F469])
        #expect(CursesCellText.terminalCharacters("❤\u{FE0F}") == ([0x2764], 1))
    }
}
