import CMischiefTerminal
import Dispatch
import Glibc
import MischiefConsole
import Synchronization

/// A full-screen ncurses ``Terminal``.
///
/// Threading: one dedicated POSIX thread (not the Swift cooperative pool) owns the ncurses session
/// (``CursesScreen``) and makes every ncurses call. The thread sleeps in `poll` on standard input and a
/// self-pipe; ``draw(_:)`` stores the grid and writes to the pipe, and the signal handlers (SIGINT, SIGTERM,
/// SIGHUP, SIGWINCH) write to the same pipe, so the thread wakes immediately on a key, a new frame or a signal
/// without busy polling. Only the latest pending grid is drawn. Callbacks run on the terminal thread; keep them
/// short.
///
/// Signals: SIGINT/SIGTERM/SIGHUP are caught and delivered to `onSignal`; the signals that dump core (SIGSEGV,
/// SIGABRT, SIGQUIT, …) restore the terminal, chain to the previous handler (the Swift backtracer) and end the
/// process with that signal; SIGTSTP gives the terminal back and stops, SIGCONT takes it again; SIGWINCH resizes;
/// SIGUSR1/SIGUSR2 are ignored unless the program handles them. See `CMischiefTerminal`.
///
/// `Sendable` without `@unchecked`: all shared state is in a `Mutex` or `Atomic`; the non-Sendable ncurses
/// session is confined to the terminal thread (see ``ConfinedScreen``).
public final class CursesTerminal: Terminal, Sendable {
    /// Lifecycle phase.
    private enum Phase {
        case idle, running, stopping, stopped
    }

    /// State shared between callers and the terminal thread.
    private struct Shared {
        var phase = Phase.idle
        var pendingGrid: CellGrid?
        var pendingPalette: Palette?
        var pendingClipboard: [String] = []
        var size = ScreenSize(rows: 0, columns: 0)
        var wakeFD: Int32 = -1
        var screen: ConfinedScreen?
        var depth: ColourDepth?
        var finished: DispatchGroup?
        /// Incremented by every start, so a finishing old thread cannot reset a newer session's state.
        var generation = 0
    }

    /// The palette the terminal started with; see ``setPalette(_:)``.
    public let palette: Palette
    /// The requested colour depth (`nil` = detect).
    public let requestedDepth: ColourDepth?
    private let shared = Mutex(Shared())
    private let stopRequested = Atomic<Bool>(false)
    private let wakePending = Atomic<Bool>(false)

    /// Creates a terminal that is not started yet.
    ///
    /// - Parameters:
    ///   - palette: how roles look.
    ///   - depth: the colour depth, or `nil` to detect it from the terminal (`COLORS`, `COLORTERM`). Either way it
    ///     is limited to what ncurses can emit for the terminal type (true colour needs a terminfo "direct" type
    ///     such as `xterm-direct`; otherwise RGB is mapped to the 256-colour palette).
    ///   - mouse: report clicks and the wheel as ``Key/mouse(_:)`` (`--no-mouse` turns it off).
    public init(palette: Palette = .standard, depth: ColourDepth? = nil, mouse: Bool = true) {
        self.palette = palette
        requestedDepth = depth
        self.mouse = mouse
    }

    /// Whether clicks and the wheel are reported.
    public let mouse: Bool

    public var size: ScreenSize {
        let current = shared.withLock { $0.phase == .running ? $0.size : nil }
        if let current {
            return current
        }
        var columns: Int32 = 0
        var rows: Int32 = 0
        if mischief_terminal_window_size(STDOUT_FILENO, &columns, &rows) == 0, columns > 0, rows > 0 {
            return ScreenSize(rows: Int(rows), columns: Int(columns))
        }
        return ScreenSize(rows: 24, columns: 80)
    }

    /// The colour depth in use while running (after detection and limiting), else `nil`.
    public var depth: ColourDepth? { shared.withLock { $0.depth } }

