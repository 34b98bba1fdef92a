import Foundation
import Mischief
import MischiefConsole
import MischiefFiles
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ControlServer {
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
            throw APIFailure(.notFound, "unknown route", "\(request.method.rawValue) \(request.path): routes start with /v\(ControlAPI.version)")
        }
        let claimed = request.header(ControlAPI.versionHeader).flatMap { Int($0) }
        if version != ControlAPI.version || (claimed != nil && claimed != ControlAPI.version) {
            throw APIFailure(
                .upgradeRequired, "incompatible API version",
                "this target speaks control API v\(ControlAPI.version) (Mischief \(ControlAPI.libraryVersion)); "
                    + "the request asked for v\(claimed ?? version): use a mischief CLI of the same version")
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
        if case .events = target, method == .GET {
            if let session {
                guard try withSessions({ $0.attachStream(session) }) else { throw Self.noSession(session) }
            }
            return .events(session: session)
        }
        return .answer(try answer(request, target, session: session))
    }

    private func answer(_ request: APIRequest, _ target: Route, session: String?) throws(APIFailure) -> APIResponse {
        let method = request.method
        switch (method, target) {
        case (.GET, .target):
            return .json(targetInfo())
        case (.GET, .view):
            return .json(registry.snapshot().view)
        case (.GET, .console):
            return .json(try consoleData(request))
        case (.GET, .seams):
            // Rows straight from a snapshot: the console's whole answer (events, view) is not needed here.
            return .json(registry.snapshot().seams.map { SeamRow($0, actions: registry.actions(for: $0.id) ?? []) })
        case (.GET, .seam(let id)):
            return .json(try detail(of: try seamID(id)))
        case (.PUT, .seam(let id)):
            let seam = try seamID(id)
            let spec = try specText(of: request)
            return .json(try apply(spec, to: seam, session: session))
        case (.DELETE, .seam(let id)):
            let seam = try seamID(id)
            _ = try detail(of: seam)
            registry.revert(seam: seam)
            return .json(try detail(of: seam))
        case (.GET, .profiles):
            return .json(registry.profiles.map(ProfileRow.init))
        case (.POST, .profiles):
            return .json(try define(request), status: .created)
        case (.GET, .currentProfile):
            return try currentProfile(named: request.query["name"] ?? "saved")
        case (.POST, .profile(let name, let verb)):
            return .json(try profile(name, verb, session: session))
        case (.POST, .revertAll):
            let active = registry.snapshot().entries.filter { $0.status == .active }.count
            registry.revertAll()
            try withSessions { $0.disownAll() }
            return .json(RevertAllResult(reverted: active))
        case (.GET, .sessions):
            return .json(sessions)
        case (.POST, .sessions):
            let body: SessionRequest = request.body.isEmpty ? SessionRequest() : try decodeJSON(request)
            var lease = options.lease
            if let seconds = body.lease {
                do throws(OutOfRange) {
                    lease = try Seconds.duration(seconds, field: "lease", within: Seconds.positive(upTo: 86_400))
                } catch {
                    throw APIFailure("invalid lease", error)
                }
            }
            let now = options.now()
            let opened = try withSessions { $0.open(name: body.name, lease: lease, keep: body.keep ?? false, now: now) }
            return .json(opened.info, status: .created)
        case (.POST, .renew(let id)):
            let now = options.now()
            guard let renewed = try withSessions({ $0.renew(id, now: now) }) else { throw Self.noSession(id) }
            return .json(renewed.info)
        case (.DELETE, .session(let id)):
            guard let ended = try withSessions({ $0.end(id, reason: "it was closed") }) else { throw Self.noSession(id) }
            finish(ended)
            return .json(ended.session.info)
        default:
            throw APIFailure(.methodNotAllowed, "method not allowed", "\(method.rawValue) is not allowed on \(request.path)")
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
        case target, view, console, seams, seam(String), profiles, currentProfile, profile(String, String)
        case revertAll, advance, sessions, renew(String), session(String), events

        init?(_ parts: [String]) {
            switch parts.count {
            case 1:
                switch parts[0] {
                case "target": self = .target
                case "console": self = .console
                case "seams": self = .seams
                case "profiles": self = .profiles
                case "revert-all": self = .revertAll
                case "sessions": self = .sessions
                case "events": self = .events
                default: return nil
                }
            case 2:
                switch (parts[0], parts[1]) {
                case ("target", "view"): self = .view
                case ("time", "advance"): self = .advance
                case ("profiles", "current"): self = .currentProfile
                case ("seams", _): self = .seam(parts[1])
                case ("sessions", _): self = .session(parts[1])
                default: return nil
                }
            case 3:
                switch (parts[0], parts[2]) {
                case ("profiles", "apply"), ("profiles", "revert"), ("profiles", "toggle"): self = .profile(parts[1], parts[2])
                case ("sessions", "renew"): self = .renew(parts[1])
                default: return nil
                }
            default:
                return nil
            }
        }
    }

    static func noSession(_ id: String) -> APIFailure {
        APIFailure(.conflict, "no such session", "session \(id) has ended (or never existed); its changes were reverted")
    }

    // MARK: Reading

    func targetInfo() -> TargetInfo {
        return TargetInfo(
            name: options.name, pid: getpid(),
            uptime: Seconds.value(of: registry.uptime),
            apiVersion: ControlAPI.version, libraryVersion: ControlAPI.libraryVersion,
            sessionSeed: registry.sessionSeed, socket: socketPath, instance: instance)
    }

    private func consoleData(_ request: APIRequest) throws(APIFailure) -> ConsoleData {
        var data = console.loadNow()
        do throws(OutOfRange) {
            if let after = request.query["after"] {
                let after = try Seconds.integer(after, field: "after", within: 0...Int(Int32.max) * 1024)
                data.events.removeAll { $0.id <= after }
            }
            if let limit = request.query["events"] {
                let limit = try Seconds.integer(limit, field: "events", within: 0...10_000)
                data.events = Array(data.events.suffix(limit))
            }
        } catch {
            throw APIFailure("invalid query", error)
        }
        return data
    }

    private func seamID(_ text: String) throws(APIFailure) -> SeamID {
        do throws(MischiefError) {
            return try SeamID(text)
        } catch {
            throw APIFailure(.notFound, "unknown seam", error.description)
        }
    }

    func detail(of seam: SeamID) throws(APIFailure) -> SeamDetail {
        let snapshot = registry.snapshot()
        guard let found = snapshot.seam(seam) else {
            var detail = "no seam '\(seam)' is registered"
            if let close = suggestion(for: seam.rawValue, among: snapshot.seams.map(\.id.rawValue)) {
                detail += "; did you mean '\(close)'?"
            }
            throw APIFailure(.notFound, "unknown seam", detail)
        }
        let owners = owners(of: found.layers)
        return SeamDetail(
            seam: SeamRow(found, actions: registry.actions(for: seam) ?? []),
            layers: found.layers.map { layer in
                SeamDetail.Layer(
                    entry: layer.id.rawValue, behaviour: layer.behaviour, source: layer.source, status: layer.status,
                    session: owners[layer.id])
            })
    }

    private func owners(of layers: [EntrySnapshot]) -> [EntryID: String] {
        (try? withSessions { table in
            var owners: [EntryID: String] = [:]
            for layer in layers { owners[layer.id] = table.owner(of: layer.id, source: layer.source) }
            return owners
        }) ?? [:]
    }

    private func sessionID(of request: APIRequest) throws(APIFailure) -> String? {
        guard let id = request.header(ControlAPI.sessionHeader) ?? request.query["session"], !id.isEmpty
        else { return nil }
        guard try withSessions({ $0[id] != nil }) else { throw Self.noSession(id) }
        return id
    }

    private func source(for session: String?) -> String {
        guard let session, let name = try? withSessions({ $0[session]?.name }) else { return "api" }
        return name
    }

    // MARK: Changing

    private func apply(_ spec: String, to seam: SeamID, session: String?) throws(APIFailure) -> SeamDetail {
        _ = try detail(of: seam)
        let applied: Applied
        do throws(MischiefError) {
            applied = try registry.apply(
                spec: spec, to: seam, source: source(for: session), fileAccess: options.fileAccess)
        } catch {
            switch error {
            case .invalidSpec(_, let specError):
                throw APIFailure(.badRequest, "invalid spec", error.description, column: specError.column)
            case .disabled:
                throw APIFailure(.conflict, "disabled", error.description)
            case .unknownSeam:
                throw APIFailure(.notFound, "unknown seam", error.description)
            default:
                throw APIFailure(.badRequest, "refused", error.description)
            }
        }
        try withSessions { $0.own(applied.entries, by: session) }
        return try detail(of: seam)
    }

    private func profile(_ name: String, _ verb: String, session: String?) throws(APIFailure) -> ProfileRow {
        guard registry.profiles.contains(where: { $0.profile.name == name }) else {
            var detail = "no profile named '\(name)' is defined"
            if let close = suggestion(for: name, among: registry.profiles.map(\.profile.name)) {
                detail += "; did you mean '\(close)'?"
            }
            throw APIFailure(.notFound, "unknown profile", detail)
        }
        let isOn: Bool
        do throws(MischiefError) {
            switch verb {
            case "apply": try registry.apply(profile: name); isOn = true
            case "revert": registry.revert(profile: name); isOn = false
            default: isOn = try registry.toggle(profile: name)
            }
        } catch {
            switch error {
            case .disabled: throw APIFailure(.conflict, "disabled", error.description)
            default: throw APIFailure(.badRequest, "refused", error.description)
            }
        }
        try withSessions { table in
            if isOn { table.own(profile: name, by: session) } else { table.disown(profile: name) }
        }
        return registry.profiles.first { $0.profile.name == name }.map(ProfileRow.init)!
    }

    private func define(_ request: APIRequest) throws(APIFailure) -> [ProfileRow] {
        _ = try mediaType(of: request, accepting: [
            "application/json", "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain",
            "application/x-www-form-urlencoded",
        ])
        let text = try bodyText(request)
        let files: [ProfileFile]
        do throws(FileErrors) {
            files = try ProfileFile.load(text: text, file: "request body")
        } catch {
            throw APIFailure(.badRequest, "invalid profile", error.description)
        }
        let problems = ProfileFile.check(files, against: registry, fileAccess: options.fileAccess)
            .filter { $0.severity == .error }
        guard problems.isEmpty else {
            throw APIFailure(.badRequest, "invalid profile", problems.map(\.description).joined(separator: "\n"))
        }
        for file in files {
            do throws(MischiefError) {
                try registry.define(try file.profile(), fileAccess: options.fileAccess)
            } catch {
                throw APIFailure(.badRequest, "invalid profile", error.description)
            }
        }
        let names = Set(files.map(\.name))
        return registry.profiles.filter { names.contains($0.profile.name) }.map(ProfileRow.init)
    }

    private func currentProfile(named name: String) throws(APIFailure) -> APIResponse {
        let (profile, skipped) = registry.currentState(named: name, seed: registry.sessionSeed)
        guard !profile.entries.isEmpty else {
            throw APIFailure(.conflict, "nothing to save", "no seam is changed"
                + (skipped.isEmpty ? "" : " by a spec (\(skipped.map(\.description).joined(separator: ", ")) were changed in code)"))
        }
        return APIResponse(status: .ok, contentType: "application/yaml", body: Data(ProfileFile(profile).yaml().utf8))
    }
}
