import Glibc
import MischiefConsole
import Testing

@testable import MischiefCurses

@Suite struct CursesTerminalTests {
    @Test(.enabled(if: isatty(STDIN_FILENO) == 0 || isatty(STDOUT_FILENO) == 0, "needs a non-TTY stdin or stdout"))
    func startFailsClearlyWithoutATTY() {
        let terminal = CursesTerminal()
        #expect(throws: CursesTerminalError.self) {
            try terminal.start(onKey: { _ in }, onResize: { _ in })
        }
        do {
            try terminal.start(onKey: { _ in }, onResize: { _ in })
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
}
