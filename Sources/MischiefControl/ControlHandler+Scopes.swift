import Mischief

/// The routes of test scopes (issue 49): `GET /v1/scopes` lists the running and ended tests of a test process that
/// serves the API; `POST /v1/scopes/apply|revert|release` change the tests a pattern names, and no others.
extension ControlHandler {
    /// Answers a `POST /v1/scopes/{verb}`.
    func changeScopes(_ verb: String, _ request: APIRequest, session: String?, client: String?) throws(APIFailure)
        -> ScopeChangeResult
    {
        let body: ScopeChangeRequest = try decodeJSON(request)
        let source = source(for: session, client: client)
        switch verb {
        case "apply":
            guard let seam = body.seam, let spec = body.spec else {
                throw APIFailure(.badRequest, "invalid request", "an apply names a scope, a seam and a spec")
            }
            try requireSeam(seam)
            do throws(MischiefError) {
                let scopes = try registry.apply(
                    spec: spec, to: seam, inScopesMatching: body.scope, source: source, seed: body.seed)
                return ScopeChangeResult(count: scopes.count, scopes: scopes)
            } catch {
                throw APIFailure(refusal: error, unsupported: (.notFound, "no such test"))
            }
        case "revert":
            // Every change from outside the tests named (a console's, the CLI's), as `DELETE /v1/seams/{id}` reverts
            // every layer of a seam; the tests' own layers stay.
            let count = registry.revertInScopes(matching: body.scope, seam: body.seam, source: nil, requester: source)
            return ScopeChangeResult(count: count, scopes: named(body.scope))
        default:
            guard body.answer != nil || body.holdNext == false else {
                let count = registry.releaseInScopes(matching: body.scope, seam: body.seam)
                return ScopeChangeResult(count: count, scopes: named(body.scope))
            }
            guard let seam = body.seam else {
                throw APIFailure(.badRequest, "invalid request", "an answer to held calls names their seam")
            }
            try requireSeam(seam)
            do throws(MischiefError) {
                let count = try registry.releaseInScopes(
                    matching: body.scope, seam: seam, answer: body.answer, holdNext: body.holdNext ?? true,
                    source: source)
                return ScopeChangeResult(count: count, scopes: named(body.scope))
            } catch {
                throw APIFailure(refusal: error)
            }
        }
    }

    private func named(_ pattern: String) -> [ScopeSnapshot] {
        let names = Set(registry.runningScopes(matching: pattern).map(\.name))
        return registry.scopes.filter { $0.ended == nil && names.contains($0.name) }
    }
}
