extension Registry {
    /// The longest time to live a change may have: a day.
    public static let longestTTL: Duration = .seconds(86_400)

    /// Checks a time to live: nil, or more than zero and at most ``longestTTL``.
    ///
    /// - Throws: ``MischiefError/invalidTTL(_:)``.
    public static func check(ttl: Duration?) throws(MischiefError) {
        guard let ttl else { return }
        guard ttl > .zero, ttl <= longestTTL else { throw .invalidTTL(ttl) }
    }

    /// Gives the layers on `seam` a time to live from now (replacing any they had), or, with nil, lets them last
    /// until reverted. What expires is reverted as ``revert(seam:source:)`` would, and the event log says why.
    ///
    /// - Returns: How many layers it set.
    /// - Throws: ``MischiefError/unknownSeam(_:)``, ``MischiefError/invalidTTL(_:)``, or
    ///   ``MischiefError/unsupported(_:_:)`` when nothing is applied to the seam.
    @discardableResult
    public func setTTL(_ ttl: Duration?, on seam: SeamID) throws(MischiefError) -> Int {
        try Self.check(ttl: ttl)
        let time = now
        let count = try state.withLock { (state) throws(MischiefError) -> Int in
            guard let record = state.records[seam] else { throw .unknownSeam(seam) }
            guard !record.layers.isEmpty else {
                throw .unsupported(seam, "nothing is applied to it, so there is nothing to expire")
            }
            for index in record.layers.indices {
                state.records[seam]!.layers[index].setTTL(ttl, at: time)
                let layer = state.records[seam]!.layers[index]
                state.deadlines[layer.id] = layer.expiresAt
                state.setHistory(layer.snapshot(seam: seam, status: .active))
            }
            let message = ttl.map { "expires in \(SpecDuration($0))" } ?? "no longer expires"
            // Recorded with the TTL (0: none), so a replay sets it again after the same call.
            state.log(time, .report, seam, nil, message, detail: RecordingDetail(ttl: ttl ?? .zero))
            return record.layers.count
        }
        if ttl != nil { expiry?.wake() } else { expiry?.poke() }
        return count
    }

    /// Reverts every layer whose time to live has run out, soonest deadline first, each with an event saying so.
    /// The registry's own thread calls it when a deadline passes; tests with a ``ManualRegistryClock`` call it
    /// after advancing the clock.
    ///
    /// - Returns: The layers it reverted, in the order it reverted them.
    @discardableResult
    package func expireDue() -> [LayerID] {
        expire().layers
    }

    /// One round of the housekeeping thread: expires what is due and evaluates the guards; returns how long until
    /// the next deadline or guard round (nil: none).
    func housekeepingRound() -> Duration? {
        let expiry = expire().next.map { $0 - now }
        let guards = guardRound()
        let decisions = decisionRound()
        return [expiry, guards, decisions].compactMap { $0 }.min()
    }

    private func expire() -> (layers: [LayerID], next: Duration?) {
        let time = now
        let (expired, touched, next) = state.withLock { state in
            let due = state.deadlines.filter { $0.value <= time }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            var touched: [SeamCore] = []
            for (id, _) in due {
                guard let seam = state.history[id]?.seam,
                    let layer = state.records[seam]?.layers.first(where: { $0.id == id }),
                    let ttl = layer.ttl
                else {
                    state.deadlines[id] = nil
                    continue
                }
                let reason = "expired after its ttl of \(SpecDuration(ttl))"
                touched += state.revert(layers: [id], time: time, reasons: [id: reason])
            }
            return (due.map(\.key), touched, state.deadlines.values.min())
        }
        for core in touched { core.notifyChanged() }
        return (expired, next)
    }
}

extension Registry.State {
    /// Puts each layer's time left (``LayerSnapshot/expiresIn``) into `seams`, for the seams with a deadline.
    func fillTimeLeft(_ seams: inout [SeamSnapshot], at time: Duration) {
        for index in seams.indices where seams[index].layers.contains(where: { $0.expiresAt != nil }) {
            seams[index].layers = seams[index].layers.map { $0.timed(at: time) }
        }
    }
}

extension Registry.Layer {
    /// Gives the layer a time to live from `time`, or none.
    mutating func setTTL(_ ttl: Duration?, at time: Duration) {
        self.ttl = ttl
        expiresAt = ttl.map { time + $0 }
    }
}

extension LayerSnapshot {
    /// The layer with ``expiresIn`` as of `time` (the registry's uptime), when it has a deadline.
    func timed(at time: Duration) -> LayerSnapshot {
        guard let expiresAt, status == .active else { return self }
        var layer = self
        layer.expiresIn = max(.zero, expiresAt - time)
        return layer
    }
}
