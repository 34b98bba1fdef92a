import Foundation
import Mischief

/// The routes under `/v1/sessions`, and the session a request names.
extension ControlHandler {
    /// `POST /v1/sessions`: opens a session with the lease asked for (range-checked) or the server's.
    func openSession(_ request: APIRequest) throws(APIFailure) -> SessionInfo {
        let body: SessionRequest = request.body.isEmpty ? SessionRequest() : try decodeJSON(request)
        var lease = options.lease
        if let seconds = body.lease {
            do throws(OutOfRange) {
                lease = try Seconds.duration(seconds, field: "lease", within: Seconds.positive(upTo: 86_400))
            } catch {
                throw APIFailure("invalid lease", error)
            }
        }
        return withSessionsAtLeaseTime { sessions, now, _ in
            sessions.open(name: body.name, lease: lease, keep: body.keep ?? false, now: now)
        }.info
    }

    func sessionID(of request: APIRequest) throws(APIFailure) -> String? {
        guard let id = request.header(ControlAPI.sessionHeader) ?? request.query["session"], !id.isEmpty
        else { return nil }
        guard try withSessions({ $0[id] != nil }) else { throw Self.noSession(id) }
        return id
    }

    /// Who makes a change: the session's name, else the name the client gave (`Mischief-Client`, printable, at
    /// most 64 characters), else `api`.
    func source(for session: String?, client: String? = nil) -> String {
        if let session, let name = try? withSessions({ $0[session]?.name }) { return name }
        guard let client = client?.trimmingCharacters(in: .whitespaces), !client.isEmpty, client.count <= 64,
            client.unicodeScalars.allSatisfy({
                $0.properties.generalCategory != .control && $0.properties.generalCategory != .format
            })
        else { return "api" }
        return client
    }
}
