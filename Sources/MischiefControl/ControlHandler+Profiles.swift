import Foundation
import Mischief
import MischiefFiles

/// The routes under `/v1/profiles`: define, apply, revert, toggle, and the current state as a profile.
extension ControlHandler {
    /// `POST /v1/profiles/{name}/apply`'s time to live for every entry: `{"ttl": 30}` or `?ttl=30s`; nil when
    /// neither is sent (the profile's own then).
    func profileTTL(_ request: APIRequest) throws(APIFailure) -> Duration? {
        guard !request.body.isEmpty else { return try ttl(queryTTL(request)) }
        let body: TTLRequest = try decodeJSON(request)
        return try ttl(body.ttl ?? queryTTL(request))
    }

    func profile(
        _ name: String, _ verb: ProfileVerb, ttl: Duration? = nil, session: String?, client: String? = nil
    ) throws(APIFailure) -> ProfileStatus {
        guard registry.profiles.contains(where: { $0.profile.name == name }) else {
            let detail = unknownMessage(
                "no profile named '\(name)' is defined", for: name, among: registry.profiles.map(\.profile.name))
            throw APIFailure(.notFound, "unknown profile", detail)
        }
        let isOn: Bool
        do throws(MischiefError) {
            switch verb {
            case .apply: try registry.apply(profile: name, ttl: ttl); isOn = true
            case .revert: registry.revert(profile: name, source: source(for: session, client: client)); isOn = false
            case .toggle: isOn = try registry.toggle(profile: name, source: source(for: session, client: client))
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
        // What this request did, even if another client switches the profile again before the answer is sent.
        let status = registry.profiles.first { $0.profile.name == name }!
        return ProfileStatus(status.profile, isActive: isOn)
    }

    func define(_ request: APIRequest) throws(APIFailure) -> [ProfileStatus] {
        _ = try mediaType(
            of: request,
            accepting: [
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
        return registry.profiles.filter { names.contains($0.profile.name) }
    }

    func currentProfile(named name: String) throws(APIFailure) -> APIResponse {
        let (profile, skipped) = registry.currentState(named: name, seed: registry.sessionSeed)
        guard !profile.entries.isEmpty else {
            throw APIFailure(
                .conflict, "nothing to save",
                "no seam is changed"
                    + (skipped.isEmpty
                        ? ""
                        : " by a spec (\(skipped.map(\.description).joined(separator: ", ")) were changed in code)"))
        }
        return APIResponse(status: .ok, contentType: "application/yaml", body: Data(ProfileFile(profile).yaml().utf8))
    }
}
