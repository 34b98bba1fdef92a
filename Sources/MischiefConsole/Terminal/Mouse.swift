/// A mouse event the terminal reported, at a cell of the screen (0-based column and row).
public struct Mouse: Hashable, Sendable {
    /// What the mouse did.
    public enum Action: Hashable, Sendable {
        /// The left button clicked.
        case click
        /// The left button clicked twice in quick succession.
        case doubleClick
        /// The wheel turned up (away from the user), or down.
        case wheelUp, wheelDown
    }

    /// What the mouse did.
    public var action: Action
    /// The column, from 0.
    public var x: Int
    /// The row, from 0.
    public var y: Int

    /// Creates an event.
    public init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }
}
