import Mischief

/// The routes under `/v1/sessions`, and the session a request names.
extension ControlServer {
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
        return try withSessionsAtLeaseTime { sessions, now, _ in
            sessions.open(name: body.name, lease: lease, keep: body.keep ?? false, now: now)
        }.info
    }

    func sessionID(of request: APIRequest) throws(APIFailure) -> String? {
        guard let id = request.header(ControlAPI.sessionHeader) ?? request.query["session"], !id.isEmpty
        else { return nil }
        guard try withSessions({ $0[id] != nil }) else { throw Self.noSession(id) }
        return id
    }

    func source(for session: String?) -> String {
        guard let session, let name = try? withSessions({ $0[session]?.name }) else { return "api" }
        return name
    }
}
