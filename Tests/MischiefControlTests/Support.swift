import Foundation
import Mischief
import Synchronization
import Testing

@testable import MischiefControl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh directory with a short path such as `/tmp/mc-Ab12Cd`, so `<dir>/t.sock` fits `sun_path` (107 bytes)
/// wherever the system's temporary directory is. The caller removes it.
struct SocketDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/mc-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw POSIXFailure(call: "mkdtemp", code: errno)
        }
        path = String(cString: made)
    }

    /// The socket path tests serve on.
    var socketPath: String { path + "/t.sock" }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A failed system call in a test helper.
struct POSIXFailure: Error, CustomStringConvertible {
    let call: String
    let code: Int32

    var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
}

/// A target of its own for one test: a registry, two seams and a server on a short socket path.
final class TestTarget: Sendable {
    let registry = Registry(sessionSeed: 1)
    let count = Seam<Void, Int, Never>("t.count", title: "Count", category: "Test", summary: "a number") { 0 }
    let name = Seam<Void, String, Never>("t.name", title: "Name", category: "Test", summary: "a name") { "Ann" }
    let directory: SocketDirectory
    let server: ControlServer

    /// A target on `directory`'s socket path; nothing is served until ``ControlServer/start()``.
    init(directory: SocketDirectory, configure: (inout ControlServer.Options) -> Void = { _ in }) throws {
        self.directory = directory
        try registry.register(count, name)
        var options = ControlServer.Options(name: "test", socketPath: directory.socketPath)
        // Sessions that do not ask for a lease outlive a starved test: on 2 vCPUs a full suite run can hold a test's
        // next request back for longer than the default 15 s, and its session lapsed mid-test. Tests of leases ask
        // for theirs.
        options.lease = .seconds(3_600)
        configure(&options)
        server = ControlServer(registry: registry, options: options)
    }

    var socketPath: String { server.socketPath }

    /// A client whose deadline is a starved machine's (a minute), not a user's 10 s: under AddressSanitizer beside
    /// four builds on two cores, defining a 600 KB profile once took longer than 10 s. Tests of deadlines set theirs.
    func client(session: String? = nil) -> ControlClient {
        var client = ControlClient(socketPath: socketPath, session: session)
        client.timeout = .seconds(60)
        return client
    }

    var raw: RawHTTPClient { RawHTTPClient(path: socketPath) }

    /// Holds each request the server hands its worker until `release` is signalled (30 s at most); `entered` yields
    /// as each one arrives there.
    func holdWorkers() -> (entered: AsyncStream<Void>, release: DispatchSemaphore) {
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        server.workerGate.withLock {
            $0 = {
                enter.yield()
                _ = release.wait(timeout: .now() + 30)
            }
        }
        return (entered, release)
    }
}

/// Runs `body` against a started target of its own, then stops the server and removes its directory, whether
/// `body` succeeds or throws.
func withTarget<R>(
    configure: (inout ControlServer.Options) -> Void = { _ in }, _ body: (TestTarget) async throws -> R
) async throws -> R {
    let directory = try SocketDirectory()
    defer { directory.remove() }
    let target = try TestTarget(directory: directory, configure: configure)
    try await target.server.start()
    do {
        let result = try await body(target)
        await target.server.stop()
        return result
    } catch {
        await target.server.stop()
        throw error
    }
}

/// The status and error body of a request the target refused, or nil when it succeeded or failed otherwise.
func refusal<T>(_ body: () async throws -> T) async -> (status: Int, body: ErrorBody)? {
    do {
        _ = try await body()
        return nil
    } catch {
        guard case .refused(let status, let errorBody) = error as? ControlClientError else { return nil }
        return (status, errorBody)
    }
}

/// The first event of `stream` that `matches`, or nil when none comes within `limit`. The limit only keeps a
/// broken build from hanging the suite; passing tests never reach it, even on a loaded machine (5 s could be).
func firstEvent(
    in stream: AsyncStream<Event>, within limit: Duration = .seconds(60),
    where matches: @escaping @Sendable (Event) -> Bool
) async -> Event? {
    await withTaskGroup(of: Event?.self) { group in
        group.addTask {
            for await event in stream where matches(event) { return event }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// A clock for leases that moves only when the test says so.
final class ManualClock: Sendable {
    private let elapsed = Mutex(Duration.zero)

    var now: Duration { elapsed.withLock { $0 } }

    func advance(by duration: Duration) {
        elapsed.withLock { $0 += duration }
    }
}

/// Whether something exists at `path` (a socket, a file, a directory), without following a symbolic link.
func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}

/// The file type and permission bits at `path`.
func mode(of path: String) -> (type: mode_t, permissions: mode_t)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (info.st_mode & S_IFMT, info.st_mode & 0o777)
}
