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

extension TargetStatus {
    /// The active layers, oldest first.
    @available(*, deprecated, renamed: "activeLayers")
    public var active: [LayerSnapshot] {
        get { activeLayers }
        set { activeLayers = newValue }
    }

    /// A status from its parts.
    @available(
        *, deprecated,
        renamed: "init(target:chaosAllowed:disabledReason:crashAllowed:activeLayers:seams:summary:guards:)"
    )
    public init(
        target: TargetInfo, chaosAllowed: Bool, disabledReason: String?, crashAllowed: Bool, active: [LayerSnapshot],
        seams: [SeamStatus], summary: StatusSummary, guards: [GuardStatus] = []
    ) {
        self.init(
            target: target, chaosAllowed: chaosAllowed, disabledReason: disabledReason, crashAllowed: crashAllowed,
            activeLayers: active, seams: seams, summary: summary, guards: guards)
    }
}

extension StatusSummary {
    /// Layers applied now.
    @available(*, deprecated, renamed: "activeLayers")
    public var activeChanges: Int {
        get { activeLayers }
        set { activeLayers = newValue }
    }

    /// Totals from their values.
    @available(*, deprecated, renamed: "init(activeLayers:seamsChanged:calls:chaosCalls:errors:inFlight:held:)")
    public init(
        activeChanges: Int, seamsChanged: Int, calls: Int, chaosCalls: Int, errors: Int, inFlight: Int, held: Int
    ) {
        self.init(
            activeLayers: activeChanges, seamsChanged: seamsChanged, calls: calls, chaosCalls: chaosCalls,
            errors: errors, inFlight: inFlight, held: held)
    }
}
