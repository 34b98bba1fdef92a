#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which files specs may read, and how much of each: the policy that travels with a spec while it is bound.
///
/// Specs the user loads from disk read their files as before (``unrestricted``); specs that arrive from outside
/// the process (the control API) read none (``none``), or only regular files inside directories the target allowed
/// when it started (``confined(to:maxBytes:)``). Every mode reads regular files only, never more than a limit.
///
/// ```swift
/// let access = FileAccess.confined(to: ["/srv/fixtures"])
/// try registry.apply(spec: #"respond(file: "/srv/fixtures/a.json")"#, to: "net.request", fileAccess: access)
/// let bytes = try access.read("/srv/fixtures/a.json", limit: 1 << 20)
/// ```
public struct FileAccess: Hashable, Sendable {
    enum Scope: Hashable, Sendable {
        case unrestricted
        case none
        case confined([String])
    }

    let scope: Scope
    /// The most bytes any one file may hold.
    public let maxBytes: Int

    /// 16 MiB: the default limit on a file's size.
    public static let defaultMaxBytes = 16 << 20

    /// Any regular file the process can read, up to ``defaultMaxBytes``: for the user's own profiles and specs.
    public static let unrestricted = FileAccess(scope: .unrestricted, maxBytes: defaultMaxBytes)

    /// No file at all: what specs from the control API get unless the target allows directories.
    public static let none = FileAccess(scope: .none, maxBytes: 0)

    /// Regular files whose real path (symbolic links resolved) lies inside one of `directories`, up to `maxBytes`.
    /// Relative paths are looked up in each directory in turn. No directories is ``none``.
    public static func confined(to directories: [String], maxBytes: Int = defaultMaxBytes) -> FileAccess {
        precondition(maxBytes >= 0, "FileAccess.confined: maxBytes cannot be negative, got \(maxBytes)")
        return directories.isEmpty ? .none : FileAccess(scope: .confined(directories), maxBytes: maxBytes)
    }

    /// The directories a confined policy allows; empty for the other modes.
    public var allowedDirectories: [String] {
        if case .confined(let directories) = scope { return directories }
        return []
    }

    /// The message for any file outside the allowed directories, missing or unreadable: the same for all, so errors
    /// tell a client nothing about files it may not read.
    static let notWithin = "not readable within the allowed directories"

    /// Reads the regular file at `path` under this policy, refusing it when it holds more than `limit` (at most
    /// ``maxBytes``) bytes; never reads more than one byte past the limit, and never blocks on a FIFO or device.
    ///
    /// - Throws: ``FileAccessError`` saying why; for a confined policy, files outside its directories (missing,
    ///   escaping through a link, unreadable) all get the same message, with no path in it.
    public func read(_ path: String, limit: Int? = nil) throws(FileAccessError) -> [UInt8] {
        let limit = min(limit ?? maxBytes, maxBytes)
        switch scope {
        case .none:
            // The message names the control API: `.none` is what it uses unless the target allows directories.
            throw FileAccessError(
                message: "files are not allowed from the control API; start the target with --allow-files DIR")
        case .unrestricted:
            do throws(FileReadFailure) {
                return try FileReader.read(path, limit: limit)
            } catch {
                let detail = error.detail(workingDirectory: !path.hasPrefix("/"))
                throw FileAccessError(message: "cannot read '\(path)': \(detail)")
            }
        case .confined(let directories):
            guard let real = FileReader.resolve(path, within: directories) else {
                throw FileAccessError(message: Self.notWithin)
            }
            do throws(FileReadFailure) {
                return try FileReader.read(real, limit: limit, expectedPath: real)
            } catch {
                switch error {
                case .system: throw FileAccessError(message: Self.notWithin)
                default: throw FileAccessError(message: "cannot read it: \(error.detail(workingDirectory: false))")
                }
            }
        }
    }
}

/// Why ``FileAccess/read(_:limit:)`` refused a file.
public struct FileAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and, where it helps, how to fix it.
    public var message: String

    /// An error with `message`.
    public init(message: String) { self.message = message }

    public var description: String { message }
}
