extension Registry {
    /// Sets the counted calls, chaos calls and errors of `seam` back to zero, so a test or an orchestrator can
    /// measure one phase of a run. Calls in flight and calls held by a pause are live gauges and stay as they are.
    /// Snapshots and ``delta(since:eventsAfter:)`` show the zeros at once, and the event log records the reset.
    ///
    /// - Parameters:
    ///   - seam: The seam whose counters to reset.
    ///   - source: Who reset them, shown in the event log ("console", "api").
    /// - Returns: The counters as they were just before the reset.
    /// - Throws: ``MischiefError/unknownSeam(_:)`` when no such seam is registered.
    @discardableResult
    public func resetCounters(_ seam: SeamID, source: String = "code") throws(MischiefError) -> SeamCounters {
        let time = now
        return try state.withLock { (state) throws(MischiefError) -> SeamCounters in
            guard state.records[seam] != nil else { throw .unknownSeam(seam) }
            let before = state.resetCounters(of: seam)
            state.log(time, .report, seam, source, "counters reset (\(Self.describe(before)) before)")
            return before
        }
    }

    /// Resets the counted calls, chaos calls and errors of every seam; see ``resetCounters(_:source:)``.
    ///
    /// - Parameter source: Who reset them, shown in the event log.
    /// - Returns: How many seams had counts to reset.
    @discardableResult
    public func resetCounters(source: String = "code") -> Int {
        let time = now
        return state.withLock { state in
            var nonZero = 0
            for id in state.order {
                let before = state.resetCounters(of: id)
                if before.calls != 0 || before.chaosCalls != 0 || before.errors != 0 { nonZero += 1 }
            }
            state.log(time, .report, nil, source, "counters reset on every seam (\(nonZero) had counts)")
            return nonZero
        }
    }

    private static func describe(_ counters: SeamCounters) -> String {
        "calls \(counters.calls), chaos calls \(counters.chaosCalls), errors \(counters.errors)"
    }
}

extension Registry.State {
    /// Moves seam `id`'s baseline to its counters now, so they read zero from here on; returns them as they were.
    mutating func resetCounters(of id: SeamID) -> SeamCounters {
        let live = records[id]!.liveCounters()
        let raw = records[id]!.seam.core.counters()
        records[id]!.baseline = SeamCounters(calls: raw.calls, chaosCalls: raw.chaosCalls, errors: raw.errors)
        let zeroed = records[id]!.liveCounters()
        if zeroed != records[id]!.counters {
            records[id]!.counters = zeroed
            bump(id)
        }
        return live
    }
}
