/// Reading a recording from a file: only a regular file, its size checked before a byte is read.
extension Recording {
    /// The largest recording a target reads from a file (`MISCHIEF_REPLAY`): 1 MiB, as for `MISCHIEF_PROFILE` and a
    /// request to the control API.
    public static let largestFileInTarget = 1 << 20

    /// The recording in the regular file at `path`, refused as soon as it proves to hold more than `limit` bytes
    /// (its size is checked before it is read), and refused without waiting when it is a FIFO, a device (`/dev/zero`)
    /// or a directory.
    ///
    /// - Throws: ``RecordingFileError``: the file cannot be read, or a line of it is not a recording's.
    public init(file path: String, limit: Int) throws(RecordingFileError) {
        let bytes: [UInt8]
        do throws(FileReadFailure) {
            bytes = try FileReader.read(path, limit: limit)
        } catch {
            throw RecordingFileError(path: path, reason: "cannot read it: \(error.detail(workingDirectory: false))")
        }
        do throws(RecordingError) {
            try self.init(jsonLines: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw RecordingFileError(path: path, reason: error.description, line: error.line)
        }
    }
}

/// Why a recording could not be read from a file: the file (not a regular file, too large, unreadable) or a line.
public struct RecordingFileError: Error, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong: with the file, or `line N: …` with a line of it.
    public var reason: String
    /// The line at fault, when a line is.
    public var line: Int?

    /// An error about the file at `path`.
    public init(path: String, reason: String, line: Int? = nil) {
        self.path = path
        self.reason = reason
        self.line = line
    }

    /// `PATH: line 3: …`, `PATH: cannot read it: it is a device, not a regular file`.
    public var description: String { "\(path): \(reason)" }
}
