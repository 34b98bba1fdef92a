import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import MischiefFiles
import Synchronization

/// The console's controller for a target in another process, over its control socket.
///
/// It opens a session and holds it with the events stream, so what the console changes is reverted when the
/// console goes away (unless `keep`). The stream is also how it learns what happens there: it asks for `changes`
/// messages (``StreamChanges``), the first with everything and then only what changed, and applies each to its copy
/// of the target's state, which ``load()`` returns without asking the target anything. When the target stops answering, ``load()`` returns the last data marked
/// ``ConnectionState/lost(_:)`` and keeps trying; when the same target instance answers again (at the path
/// `locate` finds), it opens a new session and the console carries on. It never attaches to another process: when
/// a different instance answers, it stays lost, says the target is gone and names the live ones.
public final class RemoteController: ConsoleController {
    private let locate: @Sendable () -> String?
    private let sessionName: String
    private let keep: Bool
    private let saveDirectory: URL
    private let eventLimit: Int
    private let link = Mutex(Link())
    /// How long a load after a command waits for the stream to say what the command changed. The target sends a
    /// message within its update interval (50 ms) when something changed; a command that changed nothing shown
    /// (counters already at zero) is answered with the data as it is after this. The wait ends at the first message
    /// with a change, which on a busy target may be one sent just before the command ran; the next periodic load
    /// then shows the command's effect.
    private let settle: Duration

    private struct Link {
        var client: ControlClient?
        var stream: Task<Void, Never>?
        /// The target's state as the stream has told it; nil until its first `changes` message.
        var last: ConsoleData?
        /// Loads waiting for the first `changes` message of this connection, or for the one after a command.
        var waiting: [CheckedContinuation<ConsoleData, any Error>] = []
        /// Whether a command was answered after the stream's last message: the next load waits for a message,
        /// so the console shows what the command did rather than the state before it.
        var commandAnswered = false
        var lostReason: String?
        var generation = 0
        /// The target first attached to; reconnecting is only to the same instance.
        var target: TargetInfo?
    }

    /// A controller for the target at the socket `locate` returns (called again to reconnect; nil when no target
    /// is found).
    public init(
        sessionName: String = "console", keep: Bool = false, saveDirectory: URL, eventLimit: Int = 200,
        settle: Duration = .milliseconds(250), locate: @escaping @Sendable () -> String?
    ) {
        self.settle = settle
        self.locate = locate
        self.sessionName = sessionName
        self.keep = keep
        self.saveDirectory = saveDirectory
        self.eventLimit = eventLimit
    }

    /// A controller for the target at `socketPath`.
    public convenience init(
        socketPath: String, sessionName: String = "console", keep: Bool = false, saveDirectory: URL,
        settle: Duration = .milliseconds(250)
    ) {
        self.init(sessionName: sessionName, keep: keep, saveDirectory: saveDirectory, settle: settle) { socketPath }
    }

