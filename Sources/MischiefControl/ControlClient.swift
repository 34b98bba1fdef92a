import Foundation
import Mischief
import Synchronization

/// Talks to a target's control API over its Unix socket: one connection per request (or, for an attached console,
/// one kept connection for all of them), plus a long-lived events stream.
///
/// ```swift
/// let client = ControlClient(socketPath: "/run/user/1000/mischief/orders-4242.sock")
/// let target = try await client.handshake()          // checks the API version
/// try await client.apply("shift(+1d)", to: "clock.now")
/// print(try await client.seam("clock.now").seam.calls)
/// ```
public struct ControlClient: Sendable {
    /// The socket the client connects to.
    public let socketPath: String
    /// The session its changes belong to, if any.
    public var session: String?
    /// What the client calls itself (`Mischief-Client`): the source of the changes it makes without a session.
    public var name: String?
    /// How long one request may take, from connecting to the end of the answer.
    public var timeout: Duration = .seconds(10)
    /// How long an events stream may stay silent (the target sends a keep-alive every second) before it is lost.
    public var silence: Duration = .seconds(10)
    /// Told the registry generation each answer to a change carries (``ControlAPI/generationHeader``): what the
    /// events stream reaches once it shows the change.
    public var answered: (@Sendable (UInt64) -> Void)?

    /// The HTTP methods the API uses.
    public enum Method: String, Sendable {
        /// Reads: a target, its seams, status, profiles, guards, changes and the events stream.
        case GET
        /// Applies a spec to a seam (`PUT /v1/seams/{id}`).
        case PUT
        /// Acts: releases, resets, reverts everything, switches profiles, adds guards, opens sessions.
        case POST
        /// Removes: reverts a seam, removes a guard, ends a session.
        case DELETE
    }

    /// The API requests go to in this process instead of over the socket (tests of the routes); nil: the socket.
    let handler: ControlHandler?
    /// The kept connection requests go on, one after another (a request asked while it is busy goes on a connection
    /// of its own); nil: each request on a connection of its own, closed after the answer.
    package var connection: ControlConnection?

    /// A client of the target serving on `socketPath`, whose changes belong to `session` when given.
    public init(socketPath: String, session: String? = nil) {
        self.socketPath = socketPath
        self.session = session
        self.handler = nil
    }

    /// A client that calls `handler` in this process, with no socket between them: the same requests, headers and
    /// answers, without the transport (no events stream).
    init(handler: ControlHandler, session: String? = nil) {
        self.socketPath = handler.socketPath
        self.session = session
        self.handler = handler
    }

    // MARK: Target

    /// Reads the target and checks that it speaks this client's API version.
    ///
    /// - Throws: ``ControlClientError/incompatible(target:client:detail:)`` when the versions differ.
    @discardableResult
    public func handshake() async throws(ControlClientError) -> TargetHeader {
        let info: TargetHeader = try await get("target")
        guard info.apiVersion == ControlAPI.version else {
            throw .incompatible(target: info.apiVersion ?? 0, client: ControlAPI.version, detail: "")
        }
        return info
    }

    /// Who the target is: name, pid, uptime, versions, seed and label (`GET /v1/target`).
    public func target() async throws(ControlClientError) -> TargetHeader { try await get("target") }

    /// What an orchestrator gates on: chaos allowed, active layers, held calls, counters (`GET /v1/status`).
    public func status() async throws(ControlClientError) -> TargetStatus { try await get("status") }

    /// What the target publishes for the console's target pane (`GET /v1/target/view`).
    public func view() async throws(ControlClientError) -> TargetView { try await get("target/view") }

    /// Everything a console shows, in one request: the newest `events` events, only those after `after` when
    /// given (a console that keeps the ones it has).
    ///
    /// Deprecated with `GET /v1/console`, which answers on for /v1 clients: a console follows the events stream
    /// (``events(deltas:)``), and a one-off read asks ``delta(since:eventsAfter:)`` with generation 0.
    @available(
        *, deprecated,
        message: "GET /v1/console is deprecated: follow events(deltas: true), or read delta(since: 0)"
    )
    public func console(events: Int = 200, after: Int? = nil) async throws(ControlClientError) -> TargetState {
        try await get("console?events=\(events)" + (after.map { "&after=\($0)" } ?? ""))
    }

    // MARK: Seams

    /// What changed after registry generation `generation` (0: everything), with the events after `eventsAfter`
    /// (`GET /v1/changes`): a delta to apply to a copy that is as of `generation`.
    public func delta(since generation: UInt64, eventsAfter: Int? = nil) async throws(ControlClientError)
        -> StreamDelta
    {
        try await get("changes?since=\(generation)" + (eventsAfter.map { "&after=\($0)" } ?? ""))
    }

