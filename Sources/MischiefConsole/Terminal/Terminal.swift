/// A full-screen terminal that blits ``CellGrid``s and reports keys, resizes and termination signals.
///
/// Lifecycle: ``start(onKey:onResize:onSignal:)`` once, then any number of ``draw(_:)`` calls from any thread,
/// then ``stop()``. Callbacks may arrive on a terminal-owned thread; they should return quickly (hop to your own
/// actor or queue for real work).
public protocol Terminal: AnyObject, Sendable {
    /// The current size in rows and columns.
    var size: ScreenSize { get }

    /// Takes over the screen and starts delivering events.
    ///
    /// - Parameters:
    ///   - onKey: called for every decoded key (``Key/resize`` is not delivered here; see `onResize`).
    ///   - onResize: called with the new size after the terminal was resized.
    ///   - onSignal: called when SIGINT, SIGTERM or SIGHUP arrives, so the owner can clean up, call ``stop()`` and
    ///     exit. `nil` selects the default: stop the terminal and exit with ``TerminalSignal/exitStatus``.
    func start(
        onKey: @escaping @Sendable (Key) -> Void,
        onResize: @escaping @Sendable (ScreenSize) -> Void,
        onSignal: (@Sendable (TerminalSignal) -> Void)?
    ) throws

    /// Shows `grid` (asynchronously; only the latest pending grid is drawn).
    func draw(_ grid: CellGrid)

    /// Restores the terminal; idempotent.
    func stop()

    /// Puts `text` on the clipboard of the terminal the user sees (OSC 52: works over SSH and, with
    /// `set-clipboard on`, in tmux).
    func copyToClipboard(_ text: String)
}

extension Terminal {
    /// Starts with the default signal behaviour (stop the terminal and exit).
    public func start(
        onKey: @escaping @Sendable (Key) -> Void,
        onResize: @escaping @Sendable (ScreenSize) -> Void
    ) throws {
        try start(onKey: onKey, onResize: onResize, onSignal: nil)
    }
}
