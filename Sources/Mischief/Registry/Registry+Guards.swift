extension Registry {
    /// How often the housekeeping thread evaluates the guards while there are any.
    public static let guardInterval: Duration = .seconds(1)

    /// Adds a guard; it is armed at once and evaluated about once a second (``guardInterval``) on the registry's
    /// housekeeping thread, never on a seam's call path. While it exists its seam's calls are counted.
    ///
    /// - Parameters:
    ///   - rule: The condition and what it reverts when it trips.
    ///   - source: Who added it, shown in ``guards`` and in the event log.
    /// - Returns: The guard's id.
    /// - Throws: ``MischiefError/unknownSeam(_:)`` when its seam is not registered,
    ///   ``MischiefError/unsupported(_:_:)`` when a `check` seam is not a `Seam<Void, Bool, Never>`,
    ///   ``MischiefError/unknownProfile(_:)`` when it guards a profile that is not defined.
    @discardableResult
    public func addGuard(_ rule: Guard, source: String = "code") throws(MischiefError) -> Int {
        let time = now
        let id = try state.withLock { (state) throws(MischiefError) -> Int in
            try state.check(rule)
            if case .profile(let name) = rule.reverts, state.profiles[name] == nil { throw .unknownProfile(name) }
            return state.addGuard(rule, source: source, time: time)
        }
        expiry?.wake()
        return id
    }

    /// Removes a guard.
    ///
    /// - Throws: ``MischiefError/unknownGuard(_:)``.
    public func removeGuard(_ id: Int) throws(MischiefError) {
        let time = now
        try state.withLock { (state) throws(MischiefError) in
            guard let index = state.guards.index(of: id) else { throw .unknownGuard(id) }
            let removed = state.guards.remove(at: index)
            state.updateCounting()
            state.generations.guardsChanged()
            state.log(time, .report, removed.rule.condition.seam, removed.source, "guard \(id) removed")
        }
        expiry?.poke()
    }

    /// Arms a tripped guard again (a profile's guards are armed again whenever the profile is applied).
    ///
    /// - Throws: ``MischiefError/unknownGuard(_:)``.
    public func rearmGuard(_ id: Int) throws(MischiefError) {
        let time = now
        try state.withLock { (state) throws(MischiefError) in
            guard let index = state.guards.index(of: id) else { throw .unknownGuard(id) }
            state.arm(index, time: time)
        }
        expiry?.wake()
    }

    /// Every guard, in the order they were added, with its state.
    public var guards: [GuardStatus] {
        state.withLock { $0.guardStatuses }
    }

    /// Evaluates every guard now, as the housekeeping thread does each round: tests with a
    /// ``ManualRegistryClock`` call it after making calls and advancing the clock.
    ///
    /// - Returns: The ids of the guards that tripped.
    @discardableResult
    package func checkGuards() -> [Int] {
        evaluateGuards().tripped
    }

    /// One round of guards for the housekeeping thread: how long until the next (nil while there are none).
    func guardRound() -> Duration? {
        evaluateGuards().next
    }

    private func evaluateGuards() -> (tripped: [Int], next: Duration?) {
        // Health checks are the target's code: they run outside the registry's lock.
        let checks = state.withLock { $0.pendingChecks() }
        var results: [Int: Bool] = [:]
        for (id, seam) in checks { results[id] = seam.peek(()) }
        let time = now
        let (tripped, touched, next) = state.withLock { state in
            let (tripped, touched) = state.evaluateGuards(time: time, checks: results)
            return (tripped, touched, state.guards.contains { !$0.isTripped } ? Self.guardInterval : nil)
        }
        for core in touched { core.notifyChanged() }
        return (tripped, next)
    }
}

extension Registry.State {
    /// Every guard's status, watching when what it guards is applied.
    var guardStatuses: [GuardStatus] {
        guards.map { record in
            GuardStatus(
                id: record.id, definition: record.rule, source: record.source, state: record.state,
                isWatching: !record.isTripped && !entries(guardedBy: record.rule.reverts).isEmpty)
        }
    }

