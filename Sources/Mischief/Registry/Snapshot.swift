/// One consistent picture of a registry: what a console renders in a frame.
public struct Snapshot: Sendable {
    /// Time since the registry started.
    public let uptime: Duration
    /// The seed random behaviours derive their seeds from unless given one.
    public let sessionSeed: UInt64
    /// Whether calls are being counted (someone observes, or counting was switched on).
    public let isCounting: Bool
    /// Why changes are refused, when the kill switch is engaged.
    public let disabledReason: String?
    /// Every registered seam, in registration order.
    public internal(set) var seams: [SeamSnapshot]
    /// Every layer (a behaviour applied on a seam's stack), active and recently reverted, oldest first.
    public let layers: [LayerSnapshot]
    /// What the target last published.
    public let view: TargetView
    /// The id of the newest event.
    public let lastEventID: Int
    /// The guards, in the order they were added, each armed or tripped.
    public internal(set) var guards: [GuardStatus] = []
    /// The registry's generation this snapshot is as of: pass it to ``Registry/delta(since:eventsAfter:)``.
    public let generation: UInt64

    /// The seam with `id`, if registered.
    public func seam(_ id: SeamID) -> SeamSnapshot? { seams.first { $0.info.id == id } }
}

/// One seam in a ``Snapshot``: what it is, what it does now, how often it is called. It is the control API's JSON
/// for a seam (see `SeamSnapshot+Codable.swift`).
public struct SeamSnapshot: Hashable, Sendable, Identifiable {
    /// The seam's id.
    public var id: SeamID { info.id }
    /// The seam's id, titles, kind and signature.
    public var info: SeamInfo
    /// The seam's call counters when the snapshot was taken.
    public var counters: SeamCounters
    /// The behaviour calls get now, described for people (a spec's canonical form, or `closure` for one built in
    /// code); nil when the seam is its original. Not always a spec: see ``spec``.
    public var behaviourText: String?
    /// The spec of the behaviour calls get now, which can be applied again; nil when the seam is its original or
    /// its behaviour (or a layer of it) was built in code.
    public var spec: String?
    /// The actions specs can use on the seam, its own first. Empty in ``Registry/snapshot()``, which stays cheap at
    /// many seams; ``Registry/snapshot(includingActions:)`` fills it.
    public var actions: [ActionSignature] = []
    /// The layers on this seam, oldest first (the last one wins on a replacing seam).
    public var layers: [LayerSnapshot]
    /// The seeds the active behaviour uses.
    public var seeds: [UInt64]
    /// The seam as a whole: active while any layer is, reverting while a replaced behaviour has calls in flight.
    public var status: RevertStatus
    /// When the registry first saw the call count change since the previous snapshot, from its start.
    public var lastCalled: Duration?
    /// What the seam reaches now, as its owner last said (``Registry/annotate(_:notes:)``), one line each: a system
    /// seam's coverage, library by library, and what may hide a change. Empty for most seams.
    public var notes: [String] = []
    /// The calls its pauses hold now, oldest first, each with its input (a breakpoint's view; see
    /// ``Registry/release(_:answer:holdNext:source:)``). Empty when none is held.
    public var heldCalls: [HeldCall] = []
}
