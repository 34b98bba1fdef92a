import Foundation
import Mischief
import NIOHTTP1

/// `POST /v1/guards`: `{"when": "errors(net.request) > 50% over 10s"}` guards everything;
/// `"reverts": "profile", "profile": "Flaky network"` guards one profile.
public struct GuardRequest: Sendable, Codable, Equatable {
    /// The condition, as text (see `Guard.Condition(parsing:)`).
    public var when: String
    /// `everything` (the default) or `profile`.
    public var reverts: String?
    /// The profile's name, with `"reverts": "profile"`.
    public var profile: String?

    /// A request to add a guard.
    public init(when: String, reverts: String? = nil, profile: String? = nil) {
        self.when = when
        self.reverts = reverts
        self.profile = profile
    }
}

extension ControlServer {
    /// `POST /v1/guards`: adds a guard; answers with its status.
    func addGuard(_ request: APIRequest, session: String?) throws(APIFailure) -> GuardStatus {
        let body: GuardRequest = try decodeJSON(request)
        let scope: Guard.Scope
        switch body.reverts ?? (body.profile == nil ? "everything" : "profile") {
        case "everything": scope = .everything
        case "profile":
            guard let name = body.profile else {
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
            id = try registry.addGuard(rule, source: source(for: session))
        } catch {
            switch error {
            case .unknownSeam, .unknownProfile: throw APIFailure(.notFound, "invalid guard", error.description)
            default: throw APIFailure(.badRequest, "invalid guard", error.description)
            }
        }
        return try guardStatus(id)
    }

    /// `DELETE /v1/guards/{id}`: removes a guard; answers with what it was.
    func removeGuard(_ raw: String) throws(APIFailure) -> GuardStatus {
        let status = try guardStatus(try guardID(raw))
        do throws(MischiefError) { try registry.removeGuard(status.id) } catch {
            throw APIFailure(.notFound, "unknown guard", error.description)
        }
        return status
    }

    /// `POST /v1/guards/{id}/rearm`: arms a tripped guard again.
    func rearmGuard(_ raw: String) throws(APIFailure) -> GuardStatus {
        let id = try guardID(raw)
        do throws(MischiefError) { try registry.rearmGuard(id) } catch {
            throw APIFailure(.notFound, "unknown guard", error.description)
        }
        return try guardStatus(id)
    }

    private func guardID(_ raw: String) throws(APIFailure) -> Int {
        guard let id = Int(raw), id > 0 else {
            throw APIFailure(.notFound, "unknown guard", "'\(raw.prefix(40))' is not a guard id (1, 2, …)")
        }
        return id
    }

    private func guardStatus(_ id: Int) throws(APIFailure) -> GuardStatus {
        guard let status = registry.guards.first(where: { $0.id == id }) else {
            throw APIFailure(.notFound, "unknown guard", MischiefError.unknownGuard(id).description)
        }
        return status
    }
}
