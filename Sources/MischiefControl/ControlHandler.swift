import Foundation
import Mischief
import Synchronization

/// The control API without its transport: a registry and the sessions that hold changes on it, turning one request
/// (method, path, query, headers, body, the session it names) into a ``Reply`` (a status, a content type and a JSON
/// body; a time to move; or an events stream for the transport to open).
///
/// It knows nothing of sockets or HTTP framing: ``ControlServer`` decodes HTTP on its event loop, bounds and times
/// the request, and calls ``respond(to:)`` on its event loop or its worker; tests call it directly. Every route
/// takes the registry's lock and the sessions' lock only for a moment, so it may be called from any thread.
///
/// ```swift
/// let handler = ControlHandler(
///     registry: registry, options: .init(name: "orders"), socketPath: "/tmp/o.sock", instance: "test")
/// guard case .answer(let response) = handler.respond(to: APIRequest(method: .GET, uri: "/v1/seams")) else { … }
/// print(response.status.code, String(decoding: response.body, as: UTF8.self))
/// ```
final class ControlHandler: Sendable {
    let registry: Registry
    let options: ControlServer.Options
    /// The socket the transport serves on (named in ``TargetHeader``).
    let socketPath: String
    /// This serving process's identity (see ``ControlServer/instance``).
    let instance: String
    private let state = Mutex(State())

    private struct State {
        var sessions = SessionTable()
        var clock = LeaseClock()
        /// Set when the server starts (see ``ControlServer/Options/label``).
        var label: String?
        /// The session's recording in memory, from the server's start (``ControlServer/Options/recordingCapacity``).
        var recorder: Recorder?
    }

    /// The recording the server keeps in memory, if it keeps one.
    var recorder: Recorder? {
        get { state.withLock { $0.recorder } }
        set { state.withLock { $0.recorder = newValue } }
    }

    /// A handler for `registry`, as the server `options` describe, serving on `socketPath` as `instance`.
    init(registry: Registry, options: ControlServer.Options, socketPath: String, instance: String) {
        self.registry = registry
        self.options = options
        self.socketPath = socketPath
        self.instance = instance
    }

    /// This target's label among targets of its name (see ``ControlServer/Options/label``); its name until set.
    var label: String {
        get { state.withLock { $0.label } ?? options.label ?? options.name }
        set { state.withLock { $0.label = newValue } }
    }

    // MARK: Sessions

    /// The open sessions, by id.
    var sessions: [SessionInfo] {
        state.withLock { $0.sessions.sessions.values.map(\.info).sorted { $0.id < $1.id } }
    }

    /// Ends sessions whose lease has lapsed and reverts what they changed; returns how many ended (see
    /// ``ControlServer/reapExpiredSessions()``).
    @discardableResult
    func reapExpiredSessions() -> Int {
        let ended = withSessionsAtLeaseTime { sessions, now, _ in sessions.expire(now: now) }
        for session in ended { finish(session) }
        return ended.count
    }

    /// Ends every session without reverting (the server stops: the target keeps what it has) and logs it.
    func endAllSessions(reverting: Bool = false) {
        let ended = state.withLock { $0.sessions.endAll(reason: "the control server stopped") }
        if reverting {
            for session in ended { finish(session) }
            return
        }
        for session in ended.map(\.session) {
            registry.report(
                seam: nil, message: "\(session.name) ended: the control server stopped; its changes stay",
                source: session.name)
        }
    }

    /// Runs `body` on the sessions with the lease time now (read under the same lock, so readings keep their order)
    /// and the length of a pause that ended just before it, if any.
    func withSessionsAtLeaseTime<R, Failure: Error>(
        _ body: (inout SessionTable, _ now: Duration, _ pause: Duration?) throws(Failure) -> R
    ) throws(Failure) -> R {
        let raw = options.now
        return try state.withLock { (state) throws(Failure) -> R in
            let now = state.clock.read(raw())
            return try body(&state.sessions, now, state.clock.pause(endedBefore: now))
        }
    }

    func withSessions<R>(_ body: (inout SessionTable) throws(APIFailure) -> R) throws(APIFailure) -> R {
        try state.withLock { (state) throws(APIFailure) -> R in try body(&state.sessions) }
    }

