/// Why a GPX file could not be read or played back, pointing at the offending place in the file.
///
/// The description reads like a compiler diagnostic, so terminals and editors can jump to it.
///
/// ```swift
/// do {
///     let track = try GPXTrack.load(contentsOf: url)
/// } catch {
///     print(error)   // "walk.gpx:12: <trkpt> has no lat attribute"
/// }
/// ```
public struct GPXError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file (or other source label) the problem is in.
    public var file: String
    /// The 1-based line of the problem; 0 when it concerns the whole file (unreadable, no timestamps…).
    public var line: Int
    /// The 1-based column, when the XML parser reported one.
    public var column: Int?
    /// What went wrong, in plain words.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, leaving out the parts that are not known.
    public var description: String {
        var location = file
        if line > 0 {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): \(message)"
    }
}