    /// Every seam's definition, actions, active spec, counters and revert status (`GET /v1/seams`).
    public func seams() async throws(ControlClientError) -> [SeamSnapshot] { try await get("seams") }

    /// One seam, with its layers and the sessions that own them (`GET /v1/seams/{id}`).
    public func seam(_ id: SeamID) async throws(ControlClientError) -> SeamDetail {
        try await get("seams/\(Self.escape(id.rawValue))")
    }

    /// Applies a spec, for `ttl` when given (the target reverts it by itself then); the target answers with the
    /// seam's new state. A `seed` is the seed for its random parts, which the target derives its own from with its
    /// label.
    @discardableResult
    public func apply(
        _ spec: String, to seam: SeamID, ttl: Duration? = nil, seed: UInt64? = nil
    ) async throws(ControlClientError) -> SeamDetail {
        try await send(
            .PUT, "seams/\(Self.escape(seam.rawValue))",
            json: ApplyRequest(spec: spec, ttl: ttl.map(TTLValue.init), seed: seed))
    }

    /// Gives the layers on a seam a time to live from now, or (nil) lets them last until reverted.
    @discardableResult
    public func setTTL(_ ttl: Duration?, on seam: SeamID) async throws(ControlClientError) -> SeamDetail {
        try await send(
            .POST, "seams/\(Self.escape(seam.rawValue))/ttl", json: TTLRequest(ttl: ttl.map(TTLValue.init)))
    }

    /// Reverts every layer on a seam (`DELETE /v1/seams/{id}`); the answer is the seam's state after it.
    @discardableResult
    public func revert(_ seam: SeamID) async throws(ControlClientError) -> SeamDetail {
        try await send(.DELETE, "seams/\(Self.escape(seam.rawValue))")
    }

    /// Reverts one layer (`DELETE /v1/layers/{id}`), leaving the seam's others; the answer is the seam's state after.
    @discardableResult
    public func revert(layer: LayerID) async throws(ControlClientError) -> SeamDetail {
        try await send(.DELETE, "layers/\(layer.rawValue)")
    }

    /// Releases the calls a `pause` holds on a seam; the answer says how many went on.
    @discardableResult
    public func release(_ seam: SeamID) async throws(ControlClientError) -> ReleaseResult {
        try await send(.POST, "seams/\(Self.escape(seam.rawValue))/release")
    }

    /// Ends the calls a `pause` holds on a seam as a breakpoint does: each returns or throws what the spec `answer`
    /// gives (nil: goes on unchanged); with `holdNext` false the pause is reverted so the rest run.
    @discardableResult
    public func release(
        _ seam: SeamID, answer: String?, holdNext: Bool = true
    ) async throws(ControlClientError) -> ReleaseResult {
        try await send(
            .POST, "seams/\(Self.escape(seam.rawValue))/release",
            json: ReleaseRequest(answer: answer, holdNext: holdNext ? nil : false))
    }

    /// Resets a seam's counters (calls, chaos calls, errors) to zero; the answer has them as they were.
    @discardableResult
    public func resetCounters(_ seam: SeamID) async throws(ControlClientError) -> ResetResult {
        try await send(.POST, "seams/\(Self.escape(seam.rawValue))/reset")
    }

    /// Resets every seam's counters; the answer says how many had counts.
    @discardableResult
    public func resetAllCounters() async throws(ControlClientError) -> ResetAllResult {
        try await send(.POST, "reset")
    }

    /// Reverts every change on the target, whoever made it (`POST /v1/revert-all`).
    @discardableResult
    public func revertAll() async throws(ControlClientError) -> RevertAllResult {
        try await send(.POST, "revert-all")
    }

    // MARK: Test scopes

    /// The test scopes of a test process that publishes them (`GET /v1/scopes`): each running or ended test with its
    /// status, times, counts and layers; empty for other targets.
    public func scopes() async throws(ControlClientError) -> [ScopeSnapshot] { try await get("scopes") }

    /// Applies `spec` to `seam` in the running tests `scope` names (a number, an exact name, or a pattern with `*`),
    /// and only in them; reverted when this client's session ends, if it has one.
    @discardableResult
    public func apply(
        _ spec: String, to seam: SeamID, inScopes scope: String, seed: UInt64? = nil
    ) async throws(ControlClientError) -> ScopeChangeResult {
        try await send(
            .POST, "scopes/apply", json: ScopeChangeRequest(scope: scope, seam: seam, spec: spec, seed: seed))
    }