    /// The target's state as the events stream last told it: no request to the target, however often it is called.
    /// After connecting, it waits for the stream's first message; after a command, for the next one (at most
    /// `settle`).
    public func load() async throws -> ConsoleData {
        do {
            let generation = try await connected()
            let (data, commandAnswered) = link.withLock { ($0.client == nil ? nil : $0.last, $0.commandAnswered) }
            if let data, !commandAnswered { return data }
            let settle = self.settle
            let settled = Task { [weak self] in
                try? await Task.sleep(for: settle)
                self?.settled(generation: generation)
            }
            defer { settled.cancel() }
            return try await withCheckedThrowingContinuation { continuation in
                let ready: Result<ConsoleData, any Error>? = link.withLock { link in
                    guard link.generation == generation, link.client != nil else {
                        return .failure(ControlClientError.gone(link.lostReason ?? "the events stream ended"))
                    }
                    if let last = link.last, !link.commandAnswered { return .success(last) }
                    link.waiting.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } catch {
            return lost(Self.headline(error))
        }
    }

    /// Applies a `changes` message of connection `generation` to the copy, and hands it to loads waiting for it.
    private func received(_ message: StreamChanges, generation: Int) {
        let (data, waiting) = link.withLock { link -> (ConsoleData?, [CheckedContinuation<ConsoleData, any Error>]) in
            guard link.generation == generation else { return (nil, []) }
            let isFirst = link.last == nil
            var data = link.last ?? ConsoleData(target: message.target)
            data.apply(message, eventLimit: eventLimit)
            link.last = data
            link.lostReason = nil
            // A message with no change may have been sent before the command ran (the stream and the answer come
            // on different connections): loads after a command wait for one that carries a change, or `settle`.
            if !isFirst, link.commandAnswered, message.changes.isEmpty { return (nil, []) }
            link.commandAnswered = false
            defer { link.waiting = [] }
            return (data, link.waiting)
        }
        if let data { for continuation in waiting { continuation.resume(returning: data) } }
    }

    /// A load after a command waited `settle` and no message came: it gets the data as it is.
    private func settled(generation: Int) {
        let (data, waiting) = link.withLock { link -> (ConsoleData?, [CheckedContinuation<ConsoleData, any Error>]) in
            // Loads waiting for a connection's first message go on waiting: there is nothing to show them yet.
            guard link.generation == generation, let last = link.last else { return (nil, []) }
            link.commandAnswered = false
            defer { link.waiting = [] }
            return (last, link.waiting)
        }
        if let data { for continuation in waiting { continuation.resume(returning: data) } }
    }

    /// The session's id while connected.
    public var session: String? { link.withLock { $0.client?.session } }

    /// Ends the session: its changes are reverted unless `keep`.
    public func close() async {
        let (client, stream) = link.withLock { link in
            defer { link.client = nil; link.stream = nil }
            return (link.client, link.stream)
        }
        if let client, let session = client.session { _ = try? await client.endSession(session) }
        stream?.cancel()
    }

    /// Why the target is lost, short enough for the header (which shows little after the word "lost").
    static func headline(_ error: any Error) -> String {
        switch error as? ControlClientError {
        case .unreachable(_, let reason): "no answer (\(reason))"
        case .refused(let status, let body): "HTTP \(status): \(body.detail)"
        case .gone(let reason): reason
        default: "\(error)"
        }
    }

    private func lost(_ reason: String) -> ConsoleData {
        let (stream, last) = link.withLock { link in
            defer {
                link.client = nil
                link.stream = nil
                link.lostReason = reason
            }
            return (link.stream, link.last)
        }
        stream?.cancel()
        var data =
            last
            ?? ConsoleData(
                target: TargetHeader(name: "no target", pid: 0, uptime: .zero, sessionSeed: 0, wallTime: Date()))
        data.connection = .lost(reason)
        return data
    }

    /// The client with a live session, connecting (again) when there is none.
    private func client() async throws(ControlClientError) -> ControlClient {
        _ = try await connected()
        guard let client = link.withLock({ $0.client }) else { throw .gone(link.withLock { $0.lostReason } ?? "lost") }
        return client
    }

    /// Connects (again) when there is no live session; returns the connection's generation.
    private func connected() async throws(ControlClientError) -> Int {
        if let generation = link.withLock({ $0.client == nil ? nil : $0.generation }) { return generation }
        guard let path = locate() else { throw .unreachable("the socket directory", "no target is serving") }
        var client = ControlClient(socketPath: path)
        let info = try await client.handshake()
        let first = link.withLock { link in
            if link.target == nil { link.target = info }
            return link.target!
        }
        guard first.instance == info.instance else { throw .gone(Self.gone(first, socket: path)) }
        let session = try await client.openSession(SessionRequest(name: sessionName, keep: keep))
        client.session = session.id
        let generation = link.withLock { link in
            link.generation += 1
            return link.generation
        }
        let events = client.events(changes: true)
        let stream = Task { [weak self] in
            do {
                for try await message in events {
                    if case .changes(let changes) = message { self?.received(changes, generation: generation) }
                }
                self?.streamEnded(generation: generation, reason: "the target closed the events stream")
            } catch {
                self?.streamEnded(generation: generation, reason: "\(error)")
            }
        }
        link.withLock { link in
            link.client = client
            link.stream = stream
            link.last = nil  // a new connection (perhaps a new process): its first message is everything
        }
        return generation
    }

    /// Says that the attached target has gone and which targets are live in its socket directory.
    static func gone(_ target: TargetInfo, socket path: String) -> String {
        let directory = URL(fileURLWithPath: (path as NSString).deletingLastPathComponent)
        let live = ControlSocket.find(in: directory).filter(\.isLive)
            .map { "\($0.name)\($0.pid.map { " \($0)" } ?? "")" }
        // Short: the header shows little after "lost".
        return "target gone (\(target.name) pid \(target.pid)); "
            + (live.isEmpty ? "no live targets" : "live: \(live.joined(separator: ", "))")
    }

    private func streamEnded(generation: Int, reason: String) {
        let waiting = link.withLock { link -> [CheckedContinuation<ConsoleData, any Error>] in
            guard link.generation == generation else { return [] }
            link.client = nil
            link.stream = nil
            link.lostReason = reason
            defer { link.waiting = [] }
            return link.waiting
        }
        for continuation in waiting { continuation.resume(throwing: ControlClientError.gone(reason)) }
    }

    /// Sends a request; one that `changes` the target makes the next load wait for the stream to say so.
    private func perform<T>(
        changes: Bool = true, _ body: (ControlClient) async throws(ControlClientError) -> T
    ) async throws -> T {
        let client: ControlClient
        do {
            client = try await self.client()
        } catch {
            throw ConsoleError.refused("\(error)")
        }
        do {
            let answer = try await body(client)
            if changes { link.withLock { $0.commandAnswered = true } }
            return answer
        } catch {
            throw ConsoleError.refused("\(error)")
        }
    }

    public func apply(_ spec: String, to seam: SeamID) async throws {
        _ = try await perform { client throws(ControlClientError) in try await client.apply(spec, to: seam) }
    }

    public func revert(_ seam: SeamID) async throws {
        _ = try await perform { client throws(ControlClientError) in try await client.revert(seam) }
    }

    public func resetCounters(_ seam: SeamID?) async throws {
        try await perform { client throws(ControlClientError) in
            if let seam { _ = try await client.resetCounters(seam) } else { _ = try await client.resetAllCounters() }
        }
    }

    public func release(_ seam: SeamID) async throws -> Int {
        try await perform { client throws(ControlClientError) in try await client.release(seam).released }
    }

    public func setTTL(_ ttl: Duration?, on seam: SeamID) async throws {
        _ = try await perform { client throws(ControlClientError) in try await client.setTTL(ttl, on: seam) }
    }

    public func revertAll() async throws {
        _ = try await perform { client throws(ControlClientError) in try await client.revertAll() }
    }

    @discardableResult
    public func toggleProfile(_ name: String) async throws -> Bool {
        try await perform { client throws(ControlClientError) in try await client.profile(name, .toggle) }.isActive
    }

    public func advanceTime(by duration: Duration) async throws {
        try await perform { client throws(ControlClientError) in try await client.advanceTime(by: duration) }
    }

    public func saveProfile(named name: String, overwrite: Bool) async throws -> String {
        let yaml = try await perform(changes: false) { client throws(ControlClientError) in
            try await client.currentProfile(named: name)
        }
        return try LocalController.save(yaml, named: name, in: saveDirectory, overwrite: overwrite)
    }
}
