import Synchronization

/// An in-memory ``Terminal`` for tests: records drawn grids and lets a test push keys, resizes and signals.
///
/// Events pushed by the test are delivered synchronously on the caller's thread.
public final class MemoryTerminal: Terminal, Sendable {
    /// Mutable state guarded by the mutex.
    private struct State {
        var size: (width: Int, height: Int)
        var lastGrid: CellGrid?
        var drawCount = 0
        var isRunning = false
        var stopCount = 0
        var onKey: (@Sendable (Key) -> Void)?
        var onResize: (@Sendable (Int, Int) -> Void)?
        var onSignal: (@Sendable (TerminalSignal) -> Void)?
    }

    private let state: Mutex<State>

    /// Creates a terminal of the given size.
    public init(width: Int = 80, height: Int = 24) {
        state = Mutex(State(size: (width, height)))
    }

    public var size: (width: Int, height: Int) { state.withLock { $0.size } }

    /// The most recently drawn grid.
    public var lastGrid: CellGrid? { state.withLock { $0.lastGrid } }
    /// How many grids have been drawn.
    public var drawCount: Int { state.withLock { $0.drawCount } }
    /// Whether the terminal is between ``start(onKey:onResize:onSignal:)`` and ``stop()``.
    public var isRunning: Bool { state.withLock { $0.isRunning } }
    /// How many times ``stop()`` was called while running.
    public var stopCount: Int { state.withLock { $0.stopCount } }

    public func start(
        onKey: @escaping @Sendable (Key) -> Void,
        onResize: @escaping @Sendable (Int, Int) -> Void,
        onSignal: (@Sendable (TerminalSignal) -> Void)?
    ) throws {
        state.withLock {
            $0.isRunning = true
            $0.onKey = onKey
            $0.onResize = onResize
            $0.onSignal = onSignal
        }
    }

    public func draw(_ grid: CellGrid) {
        state.withLock {
            $0.lastGrid = grid
            $0.drawCount += 1
        }
    }

    public func stop() {
        state.withLock {
            if $0.isRunning {
                $0.stopCount += 1
            }
            $0.isRunning = false
        }
    }

    /// Delivers `key` to the key handler.
    public func push(_ key: Key) {
        let handler = state.withLock { $0.onKey }
        handler?(key)
    }

    /// Delivers each key of `keys` in order.
    public func push(_ keys: [Key]) {
        keys.forEach(push)
    }

    /// Changes the size and notifies the resize handler.
    public func resize(width: Int, height: Int) {
        let handler = state.withLock {
            $0.size = (width, height)
            return $0.onResize
        }
        handler?(width, height)
    }

    /// Delivers a termination signal to the signal handler (ignored if none was given).
    public func send(_ signal: TerminalSignal) {
        let handler = state.withLock { $0.onSignal }
        handler?(signal)
    }
}