    /// Reverts what this client applied in the tests `scope` names (on `seam` only, when given).
    @discardableResult
    public func revert(_ seam: SeamID?, inScopes scope: String) async throws(ControlClientError)
        -> ScopeChangeResult
    {
        try await send(.POST, "scopes/revert", json: ScopeChangeRequest(scope: scope, seam: seam))
    }

    /// Lets the calls held by pauses in the running tests `scope` names go on (on `seam` only, when given).
    @discardableResult
    public func release(_ seam: SeamID?, inScopes scope: String) async throws(ControlClientError)
        -> ScopeChangeResult
    {
        try await send(.POST, "scopes/release", json: ScopeChangeRequest(scope: scope, seam: seam))
    }

    /// Ends the calls held on `seam` in the running tests `scope` names as a breakpoint does: each returns or throws
    /// what the spec `answer` gives (nil: goes on unchanged); with `holdNext` false the pause is reverted so the rest
    /// of each test runs.
    @discardableResult
    public func release(
        _ seam: SeamID, inScopes scope: String, answer: String?, holdNext: Bool = true
    ) async throws(ControlClientError) -> ScopeChangeResult {
        try await send(
            .POST, "scopes/release",
            json: ScopeChangeRequest(scope: scope, seam: seam, answer: answer, holdNext: holdNext ? nil : false))
    }

    // MARK: Guards

    /// The target's guards, each armed or tripped.
    public func guards() async throws(ControlClientError) -> [GuardStatus] { try await get("guards") }

    /// Adds a guard: `when` is its condition (`errors(net.request) > 50% over 10s`); it reverts everything, or
    /// the profile named `profile`.
    @discardableResult
    public func addGuard(_ when: String, profile: String? = nil) async throws(ControlClientError) -> GuardStatus {
        try await send(.POST, "guards", json: GuardRequest(when: when, profile: profile))
    }

    /// Removes a guard.
    @discardableResult
    public func removeGuard(_ id: Int) async throws(ControlClientError) -> GuardStatus {
        try await send(.DELETE, "guards/\(id)")
    }

    /// Arms a tripped guard again.
    @discardableResult
    public func rearmGuard(_ id: Int) async throws(ControlClientError) -> GuardStatus {
        try await send(.POST, "guards/\(id)/rearm")
    }

    // MARK: Profiles

    /// The profiles the target knows, each with its state and the seams it changes (`GET /v1/profiles`).
    public func profiles() async throws(ControlClientError) -> [ProfileStatus] { try await get("profiles") }

    /// Defines the profiles in a YAML (or JSON) text.
    @discardableResult
    public func define(profiles text: String) async throws(ControlClientError) -> [ProfileStatus] {
        try await send(.POST, "profiles", body: Data(text.utf8), contentType: "application/yaml")
    }

    /// Applies, reverts or toggles a profile; `ttl`, for ``ProfileVerb/apply``, gives every entry that time to live
    /// instead of the profile's own.
    @discardableResult
    public func profile(
        _ name: String, _ verb: ProfileVerb, ttl: Duration? = nil
    ) async throws(ControlClientError) -> ProfileStatus {
        guard let ttl else { return try await send(.POST, "profiles/\(Self.escape(name))/\(verb.rawValue)") }
        return try await send(
            .POST, "profiles/\(Self.escape(name))/\(verb.rawValue)", json: TTLRequest(ttl: TTLValue(ttl)))
    }

    /// The current state as a profile file's YAML.
    public func currentProfile(named name: String) async throws(ControlClientError) -> String {
        let (_, data) = try await request(.GET, "profiles/current?name=\(Self.escape(name))")
        return String(decoding: data, as: UTF8.self)
    }

    /// The target's recording of its session (`GET /v1/recording`): every event since it started serving, with call
    /// numbers, seeds and specs, as `Recording` reads it; refused (404) by a target that keeps none.
    public func recording() async throws(ControlClientError) -> Recording {
        let (_, data) = try await request(.GET, "recording")
        do throws(RecordingError) {
            return try Recording(jsonLines: String(decoding: data, as: UTF8.self))
        } catch {
            throw .protocolError("the target's recording did not read: \(error)")
        }
    }

    /// Moves the target's virtual time forward by `duration` (`POST /v1/time/advance`); refused while its time is real.
    public func advanceTime(by duration: Duration) async throws(ControlClientError) {
        let _: TargetHeader = try await send(.POST, "time/advance", json: AdvanceRequest(seconds: duration.seconds))
    }

