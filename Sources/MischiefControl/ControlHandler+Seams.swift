import Foundation
import Mischief

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The routes that read the target and its seams and change them: `/v1/target`, `/v1/changes`, `/v1/seams`, and the
/// deprecated `/v1/console`.
extension ControlHandler {
    /// Who the target is, how it serves and what time it is there: `GET /v1/target`'s answer.
    func targetInfo() -> TargetHeader {
        var header = header(registry.uptime)
        header.apiVersion = ControlAPI.version
        header.libraryVersion = ControlAPI.libraryVersion
        header.socket = socketPath
        header.instance = instance
        header.label = label
        return header
    }

    /// `GET /v1/console`: the newest `events` events (200 by default), only those after `after` when given.
    ///
    /// Deprecated: it answers on for /v1 clients; a console follows `GET /v1/events?changes=1`, and a one-off read
    /// asks `GET /v1/changes?since=0`.
    func consoleState(_ request: APIRequest) throws(APIFailure) -> TargetState {
        var after = 0
        var limit = 200
        do throws(OutOfRange) {
            if let text = request.query["after"] {
                after = try Seconds.integer(text, field: "after", within: 0...Int(Int32.max) * 1024)
            }
            if let text = request.query["events"] {
                limit = min(limit, try Seconds.integer(text, field: "events", within: 0...10_000))
            }
        } catch {
            throw APIFailure("invalid query", error)
        }
        let snapshot = registry.snapshot(includingActions: true)
        let events = registry.events(after: max(after, snapshot.lastEventID - 200), limit: limit)
        return TargetState(
            target: header(snapshot.uptime), seams: snapshot.seams, profiles: registry.profiles, events: events,
            view: snapshot.view, guards: snapshot.guards)
    }

    /// `GET /v1/changes?since=G[&after=E]`: a delta (``StreamDelta``) from generation `G` to now, with the events
    /// after `E` (without it, those logged after `G`); `since=0` is everything, the seams with their actions. What a
    /// console attached to the target asks after a command, so it shows what the command did as soon as it is done.
    func delta(_ request: APIRequest) throws(APIFailure) -> StreamDelta {
        var since: UInt64 = 0
        var after: Int?
        do throws(OutOfRange) {
            if let text = request.query["since"] {
                since = UInt64(try Seconds.integer(text, field: "since", within: 0...Int.max))
            }
            if let text = request.query["after"] {
                after = try Seconds.integer(text, field: "after", within: 0...Int(Int32.max) * 1024)
            }
        } catch {
            throw APIFailure("invalid query", error)
        }
        let delta = registry.delta(since: since, eventsAfter: after, includingActions: since == 0)
        return StreamDelta(target: header(delta.uptime), registry: delta)
    }

    /// Who the target is and what time it is there now, for a console's header.
    func header(_ uptime: Duration) -> TargetHeader {
        TargetHeader(
            name: options.name, pid: getpid(), uptime: uptime, sessionSeed: registry.sessionSeed,
            wallTime: RealClock.date(),
            targetTime: options.targetTime())
    }

    func seamID(_ text: String) throws(APIFailure) -> SeamID {
        do throws(MischiefError) {
            return try SeamID(text)
        } catch {
            throw APIFailure(.notFound, "unknown seam", error.description)
        }
    }

    /// `GET /v1/seams/{id}`: the seam with its actions, and its layers with the sessions that own them. It reads that
    /// one seam (``Registry/snapshot(of:)``), not the registry.
    func detail(of seam: SeamID) throws(APIFailure) -> SeamDetail {
        guard var found = registry.snapshot(of: seam) else { throw unknownSeam(seam) }
        let owners = owners(of: found.layers)
        for index in found.layers.indices { found.layers[index].session = owners[found.layers[index].id] }
        found.actions = registry.actions(for: seam) ?? []
        return SeamDetail(seam: found, layers: found.layers)
    }

    /// The 404 for a seam that is not registered, with the nearest ids.
    func unknownSeam(_ seam: SeamID) -> APIFailure {
        APIFailure(.notFound, "unknown seam", unknownSeamMessage(seam, among: registry.seams.map(\.id)))
    }

