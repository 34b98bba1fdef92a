import CMischiefTerminal
import Mischief

/// A detached POSIX thread with a name, used so the terminal never runs on Swift's cooperative pool.
enum TerminalThread {
    /// Starts a detached thread named `name` (at most 15 bytes are kept) running `body`.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws {
        let started = POSIXThread.start {
            mischief_terminal_name_thread(name)
            body()
        }
        switch started {
        case .success(let thread): thread.detach()
        case .failure(let error): throw CursesTerminalError.system(call: "pthread_create", errno: error.code)
        }
    }
}
