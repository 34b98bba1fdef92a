/// A rectangle of cells on the screen.
struct Rect: Sendable, Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The area inside a one-cell border.
    var inner: Rect {
        Rect(x: x + 1, y: y + 1, width: max(0, width - 2), height: max(0, height - 2))
    }

    /// The column just right of the rectangle.
    var maxX: Int { x + width }
    /// The row just below the rectangle.
    var maxY: Int { y + height }
}