    /// Refuses a seam that is not registered, reading nothing else.
    func requireSeam(_ seam: SeamID) throws(APIFailure) {
        guard registry.actions(for: seam) != nil else { throw unknownSeam(seam) }
    }

    private func owners(of layers: [LayerSnapshot]) -> [LayerID: String] {
        (try? withSessions { table in
            var owners: [LayerID: String] = [:]
            for layer in layers { owners[layer.id] = table.owner(of: layer.id, source: layer.source) }
            return owners
        }) ?? [:]
    }

    /// `POST /v1/seams/{id}/release`: lets the calls the seam's pauses hold go on, unchanged or (a breakpoint)
    /// answered with `{"answer": "return(…)"}`; `"holdNext": false` reverts the pause so the rest run.
    func release(
        _ seam: SeamID, _ body: ReleaseRequest = ReleaseRequest(), session: String? = nil, client: String? = nil
    ) throws(APIFailure) -> ReleaseResult {
        try requireSeam(seam)
        do throws(MischiefError) {
            if body.answer == nil, body.holdNext ?? true {
                return ReleaseResult(seam: seam, released: try registry.release(seam))
            }
            let released = try registry.release(
                seam, answer: body.answer, holdNext: body.holdNext ?? true, source: source(for: session, client: client)
            )
            return ReleaseResult(seam: seam, released: released)
        } catch {
            throw APIFailure(refusal: error, unknownSeam: unknownSeamMessage(seam, among: registry.seams.map(\.id)))
        }
    }

    /// `DELETE /v1/layers/{id}`: reverts one layer (by its id, its number in `layers`), leaving
    /// the seam's other layers as they are; answers with the seam's state after it.
    func revertLayer(_ text: String, source: String) throws(APIFailure) -> SeamDetail {
        guard let number = Int(text.hasPrefix("#") ? String(text.dropFirst()) : text), number > 0 else {
            throw APIFailure(.badRequest, "invalid layer", "a layer is its number, such as 12 (from `layers`)")
        }
        let id = LayerID(rawValue: number)
        guard let layer = registry.snapshot().layers.first(where: { $0.id == id && $0.status == .active }) else {
            throw APIFailure(.notFound, "unknown layer", "no active layer #\(number); `GET /v1/seams` lists them")
        }
        registry.revert(layers: [id], source: source)
        return try detail(of: layer.seam)
    }

    /// `POST /v1/seams/{id}/reset`: zeroes the seam's calls, chaos calls and errors.
    func resetCounters(_ seam: SeamID, session: String?, client: String? = nil) throws(APIFailure) -> ResetResult {
        do throws(MischiefError) {
            return ResetResult(
                seam: seam, before: try registry.resetCounters(seam, source: source(for: session, client: client)))
        } catch {
            let known = registry.seams.map(\.id)
            throw APIFailure(.notFound, "unknown seam", unknownSeamMessage(seam, among: known))
        }
    }

    /// `POST /v1/seams/{id}/ttl`: gives the seam's layers a time to live from now, or (nil) none.
    func setTTL(_ ttl: Duration?, on seam: SeamID) throws(APIFailure) -> SeamDetail {
        try requireSeam(seam)
        do throws(MischiefError) {
            try registry.setTTL(ttl, on: seam)
        } catch {
            switch error {
            case .unsupported: throw APIFailure(.conflict, "nothing applied", error.description)
            default: throw APIFailure(.badRequest, "invalid ttl", error.description)
            }
        }
        return try detail(of: seam)
    }

    /// `PUT /v1/seams/{id}`: applies a spec, owned by `session` when given, for `ttl` when given, with a seed derived
    /// from `seed` and the target's label when given.
    func apply(
        _ spec: String, to seam: SeamID, ttl: Duration? = nil, seed: UInt64? = nil, session: String?,
        client: String? = nil
    ) throws(APIFailure) -> SeamDetail {
        try requireSeam(seam)
        let applied: Applied
        do throws(MischiefError) {
            applied = try registry.apply(
                spec: spec, to: seam, source: source(for: session, client: client),
                seed: seed.map { SeededGenerator.seed($0, for: label) },
                fileAccess: options.fileAccess, ttl: ttl)
        } catch {
            throw APIFailure(refusal: error)
        }
        try withSessions { $0.own(applied.layers, by: session) }
        return try detail(of: seam)
    }
}
