#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `read(2)`, under a name the reader's own `read` does not shadow.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Why ``FileReader`` refused a file.
package enum FileReadFailure: Error, Hashable {
    /// `open`, `fstat` or `read` failed with this `errno`, or the file moved while it was opened.
    case system(Int32)
    /// The path names something other than a regular file (its kind: "a directory", "a FIFO"…).
    case notRegular(String)
    /// The file holds more than this many bytes.
    case tooLarge(Int)

    /// What went wrong, for messages; `workingDirectory` adds where relative paths start.
    package func detail(workingDirectory: Bool) -> String {
        switch self {
        case .system(let code):
            var text = String(cString: strerror(code))
            if workingDirectory, let directory = FileReader.workingDirectory {
                text += "; relative paths start in the working directory, \(directory)"
            }
            return text
        case .notRegular(let kind):
            return "it is \(kind), not a regular file"
        case .tooLarge(let limit):
            return "it holds more than \(FileReader.describe(bytes: limit)), the limit"
        }
    }
}

/// Reads whole regular files with a size limit, without following links where asked and without blocking on FIFOs
/// or devices: the mechanism behind ``FileAccess``.
package enum FileReader {
    /// The real path of `path` (every link resolved) when it lies inside one of `directories`, else nil.
    static func resolve(_ path: String, within directories: [String]) -> String? {
        for directory in directories {
            guard let root = realPath(directory) else { continue }
            let candidate = path.hasPrefix("/") ? path : directory + "/" + path
            guard let real = realPath(candidate) else { continue }
            if real.hasPrefix(root == "/" ? "/" : root + "/") { return real }
        }
        return nil
    }

    /// The bytes of the regular file at `path`, refused as soon as it proves to hold more than `limit` bytes.
    ///
    /// - Parameter expectedPath: When given, the last component must not be a link and the opened file must still
    ///   be at this real path (so a directory swapped for a link between resolving and opening is caught).
    package static func read(
        _ path: String, limit: Int, expectedPath: String? = nil
    ) throws(FileReadFailure) -> [UInt8] {
        var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        if expectedPath != nil { flags |= O_NOFOLLOW }
        let fd = open(path, flags)
        guard fd >= 0 else { throw .system(errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .system(errno) }
        if let kind = kind(of: UInt32(status.st_mode)) { throw .notRegular(kind) }
        let opened = openedPath(fd)
        if let expectedPath, let opened, opened != expectedPath { throw .system(ENOENT) }
        if isKernelFile(opened ?? expectedPath ?? path) { throw .notRegular("a kernel pseudo-file (/proc, /sys)") }
        let size = Int(status.st_size)
        guard size <= limit else { throw .tooLarge(limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { throw .tooLarge(limit) }
        }
    }

    /// "a directory", "a FIFO"… for anything but a regular file; nil for a regular file.
    static func kind(of mode: UInt32) -> String? {
        switch mode & 0o170000 {
        case 0o100000: nil
        case 0o040000: "a directory"
        case 0o010000: "a FIFO"
        case 0o020000, 0o060000: "a device"
        case 0o140000: "a socket"
        case 0o120000: "a symbolic link"
        default: "not a plain file"
        }
    }

    /// Whether the real path `path` is in /proc or /sys, whose "regular files" are views of the kernel and the
    /// process (`/proc/self/environ`), not files.
    private static func isKernelFile(_ path: String) -> Bool {
        ["/proc/", "/sys/"].contains { path.hasPrefix($0) } || path == "/proc" || path == "/sys"
    }

    /// Where the kernel says `fd` is, when it can tell (Linux with /proc mounted).
    private static func openedPath(_ fd: Int32) -> String? {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            return nil
        #endif
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static var workingDirectory: String? {
        guard let directory = getcwd(nil, 0) else { return nil }
        defer { free(directory) }
        return String(cString: directory)
    }

    /// "16 MiB", "64 KiB", "100 bytes".
    package static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
