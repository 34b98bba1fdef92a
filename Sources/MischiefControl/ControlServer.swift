import Foundation
import Mischief
import MischiefFiles
import NIOCore
import NIOHTTP1
import NIOPosix
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
/// Requests are parsed by SwiftNIO's HTTP/1 decoder and answered synchronously on an event loop thread of the
/// server's own, never on Swift's cooperative pool, so the API keeps answering while the target's tasks are blocked;
/// those with long bodies (specs, profiles to parse) on a worker thread of its own, so the event loop goes on
/// answering other clients meanwhile.
/// Heads, bodies, headers and connections are bounded and timed (``Limits``). The socket is removed when the server
/// stops or the process exits; a socket left by a dead process is replaced.
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
        /// The least time between two messages of an events stream: a change to the registry is sent at once, and
        /// the changes that follow it within this interval together.
        public var updateInterval: Duration = .milliseconds(20)
        /// How often, while an events stream is open, the server looks at what changes without telling it: call
        /// counts and the clocks a console shows (on the wall clock's multiples of it, so a shown second turns on
        /// time). Once a second by default, when the seconds a console shows turn (its rates are per second). Nothing
        /// is looked at while no stream is open.
        public var refresh: Duration = .seconds(1)
        /// How long an events stream stays silent before a keep-alive comment (which also finds dead clients).
        public var heartbeat: Duration = .seconds(1)
        /// Sizes, counts and deadlines that keep clients from holding the server.
        public var limits = Limits()
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
        /// Let clients apply `crash` behaviours, which end the process (for crash-recovery tests): starting the
        /// server sets `Registry.allowsCrash` on its registry. Off by default: a `crash` is then refused with a
        /// message saying how to allow it (this option, or `MISCHIEF_ALLOW_CRASH=1` in the target's environment).
        public var allowCrash = false
        /// The monotonic clock leases are measured on (injected by tests). The server leaves out of a lease the time
        /// its process was stopped or starved, which it finds as gaps in its own beat (see `LeaseClock`).
        public var now: @Sendable () -> Duration
        /// This target's stable name among targets of the same name, which a seed sent with a change is derived
        /// with (`SeededGenerator.seed(_:for:)`), so a fleet given one seed is reproducible and its instances
        /// differ. When nil: `MISCHIEF_LABEL` from the environment, else `<name>#<n>`, where n counts the targets of
        /// that name already serving in the socket directory when this one starts (start them one after another,
        /// or label them).
        public var label: String?
        /// How many events the server's recording of the session keeps in memory, from its start (see
        /// `Registry.startRecording(capacity:)`): what `GET /v1/recording`, `mischief record` and a console's save
        /// write. Later events are counted as dropped. 0 keeps none.
        public var recordingCapacity = 10_000
        /// The most bytes of events and decisions the server's recording keeps in memory, as their text weighs:
        /// 8 MiB (`Recorder.memoryBudget`), so entries carrying long specs cannot grow the target without bound.
        /// Later events are counted as dropped.
        public var recordingBytes = Recorder.memoryBudget
        /// How many chaos-call decisions the server's recording keeps (`Recording.Decision`: which layer answered
        /// each call, and with what), so that a replay of it can check each call gets the same answer. Later ones
        /// are counted as dropped. 0 keeps none, and chaos calls then cost nothing more.
        public var recordingDecisions = 10_000

        /// Options for a target named `name`, serving on `socketPath` (the default socket directory's
        /// `<name>-<pid>.sock` when nil), with every other option at its default.
        public init(name: String, socketPath: String? = nil) {
            self.name = name
            self.socketPath = socketPath
            let start = ContinuousClock.now
            self.now = { ContinuousClock.now - start }
        }
    }

    /// Bounds on what one client may make the server hold.
    public struct Limits: Sendable {
        /// The request line and headers together, in bytes; more gets 431.
        public var headBytes = 16 * 1024
        /// Header fields in one request; more gets 431.
        public var headerCount = 100
        /// From connecting to the end of the request head (slow clients get 408 and are closed).
        public var headTimeout: Duration = .seconds(10)
        /// From the end of the head to the end of the body.
        public var bodyTimeout: Duration = .seconds(10)
        /// How long an events stream may refuse to read before it is closed.
        public var idleTimeout: Duration = .seconds(30)
        /// How long a connection, once answered, stays open for the client's next request (HTTP/1.1 keep-alive: a
        /// console sends its commands on one connection) before the server closes it; a client reconnects then.
        public var keepAliveTimeout: Duration = .seconds(30)
        /// How long `POST /v1/time/advance` waits for the target's tasks before answering 503.
        public var advanceTimeout: Duration = .seconds(5)
        /// Open connections; past it, the oldest that is waiting for a request (idle ones first) is closed to make
        /// room.
        public var connections = 1024
        /// Connections the kernel queues before the server accepts them. Short, because a client waits behind the
        /// whole queue while the server is within ``cpuShare``; a full queue makes further clients wait to connect.
        public var backlog = 8
        /// The share of one core the server's thread may take (0.08: 8%); past it, the thread pauses (neither
        /// accepting nor reading) until it is back within it, so a flood of clients cannot starve the target.
        /// 1 or more: unbounded.
        public var cpuShare = 0.08
        /// The CPU time the server may spend at once after being idle, within ``cpuShare``: one request is answered
        /// at once, however busy the server was before.
        public var cpuBurst: Duration = .milliseconds(5)

        /// The default limits, which keep a flood of clients from starving the target (the figures are the properties'
        /// defaults).
        public init() {}
    }

    /// The socket clients connect to.
    public let socketPath: String
    /// The loopback TCP port, when ``Options/loopbackPort`` asked for one.
    public var tcpPort: UInt16? { state.withLock { $0.tcpPort } }
    /// The token TCP requests must carry as `Authorization: Bearer <token>`.
    public let token: String
    /// This serving process's identity: random, so a client that reconnects can tell the same target from
    /// another process that took the same name or socket.
    public let instance: String

    /// The API the transport serves: the registry, the sessions, the routes.
    let handler: ControlHandler
    /// The registry it serves.
    public var registry: Registry { handler.registry }
    var options: Options { handler.options }
    let group: MultiThreadedEventLoopGroup
    let feed: EventFeed
    let connections: ConnectionTable
    /// The bound on the server thread's CPU (nil when unbounded, or on an injected loop).
    let budget: CPUBudget?
    /// One thread that answers requests with large bodies (long specs, profiles, guards to parse), so the event loop
    /// keeps answering other clients meanwhile (nil on an injected loop: everything is answered there).
    let worker: NIOThreadPool?
    /// The bound on the worker's CPU, the same share as the event loop's (nil when unbounded).
    let workerBudget: CPUBudget?
    /// Called on the worker before each request it answers: tests hold it there.
    let workerGate = Mutex<(@Sendable () -> Void)?>(nil)
    var limits: Limits { options.limits }
    private let state = Mutex(State())

    private struct State {
        var channels: [any Channel] = []
        var reaper: RepeatedTask?
        var tcpPort: UInt16?
        var stopped = false
        var observation: Observation?
    }

    /// This target's label among targets of its name (see ``Options/label``); its name until it starts.
    public var label: String { handler.label }

    /// A server for `registry`; nothing is served until ``start()``.
    public convenience init(registry: Registry = .shared, options: Options) {
        self.init(registry: registry, options: options, loop: nil)
    }

    /// A server whose connections and events streams live on `loop` (the fuzzer's `EmbeddedEventLoop`), or on a
    /// thread of its own when nil.
    init(registry: Registry, options: Options, loop: (any EventLoop)?) {
        self.socketPath = options.socketPath ?? ControlSocket.defaultPath(name: options.name)
        self.token = Self.randomToken()
        self.instance = String(Self.randomToken().prefix(16))
        handler = ControlHandler(registry: registry, options: options, socketPath: socketPath, instance: instance)
        // One thread of its own: routes take the registry's lock only for a moment.
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let injected = loop != nil
        let loop = loop ?? group.next()
        connections = ConnectionTable(loop: loop, limit: options.limits.connections)
        // An injected loop (the fuzzer's) is not thread-safe: nothing wakes its feed from another thread.
        feed = EventFeed(loop: loop, follows: !injected)
        // An injected loop (the fuzzer's) runs on the caller's thread: nothing to bound.
        let limits = options.limits
        budget =
            injected || !(limits.cpuShare > 0 && limits.cpuShare < 1)
            ? nil
            : CPUBudget(share: limits.cpuShare, burst: limits.cpuBurst)
        // The worker pays for a long parse after answering, all of it before its next request: heavy requests wait
        // behind each other, never the event loop's.
        workerBudget = budget.map { _ in
            CPUBudget(share: limits.cpuShare, burst: limits.cpuBurst, longestPause: .seconds(2))
        }
        worker = injected ? nil : NIOThreadPool(numberOfThreads: 1)
        worker?.start()
        feed.server = self
    }

    deinit {
        worker?.shutdownGracefully { _ in }
        group.shutdownGracefully { _ in }
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
        do {
            try prepare()
            try finishStart(try listen().wait())
        } catch {
            undoPrepare()
            throw error
        }
    }

    /// Checks the socket directory and path, replaces a stale socket, and serves until ``stop()``.
    ///
    /// - Throws: ``ControlSocketError`` when the path is too long, the directory unsafe, the socket in use, or
    ///   binding fails (with the system's reason, at once); `MischiefError.disabled(reason:)` in a build without
    ///   the `Chaos` trait, where nothing listens.
    public func start() async throws {
        do {
            try prepare()
            try finishStart(try await listen().get())
        } catch {
            undoPrepare()
            throw error
        }
    }

    /// A server that could not listen leaves nothing behind: its recording stops (the registry stops counting for
    /// it).
    private func undoPrepare() {
        handler.recorder?.stop()
        handler.recorder = nil
    }

    private func prepare() throws {
        guard KillSwitch.isChaosCompiledIn else { throw MischiefError.disabled(reason: KillSwitch.compiledOutReason) }
        if options.allowCrash { registry.allowsCrash = true }  // before MISCHIEF_PROFILE, which may name crash
        if options.recordingCapacity > 0, handler.recorder == nil {  // before MISCHIEF_PROFILE, which it records
            handler.recorder = registry.startRecording(
                capacity: options.recordingCapacity, bytes: options.recordingBytes, target: options.name,
                decisions: options.recordingDecisions)
        }
        if registry === Registry.shared { ProfileEnvironment.applyFromEnvironment(to: registry) }
        let directory = (socketPath as NSString).deletingLastPathComponent
        let label = options.label ?? Self.fleetLabel(name: options.name, directory: directory, socketPath: socketPath)
        handler.label = label
        try ControlSocket.checkLength(socketPath)
        if options.socketPath == nil {
            try ControlSocket.prepareDirectory(directory)
            ControlSocket.removeDead(in: URL(fileURLWithPath: directory))  // what killed targets left behind
        }
        try ControlSocket.clearStale(socketPath)
    }

    /// `MISCHIEF_LABEL`, else `<name>#<n>` with n the live targets of this name already in `directory`.
    static func fleetLabel(
        name: String, directory: String, socketPath: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let label = environment["MISCHIEF_LABEL"], !label.isEmpty { return label }
        let file = ControlSocket.fileName(for: name)
        let others = ControlSocket.find(in: URL(fileURLWithPath: directory)).filter {
            $0.isLive && $0.name == file && $0.path != socketPath
        }
        return "\(name)#\(others.count)"
    }

    /// The hidden name the socket is bound under before it is made 0600 and renamed into place, so nobody can
    /// connect while it still has the umask's mode (an explicit path's directory may be open to others).
    private var bindPath: String {
        let directory = (socketPath as NSString).deletingLastPathComponent
        let hidden = (directory as NSString).appendingPathComponent(
            ".mischief-\(getpid())-\(instance.prefix(6))")
        return hidden.utf8.count > ControlSocket.maxPathBytes ? socketPath : hidden
    }

    /// Binds the Unix socket (and the loopback port when asked), on the server's event loop.
    private func listen() -> EventLoopFuture<[any Channel]> {
        let loop = connections.loop
        let unix = bootstrap(requiresToken: false).bind(unixDomainSocketPath: bindPath, cleanupExistingSocketFile: true)
            .flatMapErrorThrowing { [socketPath] error in
                throw ControlSocketError.cannotListen(socketPath, Self.reason(error))
            }
        guard let port = options.loopbackPort else { return unix.map { [$0] } }
        return unix.flatMap { unixChannel in
            self.bootstrap(requiresToken: true).bind(host: "127.0.0.1", port: Int(port))
                .flatMapError { error in
                    unixChannel.close(promise: nil)
                    return loop.makeFailedFuture(
                        ControlSocketError.cannotListen("127.0.0.1:\(port)", Self.reason(error)))
                }
                .map { [unixChannel, $0] }
        }
    }

    private func finishStart(_ channels: [any Channel]) throws {
        let bindPath = self.bindPath
        guard chmod(bindPath, 0o600) == 0, bindPath == socketPath || rename(bindPath, socketPath) == 0 else {
            let reason = String(cString: strerror(errno))
            for channel in channels { channel.close(promise: nil) }
            unlink(bindPath)
            throw ControlSocketError.occupied(socketPath, "cannot put a private socket in place: \(reason)")
        }
        SocketCleanup.add(socketPath)
        let port = channels.dropFirst().first?.localAddress?.port.map(UInt16.init)
        // The reaper is also the beat that finds the time the process was stopped (see ``LeaseClock``).
        let interval = TimeAmount.nanoseconds(Int64(LeaseClock.beat.seconds * 1e9))
        let reaper = connections.loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [weak self] _ in
            self?.reapExpiredSessions()
        }
        let observation = options.countsWhileServing ? registry.observe() : nil
        state.withLock {
            $0.channels = channels
            $0.tcpPort = port
            $0.reaper = reaper
            $0.observation = observation
            $0.stopped = false
        }
    }

    private func bootstrap(requiresToken: Bool) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: Int32(clamping: options.limits.backlog))
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { [connections, budget] channel in
                channel.eventLoop.makeCompletedFuture {
                    if let budget { try channel.pipeline.syncOperations.addHandler(BudgetGate(budget: budget)) }
                    try channel.pipeline.syncOperations.addHandler(AcceptWatch(connections: connections))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { [weak self] channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let self else { throw ChannelError.ioOnClosedChannel }
                    try self.configure(channel, requiresToken: requiresToken)
                }
            }
    }

    /// Sets up one connection's pipeline (tests and the fuzzer drive it on an `EmbeddedChannel`).
    func configure(_ channel: any Channel, requiresToken: Bool) throws {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = options.limits.headBytes
        limits.maxHeaderListSize = options.limits.headBytes
        limits.maxHeaderFieldCount = options.limits.headerCount
        let operations = channel.pipeline.syncOperations
        if let budget { try operations.addHandler(BudgetGate(budget: budget)) }
        let head = RequestSizeLimiter(limit: options.limits.headBytes)
        try operations.addHandler(head)
        try operations.addHandler(
            ByteToMessageHandler(
                HTTPRequestDecoder(
                    leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop, limitConfiguration: limits)
            ))
        let connection = HTTPConnection(server: self, requiresToken: requiresToken)
        connection.head = head
        try operations.addHandler(connection)
        connections.add(channel, connection, head)
    }

    /// Stops serving and removes the socket. Sessions end without reverting: the target keeps what it has.
    public func stop() async { await stop(revertingSessions: false) }

    /// Stops serving and removes the socket.
    ///
    /// - Parameter revertingSessions: End each session as if its client went: revert what it still owns and remove
    ///   the guards it added (a session opened with `keep` keeps them), as a service shutting down gracefully does
    ///   (`ControlServerService`). False: sessions end and the target keeps what they applied, as ``stop()`` does.
    ///   Lasting changes (applied without a session, `mischief apply` without `--hold`) stay either way.
    public func stop(revertingSessions: Bool) async {
        let channels = state.withLock { state in
            state.stopped = true
            state.observation?.cancel()
            state.reaper?.cancel()
            defer { state.channels = []; state.observation = nil; state.reaper = nil }
            return state.channels
        }
        handler.recorder?.stop()
        handler.recorder = nil
        // Sessions end here, before their streams close: a stream closing ends its session with a revert.
        handler.endAllSessions(reverting: revertingSessions)
        for channel in channels { try? await channel.close() }
        let loop = connections.loop
        try? await loop.submit { [feed, connections] in
            feed.closeAll()
            connections.closeAll()
        }.get()
        unlink(socketPath)
        SocketCleanup.remove(socketPath)
        // The worker's thread ends with the server, not with the process (nothing is left running or allocated).
        try? await worker?.shutdownGracefully()
    }

    /// How many connections and events streams are open now (read on the event loop).
    package func census() async -> (connections: Int, streams: Int) {
        let (connections, feed) = (self.connections, self.feed)
        return (try? await connections.loop.submit { (connections.count, feed.count) }.get()) ?? (0, 0)
    }

    /// How many connections the server has accepted since it started (read on the event loop).
    package func acceptedConnections() async -> Int {
        let connections = self.connections
        return (try? await connections.loop.submit { connections.accepted }.get()) ?? 0
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }

    // MARK: Sessions

    /// Ends sessions whose lease has lapsed and reverts what they changed; returns how many ended. The server
    /// calls it a few times a second; tests call it after moving ``Options/now``.
    ///
    /// Leases count the time the process ran, not the time it was stopped: a call that finds ``Options/now`` moved
    /// on by more than a few seconds since the last takes the gap for a pause (SIGSTOP, a debugger) and expires
    /// nothing for it.
    @discardableResult
    package func reapExpiredSessions() -> Int { handler.reapExpiredSessions() }

    /// The open sessions, by id.
    public var sessions: [SessionInfo] { handler.sessions }

    // MARK: Helpers

    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
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