    /// The seams whose calls guards count.
    var guardedSeams: Set<SeamID> {
        var seams: Set<SeamID> = []
        for record in guards {
            switch record.rule.condition {
            case .errorRate(let seam, _, _, _), .noSuccess(let seam, _): seams.insert(seam)
            case .check: break
            }
        }
        return seams
    }

    /// Whether calls of seam `id` are counted: someone observes, counting is always on, or a guard reads them.
    func counts(_ id: SeamID) -> Bool {
        isCounting || guards.contains { $0.rule.condition.seam == id && !$0.isCheck }
    }

    /// Checks a guard against the registered seams.
    func check(_ rule: Guard) throws(MischiefError) {
        let seam = rule.condition.seam
        guard let record = records[seam] else { throw .unknownSeam(seam) }
        if case .check = rule.condition, !(record.seam is Seam<Void, Bool, Never>) {
            throw .unsupported(
                seam, "a guard's check(…) needs a seam that takes nothing and returns Bool (Seam<Void, Bool, Never>)")
        }
    }

    mutating func addGuard(_ rule: Guard, source: String, time: Duration) -> Int {
        let id = appendGuard(rule, source: source, time: time)
        updateCounting()
        return id
    }

    /// Adds and arms a guard without updating which seams count: a caller adding many updates once, since each
    /// update walks every guard (a profile file of 10,000 guards took 15 s one update per guard).
    private mutating func appendGuard(_ rule: Guard, source: String, time: Duration) -> Int {
        let (id, index) = guards.add(rule, source: source)
        arm(index, time: time)
        log(time, .report, rule.condition.seam, source, "guard \(id) added: \(rule)")
        return id
    }

    /// Arms guard `index` from scratch: its window starts now.
    mutating func arm(_ index: Int, time: Duration) {
        guards[index].state = .armed
        guards[index].failures = 0
        guards[index].samples = sample(guards[index].rule.condition.seam, time: time).map { [$0] } ?? []
        generations.guardsChanged()
    }

    /// Replaces the guards profile `name` defines with `rules`.
    mutating func setGuards(ofProfile name: String, _ rules: [Guard], time: Duration) {
        let source = "profile \(name)"
        if guards.removeAll(from: source) { generations.guardsChanged() }
        for rule in rules { _ = appendGuard(rule, source: source, time: time) }
        updateCounting()
    }

    /// Arms the guards of profile `name` again, as it is applied.
    mutating func rearmGuards(ofProfile name: String, time: Duration) {
        for index in guards.indices where guards[index].source == "profile \(name)" { arm(index, time: time) }
    }

    private func sample(_ seam: SeamID, time: Duration) -> (time: Duration, calls: Int, errors: Int)? {
        guard let counters = records[seam]?.seam.core.counters() else { return nil }
        return (time, counters.calls, counters.errors)
    }

    /// The active entries `scope` covers.
    func entries(guardedBy scope: Guard.Scope) -> Set<LayerID> {
        switch scope {
        case .everything:
            return Set(history.values.filter { $0.status == .active }.map(\.id))
        case .profile(let name):
            return Set((appliedProfiles[name]?.layers ?? []).filter { history[$0]?.status == .active })
        case .entries(let entries):
            return Set(entries.filter { history[$0]?.status == .active })
        }
    }

    /// The health checks to run this round: armed `check` guards with something to guard.
    func pendingChecks() -> [(Int, Seam<Void, Bool, Never>)] {
        guards.compactMap { record in
            guard case .check(let seam, _) = record.rule.condition, !record.isTripped,
                !entries(guardedBy: record.rule.reverts).isEmpty,
                let check = records[seam]?.seam as? Seam<Void, Bool, Never>
            else { return nil }
            return (record.id, check)
        }
    }

