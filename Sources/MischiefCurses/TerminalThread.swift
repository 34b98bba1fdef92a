import CMischiefTerminal
import Glibc

/// A detached POSIX thread with a name, used so the terminal never runs on Swift's cooperative pool.
enum TerminalThread {
    /// Boxes the body so it can cross the C boundary.
    private final class Body {
        let name: String
        let run: @Sendable () -> Void

        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Starts a detached thread named `name` (at most 15 bytes are kept) running `body`.
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws {
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
                mischief_terminal_name_thread(body.name)
                body.run()
                return nil
            }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw CursesTerminalError.system(call: "pthread_create", errno: result)
        }
        pthread_detach(thread)
    }
}
