extension Registry {
    /// Releases the calls held by the pauses applied to `seam` (see ``Behaviour/pause(_:max:)`` and spec
    /// `pause`); they go on at once. Calls held on the same gate for another seam stay held.
    ///
    /// - Returns: How many calls were released.
    /// - Throws: ``MischiefError/unknownSeam(_:)`` when no such seam is registered.
    @discardableResult
    public func release(_ seam: SeamID) throws(MischiefError) -> Int {
        let sites = try state.withLock { (state) throws(MischiefError) -> [PauseSite] in
            guard let record = state.records[seam] else { throw .unknownSeam(seam) }
            return record.layers.flatMap(\.pauses)
        }
        let released = sites.reduce(0) { $0 + $1.release() }
        if released > 0 { report(seam: seam, message: "released \(held(released))", kind: .report, source: nil) }
        return released
    }

    /// Waits, without polling, until the pause applied to `seam` holds `count` calls: for tests that apply
    /// `pause` as a spec and so have no ``PauseGate`` of their own.
    ///
    /// It watches the first pause of the newest change on the seam that has one (on a replacing seam, the one
    /// calls meet), as applied when it is called.
    ///
    /// - Throws: ``MischiefError/unknownSeam(_:)``, ``MischiefError/unsupported(_:_:)`` when no pause is
    ///   applied to the seam, or `CancellationError` when the waiting task is cancelled.
    public func waitUntilHeld(_ seam: SeamID, _ count: Int = 1) async throws {
        let site = try state.withLock { (state) throws(MischiefError) -> PauseSite in
            guard let record = state.records[seam] else { throw .unknownSeam(seam) }
            guard let site = record.layers.last(where: { !$0.pauses.isEmpty })?.pauses.first else {
                throw .unsupported(seam, "no pause is applied to it, so no call can be held")
            }
            return site
        }
        try await site.waitUntilHeld(count)
    }

    /// Releases every call held by a pause on any seam; returns how many.
    @discardableResult
    public func releaseAll() -> Int {
        let sites = state.withLock { state in
            state.order.flatMap { id in state.records[id]!.layers.flatMap(\.pauses).map { (id, $0) } }
        }
        var total = 0
        var bySeam: [SeamID: Int] = [:]
        for (id, site) in sites {
            let released = site.release()
            bySeam[id, default: 0] += released
            total += released
        }
        for (id, released) in bySeam.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where released > 0 {
            report(seam: id, message: "released \(held(released))", kind: .report, source: nil)
        }
        return total
    }

    private func held(_ count: Int) -> String { "\(count) held call\(count == 1 ? "" : "s")" }
}
