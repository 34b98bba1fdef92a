/// Why a ``CursesTerminal`` could not start.
public enum CursesTerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal.
    case notATerminal(stream: String)
    /// `TERM` is not set.
    case missingTerm
    /// ncurses does not know the terminal type.
    case unknownTerm(String)
    /// ``CursesTerminal/start(onKey:onResize:onSignal:)`` was called while running.
    case alreadyStarted
    /// A system call failed.
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .notATerminal(let stream):
            "the console needs a terminal, but \(stream) is not one (run it interactively, not through a pipe)"
        case .missingTerm:
            "the TERM environment variable is not set; set it to your terminal type (e.g. TERM=xterm-256color)"
        case .unknownTerm(let term):
            "unknown terminal type '\(term)' (no terminfo entry); set TERM to a known type such as xterm-256color"
        case .alreadyStarted:
            "the terminal is already started"
        case .system(let call, let errno):
            "\(call) failed (errno \(errno))"
        }
    }
}
