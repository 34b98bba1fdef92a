extension Registry {
    /// How often the housekeeping thread evaluates the guards while there are any.
    public static let guardInterval: Duration = .seconds(1)

    /// The most guards a registry keeps: each is evaluated every round on the housekeeping thread, so a registry with
    /// no limit could be made to spend its target's memory and CPU on guards. ``addGuard(_:source:)`` and
    /// ``define(_:fileAccess:)`` refuse more with ``MischiefError/tooManyGuards(limit:)``.
    public static let guardLimit = 1_000

    /// Adds a guard; it is armed at once and evaluated about once a second (``guardInterval``) on the registry's
    /// housekeeping thread, never on a seam's call path. While it exists its seam's calls are counted.
    ///
    /// - Parameters:
    ///   - rule: The condition and what it reverts when it trips.
    ///   - source: Who added it, shown in ``guards`` and in the event log.
    /// - Returns: The guard's id.
    /// - Throws: ``MischiefError/unknownSeam(_:)`` when its seam is not registered,
    ///   ``MischiefError/unsupported(_:_:)`` when a `check` seam is not a `Seam<Void, Bool, Never>`,
    ///   ``MischiefError/unknownProfile(_:)`` when it guards a profile that is not defined,
    ///   ``MischiefError/tooManyGuards(limit:)`` when it has ``guardLimit`` guards already.
    @discardableResult
    public func addGuard(_ rule: Guard, source: String = "code") throws(MischiefError) -> Int {
        let time = now
        let id = try state.withLock { (state) throws(MischiefError) -> Int in
            try state.check(rule)
            guard state.guards.count < state.guardCapacity else { throw .tooManyGuards(limit: state.guardCapacity) }
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

    /// The status of guard `id`, or nil when there is none; unlike ``guards`` it reads that guard alone.
    public func guardStatus(_ id: Int) -> GuardStatus? {
        state.withLock { state in state.guards.index(of: id).map { state.guardStatus(state.guards[$0]) } }
    }

    /// Evaluates every guard now, as the housekeeping thread does each round: tests with a
    /// ``ManualRegistryClock`` call it after making calls and advancing the clock.
    ///
    /// - Returns: The ids of the guards that tripped.
    @discardableResult
    package func checkGuards() -> [Int] {
        evaluateGuards().tripped
    }

    /// How many samples guard `id` keeps now (nil when there is no such guard): tests show that a long window keeps a
    /// bounded number.
    package func guardSampleCount(_ id: Int) -> Int? {
        state.withLock { state in state.guards.index(of: id).map { state.guards[$0].samples.count } }
    }

    /// How many times the registry has read a guard's record: tests count the work adding guards takes.
    package var guardRecordReads: Int {
        state.withLock { $0.guards.reads.value }
    }

    /// The most guards this registry keeps (``guardLimit`` unless a test lowers it).
    package var guardCapacity: Int {
        get { state.withLock { $0.guardCapacity } }
        set { state.withLock { $0.guardCapacity = newValue } }
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
        var everything: Set<LayerID>?  // the same for every guard of everything: found once
        return guards.map { record in
            guardStatus(record, guarding: isGuarding(record.rule.reverts, everything: &everything))
        }
    }

    /// One guard's status, watching when what it guards is applied.
    func guardStatus(_ record: Registry.GuardRecord, guarding: Bool? = nil) -> GuardStatus {
        GuardStatus(
            id: record.id, definition: record.rule, source: record.source, state: record.state,
            isWatching: !record.isTripped && (guarding ?? !layers(guardedBy: record.rule.reverts).isEmpty))
    }

    /// Whether `scope` covers an active layer, finding the active layers once for all the guards of everything.
    private func isGuarding(_ scope: Guard.Scope, everything: inout Set<LayerID>?) -> Bool {
        guard case .everything = scope else { return !layers(guardedBy: scope).isEmpty }
        if everything == nil { everything = layers(guardedBy: .everything) }
        return !everything!.isEmpty
    }

    /// The seams whose calls guards count.
    var guardedSeams: Set<SeamID> {
        Set(guards.countedSeams)
    }

    /// Whether calls of seam `id` are counted: someone observes, counting is always on, or a guard reads them.
    func counts(_ id: SeamID) -> Bool {
        isCounting || guards.countingGuards(of: id) > 0
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

    /// Adds a guard (the caller has checked there is room) and counts its seam's calls; reads no other guard.
    mutating func addGuard(_ rule: Guard, source: String, time: Duration) -> Int {
        let id = appendGuard(rule, source: source, time: time)
        if let seam = rule.countedSeam { records[seam]?.seam.core.setCounting(true) }
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
        let first = sample(guards[index].rule.condition.seam, time: time)
        guards[index].state = .armed
        guards[index].failures = 0
        guards[index].samples.removeAll(keepingCapacity: true)
        if let first { guards[index].samples.append(first) }
        generations.guardsChanged()
    }

    /// Checks that the guards profile `name` defines, `count` of them, fit beside the others (its old ones are
    /// replaced).
    func checkRoom(forGuardsOfProfile name: String, count: Int) throws(MischiefError) {
        guard count > 0 else { return }
        let source = "profile \(name)"
        let others = guards.count - guards.lazy.filter { $0.source == source }.count
        guard others + count <= guardCapacity else { throw .tooManyGuards(limit: guardCapacity) }
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

    private func sample(_ seam: SeamID, time: Duration) -> Registry.GuardSample? {
        guard let counters = records[seam]?.seam.core.counters() else { return nil }
        return (time, counters.calls, counters.errors)
    }

    /// The active layers `scope` covers.
    func layers(guardedBy scope: Guard.Scope) -> Set<LayerID> {
        switch scope {
        case .everything:
            return Set(history.values.filter { $0.status == .active }.map(\.id))
        case .profile(let name):
            return Set((appliedProfiles[name]?.layers ?? []).filter { history[$0]?.status == .active })
        case .layers(let layers):
            return Set(layers.filter { history[$0]?.status == .active })
        }
    }

    /// The health checks to run this round: armed `check` guards with something to guard.
    func pendingChecks() -> [(Int, Seam<Void, Bool, Never>)] {
        guards.compactMap { record in
            guard case .check(let seam, _) = record.rule.condition, !record.isTripped,
                !layers(guardedBy: record.rule.reverts).isEmpty,
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
        var everything: Set<LayerID>?  // the active layers, found once a round for every guard of everything
        for index in guards.indices where !guards[index].isTripped {
            let rule = guards[index].rule
            let guarded: Set<LayerID>
            if case .everything = rule.reverts {
                if everything == nil { everything = layers(guardedBy: .everything) }
                guarded = everything!
            } else {
                guarded = layers(guardedBy: rule.reverts)
            }
            guard !guarded.isEmpty else {
                // Nothing to guard: the window starts again when there is.
                let first = sample(rule.condition.seam, time: time)
                guards[index].samples.removeAll(keepingCapacity: true)
                if let first { guards[index].samples.append(first) }
                guards[index].failures = 0
                continue
            }
            guard let figures = observe(index, time: time, check: checks[guards[index].id]) else { continue }
            touched += trip(index, figures: figures, layers: guarded, time: time)
            tripped.append(guards[index].id)
            everything = nil  // the trip reverted some
        }
        return (tripped, touched)
    }

    /// Takes this round's sample for guard `index`; returns the figures that trip it, or nil.
    private mutating func observe(_ index: Int, time: Duration, check: Bool?) -> String? {
        // Only the condition is read out: holding the record would make the append below copy its samples.
        switch guards[index].rule.condition {
        case .errorRate(let seam, let fraction, let window, let minimum):
            guard let now = sample(seam, time: time) else { return nil }
            let base = guards[index].takeSample(now, window: window)
            let calls = now.calls - base.calls
            let errors = now.errors - base.errors
            guard calls >= minimum, calls > 0, Double(errors) / Double(calls) > fraction else { return nil }
            let percent = Guard.Condition.percent(Double(errors) / Double(calls))
            return "\(errors) of \(calls) calls threw (\(percent)) over \(SpecDuration(window)), "
                + "more than \(Guard.Condition.percent(fraction))"
        case .noSuccess(let seam, let duration):
            guard let now = sample(seam, time: time) else { return nil }
            guard let last = guards[index].samples.first else {
                guards[index].samples = [now]
                return nil
            }
            if now.calls - now.errors > last.calls - last.errors {
                guards[index].samples[0] = now  // a call succeeded since the last round
                return nil
            }
            guard time - last.time >= duration else { return nil }
            let calls = now.calls - last.calls
            let errors = now.errors - last.errors
            return "no call returned without an error for \(SpecDuration(duration)) "
                + "(\(calls) call\(calls == 1 ? "" : "s"), \(errors) error\(errors == 1 ? "" : "s"))"
        case .check(let seam, let failures):
            guard let healthy = check else { return nil }
            guards[index].failures = healthy ? 0 : guards[index].failures + 1
            guard guards[index].failures >= failures else { return nil }
            return failures == 1
                ? "\(seam) returned false" : "\(seam) returned false \(failures) times in a row"
        }
    }

    /// Trips guard `index`: reverts `layers`, logs the trip with `figures`, and marks it tripped.
    private mutating func trip(_ index: Int, figures: String, layers: Set<LayerID>, time: Duration) -> [SeamCore] {
        holdingEvents { state in state.tripHeld(index, figures: figures, layers: layers, time: time) }
    }

    /// ``trip(_:figures:layers:time:)`` with its events held until the reverts are made.
    private mutating func tripHeld(_ index: Int, figures: String, layers: Set<LayerID>, time: Duration) -> [SeamCore] {
        let record = guards[index]
        if case .profile(let name) = record.rule.reverts { appliedProfiles[name] = nil }
        let count = layers.count
        let reason = "\(figures); reverted \(record.rule.reverts) (\(count) layer\(count == 1 ? "" : "s"))"
        guards[index].state = .tripped(at: time, reason: reason)
        generations.guardsChanged()
        log(
            time, .guardTripped, record.rule.condition.seam, record.source,
            "guard \(record.id) tripped (\(record.rule.condition)): \(reason)")
        let why = "guard \(record.id) tripped"
        return revert(
            layers: layers, time: time, reasons: Dictionary(uniqueKeysWithValues: layers.map { ($0, why) }),
            source: "guard \(record.id)")
    }
}

extension Registry.GuardRecord {
    /// Takes an error-rate guard's sample for this round, in place, and returns the base its window is read from:
    /// the newest sample kept at or before the window's start (the oldest kept while the window is not yet full).
    ///
    /// A sample is kept only when the last kept one is at least `sampleSpacing(of:)` (a 120th of
    /// the window) old, and those before the base are dropped, so a guard keeps at most 122 samples whatever its
    /// window: a 1-day window keeps one per 12 minutes, not 86,400. The price is precision at the old end: the
    /// base can be up to one spacing plus one round older than the window's start, so the calls read are those of
    /// the last `window` and at most a 120th more (12 minutes of a day, 5 s of 10 minutes), never fewer. Windows up
    /// to 2 minutes have a spacing under a round and are read exactly, as before.
    mutating func takeSample(_ now: Registry.GuardSample, window: Duration) -> Registry.GuardSample {
        if samples.isEmpty || now.time - samples[samples.count - 1].time >= Guard.Condition.sampleSpacing(of: window) {
            samples.append(now)
        }
        var stale = 0
        while samples.count - stale > 1, samples[stale + 1].time <= now.time - window { stale += 1 }
        if stale > 0 { samples.removeFirst(stale) }
        return samples[0]
    }
}

extension Registry {
    /// A guarded seam's counters at one round.
    typealias GuardSample = (time: Duration, calls: Int, errors: Int)
}

extension Guard.Condition {
    /// How many samples an error-rate guard keeps over its window, about: see `GuardRecord.takeSample`.
    static let samplesPerWindow = 120

    /// The least time between two samples an error-rate guard keeps: a 120th of its window.
    static func sampleSpacing(of window: Duration) -> Duration {
        window / samplesPerWindow
    }
}