    /// Replays a recording in the target (`POST /v1/replay` with its JSON Lines) and waits for the outcome: every
    /// step made again, or the first divergence. The target resets its counters first; see `Registry.replay`.
    ///
    /// - Parameters:
    ///   - jsonLines: The recording, as `MISCHIEF_RECORD` or `mischief record` wrote it.
    ///   - timeout: How long the target waits for the calls a step needs before it counts as diverged; nil (the
    ///     default): as long as the recording took, with a margin (`ReplaySchedule.derivedTimeout`).
    /// - Throws: ``ControlClientError/refused(status:_:)`` with the line for a recording the target cannot read.
    public func replay(jsonLines: String, timeout: Duration? = nil) async throws(ControlClientError)
        -> ReplayOutcome
    {
        var client = self
        // The target answers once it has finished, or at its timeout: wait as long as it will, and a little more.
        let wait =
            timeout ?? (try? ReplaySchedule(Recording(jsonLines: jsonLines)))?.derivedTimeout ?? .seconds(60)
        client.timeout = wait + .seconds(10)
        return try await client.send(
            .POST, timeout.map { "replay?timeout=\($0.seconds)" } ?? "replay", body: Data(jsonLines.utf8),
            contentType: "application/x-ndjson")
    }

    // MARK: Sessions

    /// Opens a session; send its id with changes (``session``) and hold it with ``events(deltas:)`` or ``renew(_:)``.
    public func openSession(_ request: SessionRequest) async throws(ControlClientError) -> SessionInfo {
        try await send(.POST, "sessions", json: request)
    }

    /// Renews a session's lease, so it lives on without an open events stream.
    @discardableResult
    public func renew(_ session: String) async throws(ControlClientError) -> SessionInfo {
        try await send(.POST, "sessions/\(Self.escape(session))/renew")
    }

    /// Ends a session: the target reverts what it still owns (unless it keeps its changes) and removes its guards.
    @discardableResult
    public func endSession(_ session: String) async throws(ControlClientError) -> SessionInfo {
        try await send(.DELETE, "sessions/\(Self.escape(session))")
    }

    // MARK: Events

    /// The target's events stream, holding ``session`` open while it is read. It ends with an error when the
    /// target goes away or stays silent longer than ``silence``; cancelling the reading task closes it.
    ///
    /// By default it carries ``StreamMessage/delta(_:)`` messages (`changes` in the v1 JSON, and the `changes=1` it
    /// asks with) after ``StreamMessage/hello(_:)``, the one dialect consoles, `mischief watch` and
    /// `mischief apply --hold` read: apply each to a `TargetState` with `TargetState.applying(_:eventLimit:)`. With
    /// `deltas: false`, the older dialect of `event` and `counters` messages, which answers on for /v1 clients and is
    /// deprecated.
    ///
    /// The socket is read on a thread of its own, never on Swift's cooperative pool.
    public func events(deltas: Bool = true) -> AsyncThrowingStream<StreamMessage, any Error> {
        var query = session.map { ["session=\(Self.escape($0))"] } ?? []
        if deltas { query.append("changes=1") }
        let path = "/v\(ControlAPI.version)/events" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let head =
            "GET \(path) HTTP/1.1\r\nHost: mischief\r\n"
            + "\(ControlAPI.versionHeader): \(ControlAPI.version)\r\n\r\n"
        let socketPath = self.socketPath
        let silence = self.silence
        return AsyncThrowingStream { continuation in
            let cancellation = StreamCancellation()
            let thread = Thread {
                var parser = StreamParser()
                var refusal: [UInt8] = []
                var status: Int?
                do throws(ControlClientError) {
                    try SocketExchange.stream(
                        Array(head.utf8), to: socketPath, silence: silence, cancellation: cancellation
                    ) { code, body in
                        status = code
                        if code == 200 {
                            for message in parser.feed(Data(body)) { continuation.yield(message) }
                        } else {
                            refusal += body
                        }
                    }
                    if cancellation.isCancelled { return continuation.finish() }
                    if let status, status != 200 {
                        return continuation.finish(throwing: Self.failure(status: status, data: Data(refusal)))
                    }
                    continuation.finish(
                        throwing: ControlClientError.disconnected("the target closed the events stream"))
                } catch {
                    if cancellation.isCancelled { return continuation.finish() }
                    continuation.finish(throwing: error)
                }
            }
            thread.name = "mischief-events"
            continuation.onTermination = { _ in cancellation.cancel() }
            thread.start()
        }
    }

    // MARK: Requests

    func get<T: Decodable>(_ path: String) async throws(ControlClientError) -> T {
        try await send(.GET, path)
    }

    func send<T: Decodable>(
        _ method: Method, _ path: String, json: some Encodable
    ) async throws(ControlClientError) -> T {
        let body: Data
        do { body = try JSONEncoder.control.encode(json) } catch { throw .protocolError("\(error)") }
        return try await send(method, path, body: body, contentType: "application/json")
    }

