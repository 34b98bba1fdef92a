import Foundation
import Mischief

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ControlHandler {
    /// Answers one request on the calling thread (the server's event loop); every failure is a JSON error with
    /// its status, never a crash.
    func respond(to request: APIRequest) -> Reply {
        do throws(APIFailure) {
            return try route(request)
        } catch {
            return .answer(error.response)
        }
    }

    private func route(_ request: APIRequest) throws(APIFailure) -> Reply {
        let parts = request.parts
        guard let first = parts.first, first.hasPrefix("v"), let version = Int(first.dropFirst()) else {
            throw APIFailure(
                .notFound, "unknown route",
                "\(request.method.rawValue) \(request.path): routes start with /v\(ControlAPI.version)")
        }
        // A header that is not a plain whole number (`abc`, `1.0`, empty) names no version this target speaks.
        let header = request.header(ControlAPI.versionHeader)
        let claimed = header.flatMap { text in text.allSatisfy { ("0"..."9").contains($0) } ? Int(text) : nil }
        if version != ControlAPI.version || (header != nil && claimed != ControlAPI.version) {
            let asked = header.map { claimed.map { "v\($0)" } ?? "'\($0)', which is no version" } ?? "v\(version)"
            throw APIFailure(
                .upgradeRequired, "incompatible API version",
                "this target speaks control API v\(ControlAPI.version) (Mischief \(ControlAPI.libraryVersion)); "
                    + "the request asked for \(asked): use a mischief CLI of the same version")
        }
        let session = try sessionID(of: request)
        let method = request.method
        let rest = Array(parts.dropFirst())

        guard let target = Route(rest) else {
            throw APIFailure(.notFound, "unknown route", "\(method.rawValue) \(request.path)")
        }

        if case .advance = target, method == .POST {
            return .advance(try advanceDuration(request))
        }
        if case .replay = target, method == .POST {
            return try replayRequest(request)
        }
        if case .events = target, method == .GET {
            if let session {
                guard try withSessions({ $0.attachStream(session) }) else { throw Self.noSession(session) }
            }
            // `changes=1` (v1) or `deltas=1` (the glossary's word).
            let changes =
                (request.query["changes"] ?? request.query["deltas"]).map {
                    ["1", "true", "yes"].contains($0.lowercased())
                } ?? false
            return .events(session: session, changes: changes)
        }
        var response = try answer(request, target, session: session)
        if method != .GET, (200..<300).contains(response.status.code) { response.generation = registry.generation }
        return .answer(response)
    }

    private func answer(_ request: APIRequest, _ target: Route, session: String?) throws(APIFailure) -> APIResponse {
        let client = request.header(ControlAPI.clientHeader)
        let method = request.method
        switch (method, target) {
        case (.GET, .target):
            return .json(targetInfo())
        case (.GET, .status):
            return .json(status())
        case (.GET, .view):
            return .json(registry.view)
        case (.GET, .console):
            return .json(try consoleState(request))
        case (.GET, .changes):
            return .json(try delta(request))
        case (.GET, .seams):
            return .json(registry.snapshot(includingActions: true).seams)
        case (.GET, .seam(let id)):
            return .json(try detail(of: try seamID(id)))
        case (.PUT, .seam(let id)):
            let seam = try seamID(id)
            let (spec, ttl, seed) = try applyRequest(of: request)
            return .json(try apply(spec, to: seam, ttl: ttl, seed: seed, session: session, client: client))
        case (.POST, .ttl(let id)):
            let seam = try seamID(id)
            let body: TTLRequest = try decodeJSON(request)
            return .json(try setTTL(try ttl(body.ttl), on: seam))
        case (.POST, .release(let id)):
            let body: ReleaseRequest = request.body.isEmpty ? ReleaseRequest() : try decodeJSON(request)
            return .json(try release(try seamID(id), body, session: session, client: client))
        case (.POST, .reset(let id)):
            return .json(try resetCounters(try seamID(id), session: session, client: client))
        case (.POST, .resetAll):
            return .json(ResetAllResult(reset: registry.resetCounters(source: source(for: session, client: client))))
        case (.DELETE, .layer(let id)):
            return .json(try revertLayer(id, source: source(for: session, client: client)))
        case (.DELETE, .seam(let id)):
            let seam = try seamID(id)
            try requireSeam(seam)
            registry.revert(seam: seam, source: source(for: session, client: client))
            return .json(try detail(of: seam))
        case (.GET, .scopes):
            return .json(registry.scopes)
        case (.POST, .scopeChange(let verb)):
            return .json(try changeScopes(verb, request, session: session, client: client))
        case (.GET, .profiles):
            return .json(registry.profiles)
        case (.POST, .profiles):
            return .json(try define(request), status: .created)
        case (.GET, .currentProfile):
            return try currentProfile(named: request.query["name"] ?? "saved")
        case (.POST, .profile(let name, let verb)):
            return .json(try profile(name, verb, ttl: try profileTTL(request), session: session, client: client))
        case (.POST, .revertAll):
            let reverted = registry.revertAll(source: source(for: session, client: client))
            try withSessions { $0.disownAll() }
            return .json(RevertAllResult(reverted: reverted))
        case (.GET, .guards):
            return .json(registry.guards)
        case (.POST, .guards):
            return .json(try addGuard(request, session: session, client: client), status: .created)
        case (.DELETE, .guard(let id)):
            return .json(try removeGuard(id))
        case (.POST, .rearm(let id)):
            return .json(try rearmGuard(id))
        case (.GET, .recording), (.POST, .recording):
            guard let recorder else {
                throw APIFailure(
                    .notFound, "not recording",
                    "this target keeps no recording (ControlServer.Options.recordingCapacity is 0)")
            }
            return APIResponse(
                status: .ok, contentType: "application/x-ndjson", body: Data(recorder.recording.jsonLines.utf8))
        case (.GET, .sessions):
            return .json(sessions)
        case (.POST, .sessions):
            return .json(try openSession(request), status: .created)
        case (.POST, .renew(let id)):
            guard let renewed = withSessionsAtLeaseTime({ sessions, now, _ in sessions.renew(id, now: now) }) else {
                throw Self.noSession(id)
            }
            return .json(renewed.info)
        case (.DELETE, .session(let id)):
            guard let ended = try withSessions({ $0.end(id, reason: "it was closed") }) else {
                throw Self.noSession(id)
            }
            finish(ended)
            return .json(ended.session.info)
        default:
            throw APIFailure(
                .methodNotAllowed, "method not allowed", "\(method.rawValue) is not allowed on \(request.path)")
        }
    }

    /// `POST /v1/time/advance`'s duration, range-checked before it becomes a `Duration`.
    private func advanceDuration(_ request: APIRequest) throws(APIFailure) -> Duration {
        let body: AdvanceRequest = try decodeJSON(request)
        do throws(OutOfRange) {
            return try Seconds.duration(body.seconds, field: "seconds", within: Seconds.positive(upTo: Seconds.largest))
        } catch {
            throw APIFailure("invalid duration", error)
        }
    }

    /// The routes under `/v1`.
    private enum Route {
        case target, view, console, seams, seam(String), release(String), reset(String), ttl(String), profiles,
            currentProfile, profile(String, ProfileVerb)
        case status, resetAll, revertAll, advance, replay, sessions, renew(String), session(String), events, changes
        case guards, `guard`(String), rearm(String)
        case recording, layer(String)
        case scopes, scopeChange(String)

        init?(_ parts: [String]) {
            switch parts.count {
            case 1:
                switch parts[0] {
                case "target": self = .target
                case "status": self = .status
                case "console": self = .console
                case "seams": self = .seams
                case "profiles": self = .profiles
                case "revert-all": self = .revertAll
                case "reset": self = .resetAll
                case "sessions": self = .sessions
                case "events": self = .events
                case "changes", "delta": self = .changes  // `delta`: the glossary's word
                case "guards": self = .guards
                case "recording": self = .recording
                case "replay": self = .replay
                case "scopes": self = .scopes
                default: return nil
                }
            case 2:
                switch (parts[0], parts[1]) {
                case ("target", "view"): self = .view
                case ("time", "advance"): self = .advance
                case ("profiles", "current"): self = .currentProfile
                case ("seams", _): self = .seam(parts[1])
                case ("sessions", _): self = .session(parts[1])
                case ("guards", _): self = .guard(parts[1])
                case ("layers", _): self = .layer(parts[1])
                case ("scopes", "apply"), ("scopes", "revert"), ("scopes", "release"): self = .scopeChange(parts[1])
                default: return nil
                }
            case 3:
                switch (parts[0], parts[2]) {
                case ("profiles", _):
                    guard let verb = ProfileVerb(rawValue: parts[2]) else { return nil }
                    self = .profile(parts[1], verb)
                case ("sessions", "renew"): self = .renew(parts[1])
                case ("seams", "release"): self = .release(parts[1])
                case ("seams", "reset"): self = .reset(parts[1])
                case ("seams", "ttl"): self = .ttl(parts[1])
                case ("guards", "rearm"): self = .rearm(parts[1])
                default: return nil
                }
            default:
                return nil
            }
        }
    }

    static func noSession(_ id: String) -> APIFailure {
        APIFailure(
            .conflict, "no such session", "session \(id) has ended (or never existed); its changes were reverted")
    }
}
