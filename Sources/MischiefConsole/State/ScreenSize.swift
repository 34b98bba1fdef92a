/// A terminal's size in rows and columns.
public struct ScreenSize: Sendable, Hashable, CustomStringConvertible {
    /// Number of rows.
    public var rows: Int
    /// Number of columns.
    public var columns: Int

    /// Creates a size.
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// The smallest size the console draws its screen in; below it, it says which size it needs.
    public static let minimum = ScreenSize(rows: 12, columns: 50)

    /// Whether the console's screen fits.
    public var isUsable: Bool { rows >= Self.minimum.rows && columns >= Self.minimum.columns }

    /// `80×24` (columns × rows, as terminals say it).
    public var description: String { "\(columns)×\(rows)" }
}