    /// Evaluates every armed guard at `time` (with this round's health checks) and trips those whose condition
    /// holds; returns their ids and the cores to notify.
    mutating func evaluateGuards(time: Duration, checks: [Int: Bool]) -> ([Int], [SeamCore]) {
        var tripped: [Int] = []
        var touched: [SeamCore] = []
        for index in guards.indices where !guards[index].isTripped {
            let guarded = entries(guardedBy: guards[index].rule.reverts)
            guard !guarded.isEmpty else {
                // Nothing to guard: the window starts again when there is.
                let seam = guards[index].rule.condition.seam
                guards[index].samples = sample(seam, time: time).map { [$0] } ?? []
                guards[index].failures = 0
                continue
            }
            guard let figures = observe(index, time: time, check: checks[guards[index].id]) else { continue }
            touched += trip(index, figures: figures, entries: guarded, time: time)
            tripped.append(guards[index].id)
        }
        return (tripped, touched)
    }

    /// Takes this round's sample for guard `index`; returns the figures that trip it, or nil.
    private mutating func observe(_ index: Int, time: Duration, check: Bool?) -> String? {
        let record = guards[index]
        switch record.rule.condition {
        case .errorRate(let seam, let fraction, let window, let minimum):
            guard let now = sample(seam, time: time) else { return nil }
            var samples = record.samples + [now]
            // Keep the newest sample at or before the window's start as its base, and those after it.
            while samples.count > 1, samples[1].time <= time - window { samples.removeFirst() }
            guards[index].samples = samples
            let base = samples[0]
            let calls = now.calls - base.calls
            let errors = now.errors - base.errors
            guard calls >= minimum, calls > 0, Double(errors) / Double(calls) > fraction else { return nil }
            let percent = Guard.Condition.percent(Double(errors) / Double(calls))
            return "\(errors) of \(calls) calls threw (\(percent)) over \(SpecDuration(window)), "
                + "more than \(Guard.Condition.percent(fraction))"
        case .noSuccess(let seam, let duration):
            guard let now = sample(seam, time: time) else { return nil }
            guard let last = record.samples.first else {
                guards[index].samples = [now]
                return nil
            }
            if now.calls - now.errors > last.calls - last.errors {
                guards[index].samples = [now]  // a call succeeded since the last round
                return nil
            }
            guard time - last.time >= duration else { return nil }
            let calls = now.calls - last.calls
            let errors = now.errors - last.errors
            return "no call returned without an error for \(SpecDuration(duration)) "
                + "(\(calls) call\(calls == 1 ? "" : "s"), \(errors) error\(errors == 1 ? "" : "s"))"
        case .check(let seam, let failures):
            guard let healthy = check else { return nil }
            guards[index].failures = healthy ? 0 : record.failures + 1
            guard guards[index].failures >= failures else { return nil }
            return failures == 1
                ? "\(seam) returned false" : "\(seam) returned false \(failures) times in a row"
        }
    }

    /// Trips guard `index`: reverts `entries`, logs the trip with `figures`, and marks it tripped.
    private mutating func trip(_ index: Int, figures: String, entries: Set<LayerID>, time: Duration) -> [SeamCore] {
        holdingEvents { state in state.tripHeld(index, figures: figures, entries: entries, time: time) }
    }

    /// ``trip(_:figures:entries:time:)`` with its events held until the reverts are made.
    private mutating func tripHeld(_ index: Int, figures: String, entries: Set<LayerID>, time: Duration) -> [SeamCore] {
        let record = guards[index]
        if case .profile(let name) = record.rule.reverts { appliedProfiles[name] = nil }
        let count = entries.count
        let reason = "\(figures); reverted \(record.rule.reverts) (\(count) change\(count == 1 ? "" : "s"))"
        guards[index].state = .tripped(at: time, reason: reason)
        generations.guardsChanged()
        log(
            time, .guardTripped, record.rule.condition.seam, record.source,
            "guard \(record.id) tripped (\(record.rule.condition)): \(reason)")
        let why = "guard \(record.id) tripped"
        return revert(
            entries: entries, time: time, reasons: Dictionary(uniqueKeysWithValues: entries.map { ($0, why) }),
            source: "guard \(record.id)")
    }
}

extension Registry.GuardRecord {
    var isCheck: Bool {
        if case .check = rule.condition { return true }
        return false
    }
}
