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
    public let seams: [SeamSnapshot]
    /// Active entries, and recently reverted ones, oldest first.
    public let entries: [EntrySnapshot]
    /// What the target last published.
    public let view: TargetView
    /// The id of the newest event.
    public let lastEventID: Int
    /// The registry's generation this snapshot is as of: pass it to ``Registry/changes(since:eventsAfter:)``.
    public let generation: UInt64

    /// The seam with `id`, if registered.
    public func seam(_ id: SeamID) -> SeamSnapshot? { seams.first { $0.info.id == id } }
}

/// One seam in a ``Snapshot``.
public struct SeamSnapshot: Equatable, Sendable, Identifiable {
    /// The seam's id.
    public var id: SeamID { info.id }
    /// The seam's id, titles, kind and signature.
    public let info: SeamInfo
    /// The seam's call counters when the snapshot was taken.
    public let counters: SeamCounters
    /// The behaviour calls get now, described for people (a spec's canonical form, or `closure` for one built in
    /// code); nil when the seam is its original. Not always a spec: see ``spec``.
    public let behaviour: String?
    /// The spec of the behaviour calls get now, which can be applied again; nil when the seam is its original or
    /// its behaviour (or a layer of it) was built in code.
    public let spec: String?
    /// The active entries on this seam, oldest first (the last one wins on a replacing seam).
    public let layers: [EntrySnapshot]
    /// The seeds the active behaviour uses.
    public let seeds: [UInt64]
    /// The seam as a whole: active while any entry is, reverting while a replaced behaviour has calls in flight.
    public let status: RevertStatus
    /// When the registry first saw the call count change since the previous snapshot, from its start.
    public let lastCalled: Duration?
}

/// One entry (seam + behaviour) in a ``Snapshot``.
public struct EntrySnapshot: Hashable, Sendable, Identifiable {
    /// The entry's id, for ``Registry/revert(entries:)``.
    public let id: EntryID
    /// The seam the entry is on.
    public let seam: SeamID
    /// The behaviour described for people (a spec's canonical form, or `closure` for one built in code).
    public let behaviour: String
    /// The canonical spec it was made from, which can be applied again; nil for a behaviour built in code.
    public let spec: String?
    /// Who applied it ("console", "profile Tokyo", "test").
    public let source: String
    /// The entries applied together with this one share a group number.
    public let group: Int
    /// When it was applied, measured from the registry's start.
    public let appliedAt: Duration
    /// When it was reverted, measured from the registry's start; nil while it is applied.
    public let revertedAt: Duration?
    /// Whether it is active, reverting (calls still inside it) or reverted.
    public let status: RevertStatus
    /// The seeds its random parts use.
    public let seeds: [UInt64]
}