    /// Takes over the terminal (alternate screen, raw mode, hidden cursor) and starts the terminal thread.
    ///
    /// - Throws: ``CursesTerminalError`` when standard input or output is not a TTY, `TERM` is missing or
    ///   unknown, or the terminal is already running.
    public func start(
        onKey: @escaping @Sendable (Key) -> Void,
        onResize: @escaping @Sendable (ScreenSize) -> Void,
        onSignal: (@Sendable (TerminalSignal) -> Void)?
    ) throws {
        guard isatty(STDIN_FILENO) == 1 else { throw CursesTerminalError.notATerminal(stream: "standard input") }
        guard isatty(STDOUT_FILENO) == 1 else { throw CursesTerminalError.notATerminal(stream: "standard output") }
        guard let term = getenv("TERM"), term.pointee != 0 else { throw CursesTerminalError.missingTerm }
        var fds: [Int32] = [-1, -1]
        guard mischief_terminal_make_pipe(&fds) == 0 else {
            throw CursesTerminalError.system(call: "pipe2", errno: errno)
        }
        let (readFD, writeFD) = (fds[0], fds[1])
        let finished = DispatchGroup()
        let generation = try shared.withLock {
            guard $0.phase == .idle || $0.phase == .stopped else {
                close(readFD)
                close(writeFD)
                throw CursesTerminalError.alreadyStarted
            }
            $0.phase = .running
            $0.wakeFD = writeFD
            $0.pendingGrid = nil
            $0.finished = finished
            $0.generation += 1
            return $0.generation
        }
        stopRequested.store(false, ordering: .sequentiallyConsistent)
        wakePending.store(false, ordering: .sequentiallyConsistent)
        let handlers = Handlers(onKey: onKey, onResize: onResize, onSignal: onSignal)
        let opened = Mutex<Result<Void, CursesTerminalError>?>(nil)
        let openedSignal = DispatchSemaphore(value: 0)
        finished.enter()
        do {
            try TerminalThread.start(name: "mischief-tty") { [self] in
                defer { finished.leave() }
                run(readFD: readFD, writeFD: writeFD, generation: generation, handlers: handlers) { result in
                    opened.withLock { $0 = result }
                    openedSignal.signal()
                }
            }
        } catch {
            finished.leave()
            shared.withLock {
                guard $0.generation == generation else { return }
                $0.phase = .stopped
                $0.wakeFD = -1
            }
            close(readFD)
            close(writeFD)
            throw error
        }
        openedSignal.wait()
        if case .failure(let error) = opened.withLock({ $0 }) {
            finished.wait()
            throw error
        }
    }

    /// Draws roles with `palette` from the next frame on (a theme switch); the screen is redrawn in full.
    public func setPalette(_ palette: Palette) {
        post { $0.pendingPalette = palette }
    }

    public func draw(_ grid: CellGrid) {
        post { $0.pendingGrid = grid }
    }

    /// Sends `text` to the terminal's clipboard as OSC 52, after the next frame.
    public func copyToClipboard(_ text: String) {
        post { $0.pendingClipboard.append(text) }
    }

    /// Leaves work for the terminal thread and wakes it (once until it has looked).
    private func post(_ change: (inout Shared) -> Void) {
        shared.withLock {
            guard $0.phase == .running else { return }
            change(&$0)
            if !wakePending.exchange(true, ordering: .sequentiallyConsistent) {
                var byte: UInt8 = 0
                _ = write($0.wakeFD, &byte, 1)
            }
        }
    }

