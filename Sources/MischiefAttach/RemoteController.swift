import Foundation
import Mischief
import MischiefConsole
import MischiefControl
import Synchronization

/// The console's controller for a target in another process, over its control socket.
///
/// ``updates()`` opens a session and holds it with the events stream, so what the console changes is reverted when
/// the console goes away (unless `keep`). The stream's `changes` messages are the console's updates, and the only
/// way data comes: the first of each connection is everything (``ConsoleUpdate/reset(_:)``), later ones what changed,
/// each passed on when it follows what the console was sent (the console applies it). A command answers once the
/// console has been sent a delta that shows it: the target's answer names the generation the change produced
/// (``ControlAPI/generationHeader``) and the target pushes that change on the stream at once, so the command waits
/// on the stream for it; it never asks again. A target that names none (an older one), or a stream that has not
/// brought it within a second, answers with what the console was sent by then (the change follows on the stream).
///
/// Commands go on one kept connection to the target, one after another (`ControlConnection`, one thread of its own);
/// the events stream on another.
///
/// When the target stops answering it says so (``ConsoleUpdate/lost(_:)``) and tries again every `retry`. It attaches
/// again to the same target, or to a restarted one of the same name at the path `locate` finds (its first update
/// then shows the new process); a target of another name at that path is never attached to: it stays lost and names
/// the live targets.
public final class RemoteController: ConsoleController {
    private let locate: @Sendable () -> String?
    private let sessionName: String
    /// The source the target gives this console's changes: its session's name as the target made it (`console (3)`),
    /// once a session is open; the name asked for before.
    public var source: String { link.withLock { $0.sourceName } ?? sessionName }
    private let keep: Bool
    private let saveDirectory: URL
    private let eventLimit: Int
    private let retry: Duration
    private let link = Mutex(Link())

    private struct Link {
        /// The client with a live session and events stream, while connected.
        var client: ControlClient?
        /// The console reading ``updates()``.
        var continuation: AsyncStream<ConsoleUpdate>.Continuation?
        var feed = 0
        /// Counts connections, so a late answer from an earlier one is not taken for news of this one.
        var connection = 0
        /// The generation of the last delta sent on this connection (0: none yet).
        var sent: UInt64 = 0
        var lostReason: String?
        /// The target first attached to: only it, or a restart of it (the same name), is attached to again.
        var target: TargetHeader?
        /// The session of the last connection, which the next one asks back from the same process: one lost
        /// while the target was stopped is still there, with what it applied.
        var session: (id: String, instance: String?)?
        /// The name the target gave the session: the source of its changes.
        var sourceName: String?
        /// Commands waiting for the stream to reach a generation, by a number of their own.
        var waiters: [Int: (generation: UInt64, continuation: CheckedContinuation<UInt64?, Never>)] = [:]
        var nextWaiter = 0

        /// Takes the waiters the generation sent now satisfies (all of them when `all`: the connection is gone).
        mutating func reached(all: Bool = false) -> [(CheckedContinuation<UInt64?, Never>, UInt64?)] {
            let ready = waiters.filter { all || $0.value.generation <= sent }
            for id in ready.keys { waiters[id] = nil }
            return ready.values.map { ($0.continuation, all ? nil : sent) }
        }
    }

    /// A controller for the target at the socket `locate` returns (called again to reconnect; nil when no target
    /// is found).
    ///
    /// - Parameter retry: How long to wait before trying again to reach a target that went away.
    public init(
        sessionName: String = "console", keep: Bool = false, saveDirectory: URL, eventLimit: Int = 200,
        retry: Duration = .seconds(1), locate: @escaping @Sendable () -> String?
    ) {
        self.locate = locate
        self.sessionName = sessionName
        self.keep = keep
        self.saveDirectory = saveDirectory
        self.eventLimit = eventLimit
        self.retry = retry
    }

