import FlyingFox
import Foundation
import Mischief
import MischiefConsole
import MischiefFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ControlServer {
    /// Answers one request; every failure is a JSON error with its status, never a crash.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        do throws(APIFailure) {
            return try await route(request)
        } catch {
            var response = Self.failure(error.status, error.body)
            if error.status == .payloadTooLarge {
                // The unread body would be taken for the next request: end the connection.
                response.headers[.connection] = "close"
            }
            return response
        }
    }

    private func route(_ request: HTTPRequest) async throws(APIFailure) -> HTTPResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        guard let first = parts.first, first.hasPrefix("v"), let version = Int(first.dropFirst()) else {
            throw APIFailure(.notFound, "unknown route", "\(request.method.rawValue) \(request.path): routes start with /v\(ControlAPI.version)")
        }
        let claimed = request.headers[HTTPHeader(ControlAPI.versionHeader)].flatMap { Int($0) }
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

        switch (method, target) {
        case (.GET, .target):
            return Self.json(targetInfo())
        case (.GET, .view):
            return Self.json(registry.snapshot().view)
        case (.GET, .console):
            return Self.json(try await consoleData(request))
        case (.GET, .seams):
            // Rows straight from a snapshot: the console's whole answer (events, view) is not needed here.
            return Self.json(registry.snapshot().seams.map { SeamRow($0, actions: registry.actions(for: $0.id) ?? []) })
        case (.GET, .seam(let id)):
            return Self.json(try detail(of: try seamID(id)))
        case (.PUT, .seam(let id)):
            let seam = try seamID(id)
            let spec = try await specText(of: request)
            return Self.json(try apply(spec, to: seam, session: session))
        case (.DELETE, .seam(let id)):
            let seam = try seamID(id)
            _ = try detail(of: seam)
            registry.revert(seam: seam)
            return Self.json(try detail(of: seam))
        case (.GET, .profiles):
            return Self.json(registry.profiles.map(ProfileRow.init))
        case (.POST, .profiles):
            return Self.json(try await define(request), status: .created)
        case (.GET, .currentProfile):
            return try currentProfile(named: request.query["name"] ?? "saved")
        case (.POST, .profile(let name, let verb)):
            return Self.json(try profile(name, verb, session: session))
        case (.POST, .revertAll):
            let active = registry.snapshot().entries.filter { $0.status == .active }.count
            registry.revertAll()
            try withSessions { $0.disownAll() }
            return Self.json(RevertAllResult(reverted: active))
        case (.POST, .advance):
            let body: AdvanceRequest = try await decodeJSON(request)
            guard body.seconds.isFinite, body.seconds > 0 else {
                throw APIFailure(.badRequest, "invalid duration", "seconds must be a positive number, not \(body.seconds)")
            }
            guard await options.advance(.seconds(body.seconds)) else {
                throw APIFailure(.conflict, "time is real", "apply virtual or freeze to clock.now to move it")
            }
            return Self.json(targetInfo())
        case (.GET, .sessions):
            return Self.json(sessions)
        case (.POST, .sessions):
            let body: SessionRequest = request.bodySequence.count == 0 ? SessionRequest() : try await decodeJSON(request)
            guard body.lease.map({ $0.isFinite && $0 > 0 && $0 <= 86_400 }) ?? true else {
                throw APIFailure(.badRequest, "invalid lease", "lease must be between 0 and 86400 seconds")
            }
            let lease = body.lease.map { Duration.seconds($0) } ?? options.lease
            let now = options.now()
            let opened = try withSessions { $0.open(name: body.name, lease: lease, keep: body.keep ?? false, now: now) }
            return Self.json(opened.info, status: .created)
        case (.POST, .renew(let id)):
            let now = options.now()
            guard let renewed = try withSessions({ $0.renew(id, now: now) }) else { throw Self.noSession(id) }
            return Self.json(renewed.info)
        case (.DELETE, .session(let id)):
            guard let ended = try withSessions({ $0.end(id, reason: "it was closed") }) else { throw Self.noSession(id) }
            finish(ended)
            return Self.json(ended.session.info)
        case (.GET, .events):
            return try events(session: session)
        default:
            throw APIFailure(.methodNotAllowed, "method not allowed", "\(method.rawValue) is not allowed on \(request.path)")
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
        let uptime = registry.uptime.components
        return TargetInfo(
            name: options.name, pid: getpid(),
            uptime: Double(uptime.seconds) + Double(uptime.attoseconds) / 1e18,
            apiVersion: ControlAPI.version, libraryVersion: ControlAPI.libraryVersion,
            sessionSeed: registry.sessionSeed, socket: socketPath)
    }

    private func consoleData(_ request: HTTPRequest) async throws(APIFailure) -> ConsoleData {
        do {
            var data = try await console.load()
            if let after = request.query["after"].flatMap(Int.init) {
                data.events.removeAll { $0.id <= after }
            }
            if let limit = request.query["events"].flatMap(Int.init), limit >= 0 {
                data.events = Array(data.events.suffix(limit))
            }
            return data
        } catch {
            throw APIFailure(.internalServerError, "cannot read the registry", "\(error)")
        }
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

    private func sessionID(of request: HTTPRequest) throws(APIFailure) -> String? {
        guard let id = request.headers[HTTPHeader(ControlAPI.sessionHeader)] ?? request.query["session"], !id.isEmpty
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

    private func define(_ request: HTTPRequest) async throws(APIFailure) -> [ProfileRow] {
        _ = try mediaType(of: request, accepting: [
            "application/json", "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain",
            "application/x-www-form-urlencoded",
        ])
        let text = try await bodyText(request)
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

    private func currentProfile(named name: String) throws(APIFailure) -> HTTPResponse {
        let (profile, skipped) = registry.currentState(named: name, seed: registry.sessionSeed)
        guard !profile.entries.isEmpty else {
            throw APIFailure(.conflict, "nothing to save", "no seam is changed"
                + (skipped.isEmpty ? "" : " by a spec (\(skipped.map(\.description).joined(separator: ", ")) were changed in code)"))
        }
        return HTTPResponse(
            statusCode: .ok, headers: [.contentType: "application/yaml"], body: Data(ProfileFile(profile).yaml().utf8))
    }

    // MARK: Bodies

    /// The body, refusing more than ``ControlAPI/maxBodyBytes`` (413) before reading it when the length is known.
    func bodyData(_ request: HTTPRequest) async throws(APIFailure) -> Data {
        let limit = ControlAPI.maxBodyBytes
        if let count = request.bodySequence.count, count > limit {
            throw APIFailure(.payloadTooLarge, "body too large", "the body is \(count) bytes; the limit is \(limit)")
        }
        var data = Data()
        do {
            for try await chunk in request.bodySequence {
                data.append(chunk)
                if data.count > limit {
                    throw APIFailure(.payloadTooLarge, "body too large", "the body is over the limit of \(limit) bytes")
                }
            }
        } catch let failure as APIFailure {
            throw failure
        } catch {
            throw APIFailure(.badRequest, "unreadable body", "\(error.localizedDescription)")
        }
        return data
    }

    private func bodyText(_ request: HTTPRequest) async throws(APIFailure) -> String {
        let data = try await bodyData(request)
        guard let text = String(data: data, encoding: .utf8) else {
            throw APIFailure(.badRequest, "invalid body", "the body is not UTF-8 text")
        }
        return text
    }

    private func mediaType(of request: HTTPRequest, accepting types: [String]) throws(APIFailure) -> String? {
        guard let header = request.headers[.contentType] else { return nil }
        let type = header.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard types.contains(type) else {
            throw APIFailure(
                .unsupportedMediaType, "unsupported media type",
                "\(type) is not accepted here; send \(types.joined(separator: ", "))")
        }
        return type
    }

    func decodeJSON<T: Decodable>(_ request: HTTPRequest) async throws(APIFailure) -> T {
        _ = try mediaType(of: request, accepting: ["application/json", "text/plain", "application/x-www-form-urlencoded"])
        let data = try await bodyData(request)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw APIFailure(.badRequest, "malformed JSON", Self.describe(error))
        }
    }

    /// A spec from `{"spec": "…"}` (JSON) or the body as it is (text, or what `curl -d` sends).
    private func specText(of request: HTTPRequest) async throws(APIFailure) -> String {
        let type = try mediaType(of: request, accepting: ["application/json", "text/plain", "application/x-www-form-urlencoded"])
        if type == "application/json" {
            let body: ApplyRequest = try await decodeJSON(request)
            return body.spec
        }
        var text = try await bodyText(request).trimmingCharacters(in: .whitespacesAndNewlines)
        if type == "application/x-www-form-urlencoded", text.hasPrefix("spec=") {
            text = String(text.dropFirst(5)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
        }
        guard !text.isEmpty else {
            throw APIFailure(.badRequest, "missing spec", "send the spec as the body, or as {\"spec\": \"…\"} in JSON")
        }
        return text
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription + Self.underlying(context)
        case DecodingError.keyNotFound(let key, _):
            return "the key '\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(let type, let context):
            return "\(Self.path(context)) should be \(type)"
        case DecodingError.valueNotFound(let type, let context):
            return "\(Self.path(context)) should be \(type), not null"
        default:
            return "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? "the body" : "'\(path)'"
    }

    private static func underlying(_ context: DecodingError.Context) -> String {
        guard let error = context.underlyingError as NSError?,
              let reason = error.userInfo[NSDebugDescriptionErrorKey] as? String else { return "" }
        return ": \(reason)"
    }
}