    func send<T: Decodable>(
        _ method: Method, _ path: String, body: Data = Data(), contentType: String? = nil
    ) async throws(ControlClientError) -> T {
        let (_, data) = try await request(method, path, body: body, contentType: contentType)
        do {
            return try JSONDecoder.control.decode(T.self, from: data)
        } catch {
            throw .protocolError("the target's answer to \(method.rawValue) /v1/\(path) did not decode: \(error)")
        }
    }

    /// Sends one request (`path` escaped as on the wire, after `/v1/`) and waits at most ``timeout``; a status
    /// other than 2xx becomes ``ControlClientError/refused(status:_:)``.
    public func request(
        _ method: Method, _ path: String, body: Data = Data(), contentType: String? = nil
    ) async throws(ControlClientError) -> (status: Int, body: Data) {
        let status: Int
        let data: Data
        let generation: UInt64?
        if let handler {
            (status, data, generation) = try await Self.exchange(
                method, path, body: body, contentType: contentType, session: session, name: name, with: handler)
        } else {
            let kept = connection?.socketPath == socketPath ? connection : nil
            let bytes = Self.makeRequest(
                method, path, body: body, contentType: contentType, session: session, name: name,
                keepAlive: kept != nil)
            if let kept, let answer = try await kept.exchange(bytes, timeout: timeout) {
                (status, data, generation) = answer
            } else {
                (status, data, generation) = try await SocketExchange.exchange(bytes, to: socketPath, timeout: timeout)
            }
        }
        guard (200..<300).contains(status) else { throw Self.failure(status: status, data: data) }
        if let generation { answered?(generation) }
        return (status, data)
    }

    /// The request's bytes: asking the target to close the connection after the answer, unless it is to be kept
    /// for the next request (`keepAlive`).
    static func makeRequest(
        _ method: Method, _ path: String, body: Data, contentType: String?, session: String?, name: String? = nil,
        keepAlive: Bool = false
    ) -> [UInt8] {
        var head =
            "\(method.rawValue) /v\(ControlAPI.version)/\(path) HTTP/1.1\r\nHost: mischief\r\n"
            + "\(ControlAPI.versionHeader): \(ControlAPI.version)\r\nContent-Length: \(body.count)\r\n"
            + (keepAlive ? "" : "Connection: close\r\n")
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if let session { head += "\(ControlAPI.sessionHeader): \(session)\r\n" }
        if let name, !name.contains(where: \.isNewline) { head += "\(ControlAPI.clientHeader): \(name)\r\n" }
        return Array((head + "\r\n").utf8) + Array(body)
    }

    /// One request answered by `handler` in this process, with the headers ``makeRequest(_:_:body:contentType:session:name:keepAlive:)``
    /// sends.
    static func exchange(
        _ method: Method, _ path: String, body: Data, contentType: String?, session: String?, name: String?,
        with handler: ControlHandler
    ) async throws(ControlClientError) -> (status: Int, body: Data, generation: UInt64?) {
        var headers = [
            (name: ControlAPI.versionHeader, value: String(ControlAPI.version)),
            (name: "Content-Length", value: String(body.count)),
        ]
        if let contentType { headers.append((name: "Content-Type", value: contentType)) }
        if let session { headers.append((name: ControlAPI.sessionHeader, value: session)) }
        if let name, !name.contains(where: \.isNewline) { headers.append((name: ControlAPI.clientHeader, value: name)) }
        let request = APIRequest(
            method: APIMethod(method.rawValue), uri: "/v\(ControlAPI.version)/\(path)", headers: headers, body: body)
        let response: APIResponse
        switch handler.respond(to: request) {
        case .answer(let answer): response = answer
        case .advance(let duration): response = handler.advanced(await handler.advance(by: duration))
        case .replay(let recording, let timeout): response = await handler.replay(recording, timeout: timeout)
        case .events: throw .protocolError("an events stream needs the socket")
        }
        return (response.status.code, response.body, response.generation)
    }

    static func escape(_ component: String) -> String {
        component.addingPercentEncoding(
            withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?&="))) ?? component
    }

    static func failure(status: Int, data: Data) -> ControlClientError {
        let body =
            (try? JSONDecoder.control.decode(ErrorBody.self, from: data))
            ?? ErrorBody(error: "HTTP \(status)", detail: String(decoding: data.prefix(500), as: UTF8.self))
        if status == 426 {
            return .incompatible(target: nil, client: ControlAPI.version, detail: body.detail)
        }
        return .refused(status: status, body)
    }
}
