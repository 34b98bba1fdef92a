extension Snapshot {
    /// This snapshot with `changes` applied: what ``Registry/snapshot()`` would have returned at
    /// ``RegistryDelta/generation`` (apart from counters of seams that did not move, which are unchanged).
    ///
    /// `changes` must be the answer to `delta(since: generation)` of this snapshot, or to a later generation's
    /// chain of them; see ``RegistryDelta``.
    public func applying(_ changes: RegistryDelta) -> Snapshot {
        var seams = self.seams
        var entries = self.entries
        let removed = Set(changes.removed)
        let touched = Set(changes.seams.map(\.id)).union(removed)
        if !touched.isEmpty {
            seams.removeAll { removed.contains($0.id) }
            var index: [SeamID: Int] = [:]
            for (offset, seam) in seams.enumerated() { index[seam.id] = offset }
            for seam in changes.seams {
                if let offset = index[seam.id] { seams[offset] = seam } else { seams.append(seam) }
            }
            entries.removeAll { touched.contains($0.seam) }
            entries = (entries + changes.entries).sorted { $0.id < $1.id }
        }
        return Snapshot(
            uptime: changes.uptime, sessionSeed: changes.sessionSeed, isCounting: changes.isCounting,
            disabledReason: changes.disabledReason, seams: seams, entries: entries, view: changes.view ?? view,
            lastEventID: changes.lastEventID, guards: changes.guards ?? guards, generation: changes.generation)
    }
}
