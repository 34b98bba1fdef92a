import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where control sockets live, and the checks that keep them private: a directory only its owner can enter,
/// a socket only its owner can use, a path that fits `sun_path`, and stale sockets of dead processes replaced.
public enum ControlSocket {
    /// The longest socket path the kernel takes (`sun_path` is 108 bytes with its terminating zero).
    public static let maxPathBytes = 107

    /// The directory targets put their sockets in: `$MISCHIEF_SOCKET_DIR`, else `$XDG_RUNTIME_DIR/mischief`,
    /// else `/tmp/mischief-<uid>`.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["MISCHIEF_SOCKET_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent(
                "mischief", isDirectory: true)
        }
        return URL(fileURLWithPath: "/tmp/mischief-\(getuid())", isDirectory: true)
    }

    /// The default socket path of a target: `<directory>/<name>-<pid>.sock`, the name reduced to letters,
    /// digits, `-`, `_` and `.`.
    public static func defaultPath(
        name: String, pid: Int32 = getpid(), environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        directory(environment: environment).appendingPathComponent("\(fileName(for: name))-\(pid).sock").path
    }

    static func fileName(for name: String) -> String {
        let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "-" })
        return cleaned.isEmpty ? "target" : cleaned
    }

    /// Checks that `path` fits `sun_path`.
    public static func checkLength(_ path: String) throws(ControlSocketError) {
        let bytes = path.utf8.count
        guard bytes <= maxPathBytes else { throw .pathTooLong(path, bytes: bytes) }
    }

    /// Creates `directory` with mode 0700 if it is missing; refuses one that is not a directory, is a symbolic
    /// link, belongs to someone else, or lets group or others in.
    public static func prepareDirectory(_ directory: String) throws(ControlSocketError) {
        var info = stat()
        if lstat(directory, &info) != 0 {
            guard errno == ENOENT else { throw .directory(directory, String(cString: strerror(errno))) }
            let parent = (directory as NSString).deletingLastPathComponent
            if !parent.isEmpty, parent != directory, access(parent, F_OK) != 0 {
                throw .directory(directory, "its parent \(parent) does not exist")
            }
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                throw .directory(directory, String(cString: strerror(errno)))
            }
            // mkdir's mode passes through the umask, which may only take bits away; say it exactly.
            chmod(directory, 0o700)
            guard lstat(directory, &info) == 0 else { throw .directory(directory, String(cString: strerror(errno))) }
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            throw .directory(
                directory,
                "it is a symbolic link; give the real directory, so nobody can point the socket elsewhere by "
                    + "changing the link")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .directory(directory, "it exists and is not a directory")
        }
        guard info.st_uid == getuid() else {
            throw .directory(directory, "it belongs to uid \(info.st_uid), not to this user (uid \(getuid()))")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw .directory(
                directory, "its mode is \(String(mode, radix: 8)); it must be 700 so no other user can reach the socket"
            )
        }
    }

    /// Clears the way for a new socket at `path`: nothing there is fine, a socket nobody listens on (left by a
    /// dead process) is removed, a live one or any other file is refused.
    public static func clearStale(_ path: String) throws(ControlSocketError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .occupied(path, "it exists and is not a socket") }
        switch probe(path) {
        case .listening:
            throw .occupied(path, "another process is serving on it")
        case .refused:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .occupied(path, "cannot remove the stale socket: \(String(cString: strerror(errno)))")
            }
        }
    }

    enum Probe { case listening, refused }

    /// Whether something accepts connections on the socket at `path`.
    static func probe(_ path: String) -> Probe {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .refused }
        defer { close(fd) }
        return withAddress(of: path) { connect(fd, $0, $1) } == 0 ? .listening : .refused
    }

    /// Calls `body` with `path` as a `sockaddr_un` (for `bind` or `connect`); -1 when the path does not fit.
    static func withAddress(of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maxPathBytes else { return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A socket found in the socket directory.
    public struct Found: Sendable, Equatable {
        /// The socket's full path, which a client connects to.
        public var path: String
        /// The target name and pid read from the file name, when it follows `<name>-<pid>.sock`.
        public var name: String
        /// The process id read from the file name, when it follows `<name>-<pid>.sock`; nil for a forwarded socket
        /// named otherwise.
        public var pid: Int32?
        /// Whether something accepts connections on it.
        public var isLive: Bool
    }

    /// Removes the sockets in `directory` left by targets that died without removing them (killed, crashed), so
    /// listings stop showing them; returns their paths.
    ///
    /// A socket goes only when all of these hold: it is a socket this user owns, named `<name>-<pid>.sock`, nothing
    /// accepts connections on it, and no process `pid` exists. A target that is starting (bound, not yet
    /// listening) is alive, and a socket whose pid is unknown is left alone.
    @discardableResult
    public static func removeDead(in directory: URL) -> [String] {
        var removed: [String] = []
        for socket in find(in: directory) where !socket.isLive {
            guard let pid = socket.pid, pid > 0, kill(pid, 0) == -1, errno == ESRCH else { continue }
            var info = stat()
            guard lstat(socket.path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid(),
                probe(socket.path) == .refused, unlink(socket.path) == 0
            else { continue }
            removed.append(socket.path)
        }
        return removed
    }

    /// The sockets in `directory`, live ones first, each group by name.
    public static func find(in directory: URL) -> [Found] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var found: [Found] = []
        for file in names where file.hasSuffix(".sock") {
            let path = directory.appendingPathComponent(file).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { continue }
            let stem = String(file.dropLast(5))
            var name = stem
            var pid: Int32?
            if let dash = stem.lastIndex(of: "-"), let number = Int32(stem[stem.index(after: dash)...]) {
                name = String(stem[..<dash])
                pid = number
            }
            found.append(Found(path: path, name: name, pid: pid, isLive: probe(path) == .listening))
        }
        return found.sorted { ($0.isLive ? 0 : 1, $0.name, $0.path) < ($1.isLive ? 0 : 1, $1.name, $1.path) }
    }
}

/// Why a control socket cannot be set up.
public enum ControlSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path does not fit `sun_path`.
    case pathTooLong(String, bytes: Int)
    /// The socket directory is unsafe or cannot be made.
    case directory(String, String)
    /// Something already lives at the socket path.
    case occupied(String, String)
    /// The socket cannot be bound or listened on (a directory without write permission, no descriptors left).
    case cannotListen(String, String)

    public var description: String {
        switch self {
        case .pathTooLong(let path, let bytes):
            "socket path is \(bytes) bytes, but a Unix socket path must fit in \(ControlSocket.maxPathBytes) (sun_path): "
                + "\(path)\n  use a shorter name, or a shorter directory with MISCHIEF_SOCKET_DIR"
        case .directory(let path, let reason):
            "cannot use \(path) for control sockets: \(reason)"
        case .occupied(let path, let reason):
            "cannot serve on \(path): \(reason)"
        case .cannotListen(let path, let reason):
            "cannot listen on \(path): \(reason)"
        }
    }
}
