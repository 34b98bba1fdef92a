extension Registry {
    /// ``snapshot()`` with each seam's ``SeamSnapshot/actions`` filled in: what a console or the control API shows.
    public func snapshot(includingActions: Bool) -> Snapshot {
        var snapshot = snapshot()
        guard includingActions else { return snapshot }
        for index in snapshot.seams.indices {
            snapshot.seams[index].actions = actions(for: snapshot.seams[index].id) ?? []
        }
        return snapshot
    }
}