    /// A controller for the target at `socketPath`.
    public convenience init(
        socketPath: String, sessionName: String = "console", keep: Bool = false, saveDirectory: URL,
        retry: Duration = .seconds(1)
    ) {
        self.init(sessionName: sessionName, keep: keep, saveDirectory: saveDirectory, retry: retry) { socketPath }
    }

    /// The socket of the target it talks to now, else the one it would try.
    public var socketPath: String? {
        link.withLock { $0.client?.socketPath } ?? locate()
    }

    public func updates() -> AsyncStream<ConsoleUpdate> {
        let (stream, continuation) = AsyncStream<ConsoleUpdate>.makeStream()
        let (previous, feed) = link.withLock { link in
            defer {
                link.feed += 1
                link.continuation = continuation
                link.sent = 0  // the new reader starts with everything
            }
            return (link.continuation, link.feed + 1)
        }
        previous?.finish()
        let retry = self.retry
        let follower = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                let reason = await self.follow()
                self.lost(reason, feed: feed)
                try? await Task.sleep(for: retry)
            }
        }
        continuation.onTermination = { _ in follower.cancel() }
        return stream
    }

    /// Connects, opens a session and its events stream, and sends the console every `changes` message until the
    /// stream ends; returns why it ended.
    private func follow() async -> String {
        let connection: Int
        let events: AsyncThrowingStream<StreamMessage, any Error>
        do throws(ControlClientError) {
            (connection, events) = try await connect()
        } catch {
            return Self.headline(error)
        }
        do {
            for try await message in events {
                if case .delta(let delta) = message { received(delta, connection: connection) }
            }
            return Self.headline(ControlClientError.gone("the target closed the events stream"))
        } catch {
            return Self.headline(error)
        }
    }

    /// Sends the console a delta of connection `connection` when it follows what it was sent (the connection's first:
    /// everything); returns the generation of the last delta sent.
    @discardableResult
    private func received(_ delta: StreamDelta, connection: Int) -> UInt64 {
        let (sent, ready) = link.withLock { link -> (UInt64, [(CheckedContinuation<UInt64?, Never>, UInt64?)]) in
            guard link.connection == connection, link.client != nil else { return (link.sent, []) }
            if link.sent == 0, delta.registry.since == 0 {
                link.continuation?.yield(.reset(delta))
            } else if delta.follows(link.sent) {
                link.continuation?.yield(.delta(delta))
            } else {
                return (link.sent, [])
            }
            link.sent = delta.generation
            link.lostReason = nil
            return (link.sent, link.reached())
        }
        for (waiter, generation) in ready { waiter.resume(returning: generation) }
        return sent
    }

    /// Waits until the stream of `connection` has sent the console generation `generation`, at most a second;
    /// returns the generation sent then, or nil (the connection went, or the stream did not bring it in time).
    private func streamReaches(_ generation: UInt64, connection: Int) async -> UInt64? {
        let id = link.withLock { link in
            link.nextWaiter += 1
            return link.nextWaiter
        }
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: .seconds(1))
            self?.link.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: nil)
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { continuation in
            let now = link.withLock { link -> UInt64?? in
                guard link.connection == connection, link.client != nil else { return .some(nil) }
                if link.sent >= generation { return .some(link.sent) }
                link.waiters[id] = (generation, continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Tells the console of feed `feed` that the target is lost, once a connection has ended.
    private func lost(_ reason: String, feed: Int) {
        let (continuation, waiting) = link.withLock { link in
            link.client = nil
            link.sent = 0
            link.lostReason = reason
            return (link.feed == feed ? link.continuation : nil, link.reached(all: true))
        }
        for (waiter, _) in waiting { waiter.resume(returning: nil) }
        continuation?.yield(.lost(reason))
    }

    /// The session's id while connected.
    public var session: String? { link.withLock { $0.client?.session } }

    /// Ends the session (its changes are reverted unless `keep`) and stops following the target.
    public func close() async {
        let (client, continuation) = link.withLock { link in
            defer {
                link.client = nil
                link.continuation = nil
                link.session = nil
            }
            return (link.client, link.continuation)
        }
        if let client, let session = client.session { _ = try? await client.endSession(session) }
        continuation?.finish()
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

    /// Reaches the target, checks it is the one attached to (or a restart of it), opens a session and its events
    /// stream.
    private func connect() async throws(ControlClientError) -> (Int, AsyncThrowingStream<StreamMessage, any Error>) {
        guard let path = locate() else { throw .unreachable("the socket directory", "no target is serving") }
        var client = ControlClient(socketPath: path)
        // The commands of this connection to the target go on one kept connection (reopened if the target closes it
        // while idle); the events stream has one of its own.
        client.connection = ControlConnection(socketPath: path)
        let info = try await client.handshake()
        let first = link.withLock { link in
            if link.target == nil { link.target = info }
            return link.target!
        }
        guard first.instance == info.instance || first.name == info.name else {
            throw .gone(Self.gone(first, socket: path))
        }
        let session = try await session(on: client, of: info)
        client.session = session.id
        let events = client.events(deltas: true)
        let connection = link.withLock { link in
            link.connection += 1
            link.client = client
            link.sent = 0  // a new connection (perhaps a new process): its first message is everything
            link.target = info
            link.session = client.session.map { ($0, info.instance) }
            link.sourceName = session.name
            return link.connection
        }
        return (connection, events)
    }

    /// The session to hold on `client`: the last connection's, when the same process still has it (it was lost
    /// while the target was stopped, and waits its lease for the console), else a new one.
    private func session(
        on client: ControlClient, of target: TargetHeader
    ) async throws(ControlClientError) -> SessionInfo {
        if let last = link.withLock({ $0.session }), last.instance != nil, last.instance == target.instance {
            do throws(ControlClientError) {
                return try await client.renew(last.id)
            } catch .refused(status: 409, _) {
                // It has ended (its changes reverted): a new one.
            }
        }
        return try await client.openSession(SessionRequest(name: sessionName, keep: keep))
    }

    /// Says that the attached target has gone and which targets are live in its socket directory.
    static func gone(_ target: TargetHeader, socket path: String) -> String {
        let directory = URL(fileURLWithPath: (path as NSString).deletingLastPathComponent)
        let live = ControlSocket.find(in: directory).filter(\.isLive)
            .map { "\($0.name)\($0.pid.map { " \($0)" } ?? "")" }
        // Short: the header shows little after "lost".
        return "target gone (\(target.name) pid \(target.pid)); "
            + (live.isEmpty ? "no live targets" : "live: \(live.joined(separator: ", "))")
    }

    /// Sends a request with the live session, then waits until the stream has brought the console the generation the
    /// answer names (so the answer's effect is in what it was sent); returns the answer and the generation of the last
    /// delta sent.
    private func perform<T>(
        changes: Bool = true, _ body: (ControlClient) async throws(ControlClientError) -> T
    ) async throws -> (T, UInt64) {
        guard let (client, connection) = link.withLock({ link in link.client.map { ($0, link.connection) } }) else {
            throw ConsoleError.refused("the target is lost: \(link.withLock { $0.lostReason } ?? "not connected")")
        }
        let answer: T
        let produced = ProducedGeneration()
        do {
            var client = client
            client.answered = { generation in produced.note(generation) }
            answer = try await body(client)
        } catch {
            throw ConsoleError.refused("\(error)")
        }
        guard changes else { return (answer, 0) }
        // The target pushes the change on the stream at once: wait there for the generation it names.
        if let generation = produced.value,
            let sent = await streamReaches(generation, connection: connection)
        {
            return (answer, sent)
        }
        // An older target (no generation named), a slow stream, or a lost one (the console hears it from the stream).
        return (answer, link.withLock { $0.sent })
    }

    @discardableResult
    public func apply(_ spec: String, to seam: SeamID) async throws -> UInt64 {
        try await perform { client throws(ControlClientError) in try await client.apply(spec, to: seam) }.1
    }

    @discardableResult
    public func revert(_ seam: SeamID) async throws -> UInt64 {
        try await perform { client throws(ControlClientError) in try await client.revert(seam) }.1
    }

    @discardableResult
    public func resetCounters(_ seam: SeamID?) async throws -> UInt64 {
        try await perform { client throws(ControlClientError) in
            if let seam { _ = try await client.resetCounters(seam) } else { _ = try await client.resetAllCounters() }
        }.1
    }

    public func release(_ seam: SeamID) async throws -> (released: Int, generation: UInt64) {
        let (answer, generation) = try await perform { client throws(ControlClientError) in
            try await client.release(seam)
        }
        return (answer.released, generation)
    }

    public func release(
        _ seam: SeamID, answer: String?, holdNext: Bool
    ) async throws -> (released: Int, generation: UInt64) {
        let (result, generation) = try await perform { client throws(ControlClientError) in
            try await client.release(seam, answer: answer, holdNext: holdNext)
        }
        return (result.released, generation)
    }

    @discardableResult
    public func apply(_ spec: String, to seam: SeamID, inTests pattern: String) async throws -> UInt64 {
        try await perform { client throws(ControlClientError) in
            try await client.apply(spec, to: seam, inScopes: pattern)
        }.1
    }

    @discardableResult
    public func revert(_ seam: SeamID, inTests pattern: String) async throws -> UInt64 {
        try await perform { client throws(ControlClientError) in try await client.revert(seam, inScopes: pattern) }.1
    }

    public func release(
        _ seam: SeamID, inTests pattern: String, answer: String?, holdNext: Bool
    ) async throws -> (released: Int, generation: UInt64) {
        let (result, generation) = try await perform { client throws(ControlClientError) in
            try await client.release(seam, inScopes: pattern, answer: answer, holdNext: holdNext)
        }
        return (result.count, generation)
    }

    @discardableResult
    public func revert(layers: [LayerID], on seam: SeamID) async throws -> UInt64 {
        try await perform { client throws(ControlClientError) in
            for layer in layers { try await client.revert(layer: layer) }
        }.1
    }

    @discardableResult
    public func setTTL(_ ttl: Duration?, on seam: SeamID) async throws -> UInt64 {
        try await perform { client throws(ControlClientError) in try await client.setTTL(ttl, on: seam) }.1
    }

    @discardableResult
    public func revertAll() async throws -> UInt64 {
        try await perform { client throws(ControlClientError) in try await client.revertAll() }.1
    }

    @discardableResult
    public func toggleProfile(_ name: String) async throws -> (isOn: Bool, generation: UInt64) {
        let (status, generation) = try await perform { client throws(ControlClientError) in
            try await client.profile(name, .toggle)
        }
        return (status.isActive, generation)
    }

    @discardableResult
    public func advanceTime(by duration: Duration) async throws -> UInt64 {
        try await perform { client throws(ControlClientError) in try await client.advanceTime(by: duration) }.1
    }

    public func recording() async throws -> Recording {
        let (recording, _) = try await perform(changes: false) { client throws(ControlClientError) in
            try await client.recording()
        }
        return recording
    }

    public func saveProfile(named name: String, overwrite: Bool) async throws -> String {
        let (yaml, _) = try await perform(changes: false) { client throws(ControlClientError) in
            try await client.currentProfile(named: name)
        }
        return try LocalController.save(yaml, named: name, in: saveDirectory, overwrite: overwrite)
    }
}

/// The generation a command's answer named, noted from the client's callback.
private final class ProducedGeneration: Sendable {
    private let generation = Mutex<UInt64?>(nil)

    func note(_ value: UInt64) { generation.withLock { $0 = max($0 ?? 0, value) } }
    var value: UInt64? { generation.withLock { $0 } }
}
