import Foundation
import Mischief

/// `POST /v1/guards`: `{"when": "errors(net.request) > 50% over 10s"}` guards everything;
/// `"reverts": "profile", "profile": "Flaky network"` guards one profile. The condition may also be sent as the body
/// itself (text, or `when=…` as a form sends it), with `?profile=NAME` for a profile.
public struct GuardRequest: Sendable, Codable, Equatable {
    /// The condition, as text (see `Guard.Condition(parsing:)`).
    public var when: String
    /// `everything` (the default, or `profile` when `profile` is given) or `profile`.
    public var reverts: String?
    /// The profile's name, with `"reverts": "profile"`.
    public var profile: String?

    /// A request to add a guard.
    ///
    /// - Parameters:
    ///   - when: The condition, as text.
    ///   - reverts: `everything` or `profile`; nil infers it from `profile`.
    ///   - profile: The profile it guards, if it guards one.
    public init(when: String, reverts: String? = nil, profile: String? = nil) {
        self.when = when
        self.reverts = reverts
        self.profile = profile
    }
}

/// The routes under `/v1/guards`. A guard added in a session belongs to it, like a change: it is removed when the
/// session ends (unless the session keeps its changes).
extension ControlHandler {
    /// `POST /v1/guards`: adds a guard, owned by `session` when given; answers with its status.
    func addGuard(_ request: APIRequest, session: String?, client: String? = nil) throws(APIFailure) -> GuardStatus {
        let body = try guardRequest(of: request)
        let scope: Guard.Scope
        switch body.reverts ?? (body.profile == nil ? "everything" : "profile") {
        case "everything": scope = .everything
        case "profile":
            guard let name = body.profile, !name.isEmpty else {
                throw APIFailure(.badRequest, "invalid guard", "\"reverts\": \"profile\" needs \"profile\": NAME")
            }
            scope = .profile(name)
        case let other:
            throw APIFailure(
                .badRequest, "invalid guard", "\"reverts\" is 'everything' or 'profile', not '\(other.prefix(40))'")
        }
        let rule: Guard
        do throws(SpecError) {
            rule = try Guard(parsing: body.when, reverts: scope)
        } catch {
            throw APIFailure(.badRequest, "invalid guard", error.description, column: error.column)
        }
        let id: Int
        do throws(MischiefError) {
            id = try registry.addGuard(rule, source: source(for: session, client: client))
        } catch {
            switch error {
            case .unknownSeam: throw APIFailure(.notFound, "unknown seam", error.description)
            case .unknownProfile: throw APIFailure(.notFound, "unknown profile", error.description)
            case .tooManyGuards: throw APIFailure(.conflict, "too many guards", error.description)
            default: throw APIFailure(.badRequest, "invalid guard", error.description)
            }
        }
        try withSessions { $0.own(guard: id, by: session) }
        return try guardStatus(id)
    }

    /// `DELETE /v1/guards/{id}`: removes a guard; answers with what it was.
    func removeGuard(_ raw: String) throws(APIFailure) -> GuardStatus {
        let status = try guardStatus(try guardID(raw))
        do throws(MischiefError) { try registry.removeGuard(status.id) } catch {
            throw APIFailure(.notFound, "unknown guard", error.description)
        }
        try withSessions { $0.disown(guard: status.id) }
        return status
    }

    /// `POST /v1/guards/{id}/rearm`: arms a guard again (a tripped one watches again; an armed one starts its
    /// window again).
    func rearmGuard(_ raw: String) throws(APIFailure) -> GuardStatus {
        let id = try guardID(raw)
        do throws(MischiefError) { try registry.rearmGuard(id) } catch {
            throw APIFailure(.notFound, "unknown guard", error.description)
        }
        return try guardStatus(id)
    }

    /// The guard a request asks for: JSON (``GuardRequest``), or the condition as the body with `?profile=NAME`.
    private func guardRequest(of request: APIRequest) throws(APIFailure) -> GuardRequest {
        let type = try mediaType(
            of: request, accepting: ["application/json", "text/plain", "application/x-www-form-urlencoded"])
        if type == "application/json" { return try decodeJSON(request) }
        var text = Self.trimmingSpace(try bodyText(request))
        if type == "application/x-www-form-urlencoded", text.hasPrefix("when=") {
            text = String(text.dropFirst(5)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
        }
        guard !text.isEmpty else {
            throw APIFailure(
                .badRequest, "missing guard", "send the condition as the body, or as {\"when\": \"…\"} in JSON")
        }
        return GuardRequest(when: text, profile: request.query["profile"])
    }

    private func guardID(_ raw: String) throws(APIFailure) -> Int {
        guard let id = Int(raw), id > 0 else {
            throw APIFailure(.notFound, "unknown guard", "'\(raw.prefix(40))' is not a guard id (1, 2, …)")
        }
        return id
    }

    private func guardStatus(_ id: Int) throws(APIFailure) -> GuardStatus {
        guard let status = registry.guardStatus(id) else {
            throw APIFailure(.notFound, "unknown guard", MischiefError.unknownGuard(id).description)
        }
        return status
    }
}
