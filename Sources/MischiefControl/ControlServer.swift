import FlyingFox
import FlyingSocks
import Foundation
import Mischief
import MischiefConsole
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves a registry's control API on a Unix socket, so a console or a script in another terminal can change
/// the running program.
///
/// ```swift
/// let server = try await ControlServer.serve(name: "orders")        // async programs
/// let server = try ControlServer.serveInBackground(name: "orders")  // programs without an async entry point
/// print(server.socketPath)  // $XDG_RUNTIME_DIR/mischief/orders-4242.sock
/// ```
///
/// Requests run on FlyingFox's own event loop and Swift's task pool and only take the registry's lock for a
/// moment, so the target's threads never wait on a client. The socket is removed when the server stops or the
/// process exits; a socket left by a dead process is replaced.
public final class ControlServer: Sendable {
    /// How a server is set up.
    public struct Options: Sendable {
        /// What the target calls itself (header, socket file name).
        public var name: String
        /// The socket path; nil for ``ControlSocket/defaultPath(name:pid:environment:)``.
        public var socketPath: String?
        /// Also serve on loopback TCP at this port (0: any free port), requiring ``ControlServer/token`` on
        /// every request. Off unless asked for.
        public var loopbackPort: UInt16?
        /// How long a session lives without an events stream or a renewal.
        public var lease: Duration = .seconds(15)
        /// How often events streams send updates (at most one message per interval).
        public var updateInterval: Duration = .milliseconds(50)
        /// How long an events stream stays silent before a keep-alive comment (which also finds dead clients).
        public var heartbeat: Duration = .seconds(1)
        /// The target's time read without counting, for the console's header.
        public var targetTime: @Sendable () -> Date? = { nil }
        /// Moves the target's virtual time; false when its time is real.
        public var advance: @Sendable (Duration) async -> Bool = { _ in false }
        /// Count calls while serving, so `GET /v1/seams`, `mischief list` and a console that attaches later see
        /// real counts (about 4 ns a call); when false, counting is on only while an events stream is open.
        public var countsWhileServing = true
        /// Which files specs and profiles from clients may read (`respond(file:)`, `route(path:)`): none unless the
        /// target allows directories (`mischief demo --allow-files DIR`).
        public var fileAccess: FileAccess = .none
        /// The monotonic clock leases are measured on (injected by tests).
        public var now: @Sendable () -> Duration

        public init(name: String, socketPath: String? = nil) {
            self.name = name
            self.socketPath = socketPath
            let start = ContinuousClock.now
            self.now = { ContinuousClock.now - start }
        }
    }

    /// The socket clients connect to.
    public let socketPath: String
    /// The loopback TCP port, when ``Options/loopbackPort`` asked for one.
    public var tcpPort: UInt16? { state.withLock { $0.tcpPort } }
    /// The token TCP requests must carry as `Authorization: Bearer <token>`.
    public let token: String

    let registry: Registry
    let options: Options
    let console: LocalController
    private let state = Mutex(State())

    private struct State {
        var sessions = SessionTable()
        var servers: [HTTPServer] = []
        var tasks: [Task<Void, Never>] = []
        var tcpPort: UInt16?
        var stopped = false
        var observation: Observation?
    }

    /// A server for `registry`; nothing is served until ``start()``.
    public init(registry: Registry = .shared, options: Options) {
        self.registry = registry
        self.options = options
        self.socketPath = options.socketPath ?? ControlSocket.defaultPath(name: options.name)
        self.token = Self.randomToken()
        self.console = LocalController(
            registry: registry, name: options.name, saveDirectory: URL(fileURLWithPath: "/nonexistent"),
            targetTime: options.targetTime, advance: options.advance)
    }

    /// Starts serving `registry` on the default socket and returns once it accepts connections.
    public static func serve(
        name: String, registry: Registry = .shared, socketPath: String? = nil
    ) async throws -> ControlServer {
        let server = ControlServer(registry: registry, options: Options(name: name, socketPath: socketPath))
        try await server.start()
        return server
    }

