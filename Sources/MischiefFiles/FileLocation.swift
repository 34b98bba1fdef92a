/// A position in a file: 1-based line and column (columns count Unicode scalars).
///
/// A line of 0 means "the file as a whole" (for example an unreadable file); the description then omits
/// the line and column.
public struct FileLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file's path as given by the caller.
    public var file: String
    /// The 1-based line, or 0 when the location is the whole file.
    public var line: Int
    /// The 1-based column, or 0 when unknown.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// A location that stands for the whole file.
    public static func wholeFile(_ file: String) -> FileLocation {
        FileLocation(file: file, line: 0, column: 0)
    }

    /// `path:line:column`, `path:line` or `path`, depending on what is known.
    public var description: String {
        if line <= 0 { return file }
        if column <= 0 { return "\(file):\(line)" }
        return "\(file):\(line):\(column)"
    }

    /// Orders by file, then line, then column.
    public static func < (lhs: FileLocation, rhs: FileLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