    /// Reverts what an ended session still owns and removes the guards it added (unless it keeps its changes), and
    /// logs why it ended.
    func finish(_ ended: SessionTable.Ended) {
        let session = ended.session
        guard !session.keep else {
            registry.report(
                seam: nil, message: "\(session.name) ended: \(ended.reason); its changes stay (keep)",
                source: session.name)
            return
        }
        let activeProfiles = Set(registry.profiles.filter(\.isActive).map(\.profile.name))
        let profiles = session.profiles.intersection(activeProfiles).sorted()
        let active = registry.activeLayerIDs
        let layers = session.layers.intersection(active)
        // The guards it added go with it.
        let guards = session.guards.sorted().filter { (try? registry.removeGuard($0)) != nil }
        for profile in profiles { registry.revert(profile: profile, source: session.name) }
        registry.revert(layers: layers, source: session.name)
        // What it applied in test scopes goes too (those tests run on without it).
        let scoped = registry.revertInScopes(matching: nil, source: session.name)
        let count = layers.count + profiles.count + scoped
        var what =
            count == 0
            ? "nothing of its own was still applied"
            : "reverted \(count) change\(count == 1 ? "" : "s")"
                + (profiles.isEmpty
                    ? "" : " (profile\(profiles.count == 1 ? "" : "s") \(profiles.joined(separator: ", ")))")
        if !guards.isEmpty {
            what += "; removed guard\(guards.count == 1 ? "" : "s") \(guards.map(String.init).joined(separator: ", "))"
        }
        registry.report(seam: nil, message: "\(session.name) ended: \(ended.reason); \(what)", source: session.name)
    }

    /// A stream holding `session` closed: the session ends, unless the process was just paused (stopped, or
    /// starved) long enough for the client to give up on a stream that went silent; then the client did not go
    /// away, its target did, and the session has its lease to come back (`POST /v1/sessions/ID/renew`).
    func streamClosed(session: String) {
        let outcome = withSessionsAtLeaseTime { sessions, now, pause -> StreamLoss? in
            guard let pause else { return sessions.detachStream(session).map(StreamLoss.ended) }
            return sessions.loseStream(session, now: now).map { StreamLoss.kept($0, pause: pause) }
        }
        switch outcome {
        case .ended(let ended)?:
            finish(ended)
        case .kept(let kept, let pause)?:
            registry.report(
                seam: nil,
                message: "\(kept.name) lost its events stream after the target was paused for "
                    + "\(Self.seconds(pause)) s; it has its lease (\(Self.seconds(kept.lease)) s) to come back",
                source: kept.name)
        case nil:
            break
        }
    }

    private enum StreamLoss {
        case ended(SessionTable.Ended)
        case kept(SessionTable.Session, pause: Duration)
    }

    /// Whole seconds, or tenths below ten.
    static func seconds(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds >= 10 || seconds == seconds.rounded() { return String(Int(seconds.rounded())) }
        return String(format: "%.1f", seconds)
    }

    // MARK: Time

    /// Moves the target's time by `duration` (a ``Reply/advance(_:)``); false when its time is real. It waits on the
    /// target's tasks: the transport calls it off its threads, within ``ControlServer/Limits/advanceTimeout``.
    func advance(by duration: Duration) async -> Bool {
        let moved = await options.advance(duration)
        if moved { registry.noteTimeAdvanced(by: duration, source: "control API") }
        return moved
    }

    /// The answer to `POST /v1/time/advance` once the time `moved` (true), was real (false), or the target's tasks
    /// did not get to it within ``ControlServer/Limits/advanceTimeout`` (nil).
    func advanced(_ moved: Bool?) -> APIResponse {
        switch moved {
        case true?:
            var response = APIResponse.json(targetInfo())
            response.generation = registry.generation
            return response
        case false?:
            return APIFailure(.conflict, "time is real", "apply virtual or freeze to clock.now to move it").response
        case nil:
            return APIFailure(
                .serviceUnavailable, "target busy",
                "the target's tasks did not move its time within \(options.limits.advanceTimeout); it may be blocked"
            ).response
        }
    }
}
