import CMischiefTerminal
import CNcurses
import Glibc

/// Giving the terminal back to the shell and taking it again, for job control (SIGTSTP, SIGCONT).
extension CursesScreen {
    /// Leaves curses mode for now: the normal screen, the cursor and the terminal modes the shell had.
    ///
    /// The session stays open; ``reenter()`` takes the terminal again.
    func leave() {
        guard isOpen else { return }
        setBracketedPaste(false)
        endwin()
        mischief_terminal_restore_termios()
    }

    /// Takes the terminal again after ``leave()``, or after the process was stopped and continued by someone else
    /// (whose shell may have changed the terminal meanwhile): program mode, the alternate screen, the latest frame
    /// redrawn in full at the terminal's current size.
    ///
    /// - Returns: whether the size changed while the terminal was away.
    func reenter() -> Bool {
        guard isOpen else { return false }
        // After endwin, the next update puts ncurses' program mode and the alternate screen back.
        doupdate()
        let resized = syncSize()
        if !resized {
            handleResize()
        }
        doupdate()
        setBracketedPaste(true)
        return resized
    }
}