    /// ``serve(name:registry:socketPath:)`` for programs without an async entry point: blocks the calling thread
    /// until the socket accepts connections (or setting it up fails), then serves in the background. Do not call
    /// it from a task.
    public static func serveInBackground(
        name: String, registry: Registry = .shared, socketPath: String? = nil
    ) throws -> ControlServer {
        let server = ControlServer(registry: registry, options: Options(name: name, socketPath: socketPath))
        try server.startInBackground()
        return server
    }

    /// ``start()`` for callers outside async code: blocks until serving or failed.
    public func startInBackground() throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<(any Error)?>(nil)
        Task.detached {
            do { try await self.start() } catch { outcome.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = outcome.withLock({ $0 }) { throw error }
    }

    /// Checks the socket directory and path, replaces a stale socket, and serves until ``stop()``.
    ///
    /// - Throws: ``ControlSocketError`` when the path is too long, the directory unsafe, or the socket in use.
    public func start() async throws {
        let directory = (socketPath as NSString).deletingLastPathComponent
        try ControlSocket.checkLength(socketPath)
        if options.socketPath == nil { try ControlSocket.prepareDirectory(directory) }
        try ControlSocket.clearStale(socketPath)

        // The socket is bound under a hidden name, made 0600, then renamed into place, so nobody can connect
        // while it still has the umask's mode (an explicit path's directory may be open to others).
        var bindPath = (directory as NSString).appendingPathComponent(".mischief-\(getpid())-\(Self.randomToken().prefix(6))")
        if bindPath.utf8.count > ControlSocket.maxPathBytes { bindPath = socketPath }
        let unixServer = makeServer(address: sockaddr_un.unix(path: bindPath), requiresToken: false)
        try await run(unixServer)
        guard chmod(bindPath, 0o600) == 0, bindPath == socketPath || rename(bindPath, socketPath) == 0 else {
            let reason = String(cString: strerror(errno))
            await unixServer.stop()
            unlink(bindPath)
            throw ControlSocketError.occupied(socketPath, "cannot put a private socket in place: \(reason)")
        }
        SocketCleanup.add(socketPath)

        if let port = options.loopbackPort {
            let tcpServer = makeServer(address: try sockaddr_in.inet(ip4: "127.0.0.1", port: port), requiresToken: true)
            try await run(tcpServer)
            if case .ip4(_, let bound) = await tcpServer.listeningAddress {
                state.withLock { $0.tcpPort = bound }
            }
        }

        let reaper = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                self?.reapExpiredSessions()
            }
        }
        let observation = options.countsWhileServing ? registry.observe() : nil
        state.withLock {
            $0.tasks.append(reaper)
            $0.observation = observation
        }
    }

    private func makeServer(address: some SocketAddress, requiresToken: Bool) -> HTTPServer {
        let config = HTTPServer.Configuration(
            address: address, timeout: 15, sharedRequestReplaySize: ControlAPI.maxBodyBytes, logger: .disabled)
        let token = self.token
        return HTTPServer(config: config, handler: ClosureHTTPHandler { [weak self] request in
            guard let self else { return HTTPResponse(statusCode: .serviceUnavailable) }
            if requiresToken, request.headers[.authorization] != "Bearer \(token)" {
                return Self.failure(.unauthorized, ErrorBody(
                    error: "unauthorized", detail: "TCP requests need the header 'Authorization: Bearer <token>'"))
            }
            return await self.handle(request)
        })
    }

    private func run(_ server: HTTPServer) async throws {
        let task = Task { try? await server.run() }
        do {
            try await server.waitUntilListening(timeout: 5)
        } catch {
            task.cancel()
            throw ControlSocketError.occupied(socketPath, "the server did not start listening: \(error)")
        }
        state.withLock {
            $0.servers.append(server)
            $0.tasks.append(Task { await task.value })
        }
    }

    /// Stops serving and removes the socket. Sessions end without reverting: the target keeps what it has.
    public func stop() async {
        let (servers, tasks, ended) = state.withLock { state in
            state.stopped = true
            state.observation?.cancel()
            defer { state.servers = []; state.tasks = []; state.observation = nil }
            // Sessions end here, before their streams close: a stream closing ends its session with a revert.
            return (state.servers, state.tasks, state.sessions.endAll(reason: "the control server stopped"))
        }
        for session in ended.map(\.session) {
            registry.report(seam: nil, message: "\(session.name) ended: the control server stopped; its changes stay",
                source: session.name)
        }
        for task in tasks { task.cancel() }
        for server in servers { await server.stop(timeout: 0) }
        unlink(socketPath)
        SocketCleanup.remove(socketPath)
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    // MARK: Sessions

    /// Ends sessions whose lease has lapsed and reverts what they changed; returns how many ended. The server
    /// calls it a few times a second; tests call it after moving ``Options/now``.
    @discardableResult
    public func reapExpiredSessions() -> Int {
        let now = options.now()
        let ended = state.withLock { $0.sessions.expire(now: now) }
        for session in ended { finish(session) }
        return ended.count
    }

    /// The open sessions, by id.
    public var sessions: [SessionInfo] {
        state.withLock { $0.sessions.sessions.values.map(\.info).sorted { $0.id < $1.id } }
    }

    func withSessions<R>(_ body: (inout SessionTable) throws(APIFailure) -> R) throws(APIFailure) -> R {
        try state.withLock { (state) throws(APIFailure) -> R in try body(&state.sessions) }
    }

    /// Reverts what an ended session still owns (unless it keeps its changes) and logs why it ended.
    func finish(_ ended: SessionTable.Ended) {
        let session = ended.session
        guard !session.keep else {
            registry.report(seam: nil, message: "\(session.name) ended: \(ended.reason); its changes stay (keep)",
                source: session.name)
            return
        }
        let activeProfiles = Set(registry.profiles.filter(\.isActive).map(\.profile.name))
        let profiles = session.profiles.intersection(activeProfiles).sorted()
        let active = Set(registry.snapshot().entries.filter { $0.status == .active }.map(\.id))
        let entries = session.entries.intersection(active)
        for profile in profiles { registry.revert(profile: profile) }
        registry.revert(entries: entries)
        let count = entries.count + profiles.count
        let what = count == 0 ? "nothing of its own was still applied"
            : "reverted \(count) change\(count == 1 ? "" : "s")"
                + (profiles.isEmpty ? "" : " (profile\(profiles.count == 1 ? "" : "s") \(profiles.joined(separator: ", ")))")
        registry.report(seam: nil, message: "\(session.name) ended: \(ended.reason); \(what)", source: session.name)
    }

    // MARK: Helpers

    static func failure(_ status: HTTPStatusCode, _ body: ErrorBody) -> HTTPResponse {
        json(body, status: status)
    }

    static func json(_ value: some Encodable, status: HTTPStatusCode = .ok) -> HTTPResponse {
        let data = (try? JSONEncoder.control.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(
            statusCode: status, headers: [.contentType: "application/json"], body: data + Data("\n".utf8))
    }

    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }
}

/// An API error with its status: thrown inside handlers, answered as JSON.
struct APIFailure: Error {
    let status: HTTPStatusCode
    let body: ErrorBody

    init(_ status: HTTPStatusCode, _ error: String, _ detail: String, column: Int? = nil) {
        self.status = status
        self.body = ErrorBody(error: error, detail: detail, column: column)
    }
}

/// Socket paths to remove when the process exits normally.
enum SocketCleanup {
    private static let paths = Mutex<Set<String>>([])
    private static let registered = Mutex(false)

    static func add(_ path: String) {
        paths.withLock { _ = $0.insert(path) }
        let first = registered.withLock { registered in
            defer { registered = true }
            return !registered
        }
        if first { atexit { SocketCleanup.removeAll() } }
    }

    static func remove(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
    }

    static func removeAll() {
        for path in paths.withLock({ $0 }) { unlink(path) }
    }
}
