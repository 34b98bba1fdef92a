import Synchronization

/// An in-memory ``Terminal`` for tests: records drawn grids and lets a test push keys, resizes and signals.
///
/// Events pushed by the test are delivered synchronously on the caller's thread.
public final class MemoryTerminal: Terminal, Sendable {
    /// Mutable state guarded by the mutex.
    private struct State {
        var size: ScreenSize
        var lastGrid: CellGrid?
        var drawCount = 0
        var isRunning = false
        var stopCount = 0
        var clipboard: [String] = []
        var onKey: (@Sendable (Key) -> Void)?
        var onResize: (@Sendable (ScreenSize) -> Void)?
        var onSignal: (@Sendable (TerminalSignal) -> Void)?
        var waiters:
            [Int: (matches: @Sendable (CellGrid) -> Bool, continuation: CheckedContinuation<CellGrid?, Never>)] = [:]
        var nextWaiter = 0
    }

    private let state: Mutex<State>

    /// Creates a terminal of the given size.
    public init(size: ScreenSize = ScreenSize(rows: 24, columns: 80)) {
        state = Mutex(State(size: size))
    }

    public var size: ScreenSize { state.withLock { $0.size } }

    /// The most recently drawn grid.
    public var lastGrid: CellGrid? { state.withLock { $0.lastGrid } }
    /// How many grids have been drawn.
    public var drawCount: Int { state.withLock { $0.drawCount } }
    /// Whether the terminal is between ``start(onKey:onResize:onSignal:)`` and ``stop()``.
    public var isRunning: Bool { state.withLock { $0.isRunning } }
    /// How many times ``stop()`` was called while running.
    public var stopCount: Int { state.withLock { $0.stopCount } }
    /// Every text put on the clipboard, oldest first.
    public var clipboard: [String] { state.withLock { $0.clipboard } }

    public func copyToClipboard(_ text: String) {
        state.withLock { $0.clipboard.append(text) }
    }

    public func start(
        onKey: @escaping @Sendable (Key) -> Void,
        onResize: @escaping @Sendable (ScreenSize) -> Void,
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
        let ready = state.withLock { state in
            state.lastGrid = grid
            state.drawCount += 1
            let ready = state.waiters.filter { $0.value.matches(grid) }
            for key in ready.keys { state.waiters[key] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: grid) }
    }

    /// Waits until a frame for which `matches` holds is drawn (or returns the last frame at once if it holds),
    /// so tests synchronise on what is on screen instead of sleeping. Returns nil if the task is cancelled first.
    public func frame(where matches: @escaping @Sendable (CellGrid) -> Bool) async -> CellGrid? {
        let key = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let drawn = state.withLock { state -> CellGrid?? in
                    if Task.isCancelled { return .some(nil) }
                    if let last = state.lastGrid, matches(last) { return last }
                    state.waiters[key] = (matches, continuation)
                    return nil
                }
                if let drawn { continuation.resume(returning: drawn) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
            waiter?.continuation.resume(returning: nil)
        }
    }

    /// Waits until a frame whose text contains `text` is drawn.
    public func frame(containing text: String) async -> CellGrid? {
        await frame { $0.text.contains(text) }
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
    public func resize(to size: ScreenSize) {
        let handler = state.withLock {
            $0.size = size
            return $0.onResize
        }
        handler?(size)
    }

    /// Delivers a termination signal to the signal handler (ignored if none was given).
    public func send(_ signal: TerminalSignal) {
        let handler = state.withLock { $0.onSignal }
        handler?(signal)
    }
}
