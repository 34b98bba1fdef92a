import Mischief

// The names issue 29 retired, kept for one release (see Mischief's Deprecated.swift): a *delta* is what changed since
// a generation.

extension ControlClient {
    /// What changed after a registry generation (`GET /v1/changes`).
    @available(*, deprecated, renamed: "delta(since:eventsAfter:)")
    public func changes(since generation: UInt64, eventsAfter: Int? = nil) async throws(ControlClientError)
        -> StreamDelta
    {
        try await delta(since: generation, eventsAfter: eventsAfter)
    }
}