    /// Restores the terminal (leaves the alternate screen, shows the cursor, restores the original termios and
    /// signal handlers) and waits for the terminal thread to finish.
    ///
    /// Idempotent and callable from any thread, including from a callback on the terminal thread (then the
    /// terminal is restored before `stop` returns and the thread ends once the callback returns).
    public func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        let (finished, screen) = shared.withLock { state -> (DispatchGroup?, ConfinedScreen?) in
            if state.phase == .running {
                state.phase = .stopping
                var byte: UInt8 = 0
                _ = write(state.wakeFD, &byte, 1)
            }
            return (state.finished, state.screen)
        }
        if let screen, screen.isCurrentThread {
            screen.withScreen { $0.close() }
            markStopped()
            return
        }
        finished?.wait()
    }

    /// Marks the terminal stopped after the session was closed.
    private func markStopped() {
        shared.withLock {
            $0.phase = .stopped
            $0.screen = nil
            $0.depth = nil
        }
    }

    /// The callbacks given to ``start(onKey:onResize:onSignal:)``.
    private struct Handlers: Sendable {
        let onKey: @Sendable (Key) -> Void
        let onResize: @Sendable (ScreenSize) -> Void
        let onSignal: (@Sendable (TerminalSignal) -> Void)?
    }

    /// The terminal thread's body: opens the session, runs the event loop, closes the session.
    private func run(
        readFD: Int32, writeFD: Int32, generation: Int, handlers: Handlers,
        opened: (Result<Void, CursesTerminalError>) -> Void
    ) {
        let screen = CursesScreen(palette: palette, depth: requestedDepth, mouse: mouse)
        defer {
            screen.close()
            // Also when opening failed before the screen's own handlers were in place.
            mischief_terminal_signals_uninstall()
            shared.withLock {
                guard $0.generation == generation else { return }
                $0.wakeFD = -1
                $0.phase = .stopped
                $0.screen = nil
                $0.depth = nil
                $0.pendingGrid = nil
            }
            close(readFD)
            close(writeFD)
        }
        do {
            // Before the screen opens, so ncurses does not install its own SIGTSTP handler (which would run curses
            // calls on whatever thread the signal lands on).
            if mischief_terminal_job_control_install(writeFD) != 0 {
                throw CursesTerminalError.system(call: "sigaction (job control)", errno: errno)
            }
            try screen.open(wakeFD: writeFD)
        } catch let error as CursesTerminalError {
            opened(.failure(error))
            return
        } catch {
            opened(.failure(.system(call: "newterm", errno: 0)))
            return
        }
        let confined = ConfinedScreen(screen)
        shared.withLock {
            $0.size = screen.size
            $0.depth = screen.plan?.depth
            $0.screen = confined
        }
        opened(.success(()))
        loop(screen: screen, readFD: readFD, handlers: handlers)
    }

    /// Whether the loop should end.
    private func shouldStop(_ screen: CursesScreen) -> Bool {
        stopRequested.load(ordering: .sequentiallyConsistent) || !screen.isOpen
    }

    /// Waits for input, frames and signals and handles them until stopped.
    private func loop(screen: CursesScreen, readFD: Int32, handlers: Handlers) {
        var fds = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: readFD, events: Int16(POLLIN), revents: 0),
        ]
        var drain = [UInt8](repeating: 0, count: 64)
        while !shouldStop(screen) {
            // The timeout is only a safety net (e.g. a SIGWINCH that ncurses did not see).
            _ = poll(&fds, 2, 1000)
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && fds[0].revents & Int16(POLLIN) == 0 {
                // The terminal went away: behave like SIGHUP.
                deliver(.hangup, screen: screen, handlers: handlers)
                fds[0].fd = -1
            }
            while read(readFD, &drain, drain.count) > 0 {}
            let signals = mischief_terminal_take_signals()
            if shouldStop(screen) { break }
            for (bit, signal) in [
                (MISCHIEF_SIGNAL_INTERRUPT, TerminalSignal.interrupt), (MISCHIEF_SIGNAL_TERMINATE, .terminate),
                (MISCHIEF_SIGNAL_HANGUP, .hangup),
            ] where signals & bit != 0 {
                deliver(signal, screen: screen, handlers: handlers)
                if shouldStop(screen) { return }
            }
            var resized = jobControl(signals, screen: screen)
            // Characters read together go as one `.typed` key: one update and one frame for a whole unmarked paste.
            var run = TypedRun()
            screen.readKeys { key in
                if key == .resize {
                    resized = true
                } else {
                    run.add(key, emit: handlers.onKey)
                }
                return !shouldStop(screen)
            }
            run.flush(emit: handlers.onKey)
            if shouldStop(screen) { break }
            if signals & MISCHIEF_SIGNAL_WINCH != 0 || resized {
                _ = screen.syncSize()
                let size = screen.size
                shared.withLock { $0.size = size }
                handlers.onResize(size)
                if shouldStop(screen) { break }
            }
            wakePending.store(false, ordering: .sequentiallyConsistent)
            if let palette = shared.withLock({ state -> Palette? in
                defer { state.pendingPalette = nil }
                return state.pendingPalette
            }) {
                screen.setPalette(palette)
            }
            if let grid = shared.withLock({ state -> CellGrid? in
                defer { state.pendingGrid = nil }
                return state.pendingGrid
            }) {
                screen.draw(grid)
            }
            for text in shared.withLock({ state -> [String] in
                defer { state.pendingClipboard = [] }
                return state.pendingClipboard
            }) {
                screen.send(CursesScreen.clipboardSequence(text))
            }
        }
    }

    /// SIGTSTP: gives the terminal back to the shell, stops, and takes it again when continued; SIGCONT alone
    /// (stopped and continued by someone else): takes the terminal again, as the shell may have changed it.
    ///
    /// - Returns: whether the size changed meanwhile.
    private func jobControl(_ signals: Int32, screen: CursesScreen) -> Bool {
        guard signals & (MISCHIEF_SIGNAL_SUSPEND | MISCHIEF_SIGNAL_CONTINUE) != 0 else { return false }
        screen.leave()
        if signals & MISCHIEF_SIGNAL_SUSPEND != 0 {
            mischief_terminal_stop_self()
        }
        return screen.reenter()
    }

    /// Hands a termination signal to the owner, or by default restores the terminal and exits.
    private func deliver(_ signal: TerminalSignal, screen: CursesScreen, handlers: Handlers) {
        if let onSignal = handlers.onSignal {
            onSignal(signal)
        } else {
            screen.close()
            markStopped()
            exit(signal.exitStatus)
        }
    }
}

/// The ncurses session, reachable from other threads only to check whether they are its thread.
///
/// `@unchecked Sendable` is sound because ``withScreen(_:)`` only runs on the thread that created the box (the
/// terminal thread), which is the only thread that ever touches the `CursesScreen`.
final class ConfinedScreen: @unchecked Sendable {
    private let screen: CursesScreen
    private let owner: pthread_t

    /// Boxes `screen`, owned by the current thread.
    init(_ screen: CursesScreen) {
        self.screen = screen
        owner = pthread_self()
    }

    /// Whether the caller is on the owning thread.
    var isCurrentThread: Bool { pthread_equal(owner, pthread_self()) != 0 }

    /// Runs `body` with the screen if called on the owning thread; otherwise returns `nil`.
    func withScreen<Result>(_ body: (CursesScreen) -> Result) -> Result? {
        guard isCurrentThread else { return nil }
        return body(screen)
    }
}
