import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process-wide catalogue of seams, the layers applied to them, their counters and an event log.
///
/// Thread-safe. Registry operations take one lock; calls to seams never do.
///
/// ```swift
/// let registry = Registry.shared
/// try registry.register(clockNow, fetchUser)
/// let tomorrow = try registry.apply(clockNow, .transform { $0.addingTimeInterval(86_400) }, source: "demo")
/// registry.revert(tomorrow)
/// ```
/// Tests make their own registry, so they run in parallel without seeing each other's changes.
public final class Registry: Sendable {
    /// The registry targets use unless they make their own. It applies `MISCHIEF_APPLY` (see ``EnvironmentChaos``).
    public static let shared = Registry.makeShared()

    /// The seed random behaviours derive their seeds from unless given one: `$MISCHIEF_SEED` when set, else
    /// chosen at random when the registry starts. Print it to replay a run.
    public let sessionSeed: UInt64

    /// The monotonic clock uptimes, event times and time to live are measured on.
    let clock: any RegistryClock
    /// The clock's reading when the registry started.
    let start: Duration
    let state: Locked<State>
    /// The thread that reverts layers whose time to live runs out and evaluates guards; nil when only
    /// ``expireDue()`` and ``checkGuards()`` do (tests).
    let expiry: HousekeepingTimer?
    /// What is left to apply from `MISCHIEF_APPLY`, `MISCHIEF_PROFILE` (or ``applyWhenRegistered(_:)``) as seams
    /// register, by source.
    let environment = Locked<[String: EnvironmentPlan]>([:])
    /// The replays running (`Registry+Replay.swift`), told when seams register.
    let replays = Locked<[Replayer]>([])
    /// Hands out each registry's mark for the boxes it installs.
    private static let owners = Atomic<Int>(0)

    /// Makes a registry.
    ///
    /// - Parameters:
    ///   - sessionSeed: The seed for random behaviours; nil reads `$MISCHIEF_SEED`, else picks one.
    ///   - eventCapacity: How many events the history keeps.
    public convenience init(sessionSeed: UInt64? = nil, eventCapacity: Int = 1000) {
        self.init(
            sessionSeed: sessionSeed, eventCapacity: eventCapacity, clock: ContinuousRegistryClock(),
            expiresOnItsOwn: true)
    }

    /// Makes a registry that reads the time from `clock`.
    ///
    /// - Parameters:
    ///   - clock: Where times and time to live are measured (a ``ManualRegistryClock`` in tests).
    ///   - expiresOnItsOwn: Whether a thread of the registry's own reverts layers whose time to live has run out;
    ///     without it only ``expireDue()`` does, for tests that decide when.
    package init(sessionSeed: UInt64?, eventCapacity: Int = 1000, clock: any RegistryClock, expiresOnItsOwn: Bool) {
        self.sessionSeed =
            sessionSeed ?? Environment.value("MISCHIEF_SEED").flatMap(UInt64.init)
            ?? UInt64.random(in: 1...UInt64.max)
        self.clock = clock
        self.start = clock.now
        let owner = Registry.owners.wrappingAdd(1, ordering: .relaxed).newValue
        self.state = Locked(State(eventCapacity: eventCapacity, owner: owner))
        self.expiry = expiresOnItsOwn ? HousekeepingTimer() : nil
        if let expiry {
            expiry.attach { [weak self] in self.map { $0.housekeepingRound() } }
            // Under the registry's lock: a poke takes only the timer's own, which its thread never holds across a round.
            state.withLock { $0.tapeMade = { [weak expiry] in expiry?.poke() } }
            clock.onAdvance { [weak expiry] in expiry?.poke() }
        }
        KillSwitch.track(self)
    }

    var now: Duration { clock.now - start }

    /// Time since the registry started, without taking a snapshot.
    public var uptime: Duration { now }

    // MARK: Seams

    /// Registers seams so consoles list them and changes can name them. Registering the same seam object again
    /// does nothing.
    ///
    /// - Throws: ``MischiefError/invalidSeamID(_:reason:)`` when a seam's id breaks the rules in ``SeamID``
    ///   (a literal id is only checked here), or ``MischiefError/duplicateSeam(_:)`` when another seam object
    ///   already has one of the ids; none of the seams are registered then.
    public func register(_ seams: AnySeam...) throws(MischiefError) {
        try register(seams)
    }

    /// Registers seams; see ``register(_:)-(AnySeam...)``.
    public func register(_ seams: [AnySeam]) throws(MischiefError) {
        let registered: [any RegisteredSeam] = seams
        try state.withLock { (state) throws(MischiefError) in
            var batch: [SeamID: ObjectIdentifier] = [:]
            for seam in registered {
                let id = seam.info.id
                if let problem = id.problem { throw .invalidSeamID(id.rawValue, reason: problem) }
                if let existing = state.records[id]?.seam, existing !== seam { throw .duplicateSeam(id) }
                if let other = batch.updateValue(ObjectIdentifier(seam), forKey: id), other != ObjectIdentifier(seam) {
                    throw .duplicateSeam(id)
                }
            }
            let time = now
            for seam in registered where state.records[seam.info.id] == nil { state.add(seam, time: time) }
        }
        applyEnvironment(to: registered.map(\.info.id))
        replaysRegistered(registered.map(\.info.id))
    }

    /// The seams, in registration order.
    public var seams: [SeamInfo] {
        state.withLock { state in state.order.map { state.records[$0]!.seam.info } }
    }

    // MARK: Apply and revert

    /// Applies `behaviour` to `seam`.
    ///
    /// - Parameters:
    ///   - seam: A registered seam.
    ///   - behaviour: What its calls get instead of (or around) its original.
    ///   - source: Who applies it, shown in snapshots and events.
    ///   - ttl: How long the change lasts before the registry reverts it by itself (on its own thread, and the
    ///     event log says why); nil until reverted. More than zero and at most ``longestTTL``.
    @discardableResult
    public func apply<Input, Output, Failure>(
        _ seam: Seam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>, source: String = "code",
        ttl: Duration? = nil
    ) throws(MischiefError) -> Applied {
        try apply([Change(seam, behaviour)], source: source, ttl: ttl)
    }

    /// Applies `behaviour` to an async `seam`; `ttl` as for a synchronous seam.
    @discardableResult
    public func apply<Input, Output, Failure>(
        _ seam: AsyncSeam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>,
        source: String = "code", ttl: Duration? = nil
    ) throws(MischiefError) -> Applied {
        try apply([Change(seam, behaviour)], source: source, ttl: ttl)
    }

    /// Applies changes as a unit: every behaviour is checked and compiled first, and if any is refused, none is
    /// applied.
    ///
    /// - Parameters:
    ///   - changes: The changes, applied in order (a later change to the same seam stacks on an earlier one).
    ///   - source: Who applies them, shown in snapshots and events ("console", "profile Tokyo").
    ///   - ttl: How long they last before the registry reverts them by itself; nil until reverted. More than zero
    ///     and at most ``longestTTL``.
    /// - Returns: A handle to revert them together.
    /// - Throws: ``MischiefError`` naming the seam and the problem.
    @discardableResult
    public func apply(_ changes: [Change], source: String = "code", ttl: Duration? = nil) throws(MischiefError)
        -> Applied
    {
        try apply(changes, source: source, replacingSource: false, ttls: Array(repeating: ttl, count: changes.count))
    }

    /// Applies `changes`; with `replacingSource`, each replaces the layers `source` applied to its seam before.
    /// `ttls`, parallel to `changes` (or empty), gives each its time to live.
    func apply(
        _ changes: [Change], source: String, replacingSource: Bool, ttls: [Duration?] = []
    ) throws(MischiefError) -> Applied {
        for ttl in ttls { try Self.check(ttl: ttl) }
        let time = now
        let (applied, touched) = try state.withLock { (state) throws(MischiefError) in
            try state.apply(
                changes, source: source, time: time, sessionSeed: sessionSeed, reporter: reporter,
                replacingSource: replacingSource, ttls: ttls)
        }
        for core in touched { core.notifyChanged() }
        if ttls.contains(where: { $0 != nil }) { expiry?.wake() }
        return applied
    }

    /// How behaviours report events: through this registry while it lives.
    var reporter: @Sendable (SeamID, String) -> Void {
        { [weak self] seam, message in self?.report(seam: seam, message: message) }
    }

    /// Reverts what one ``apply(_:source:ttl:)`` applied. Entries already reverted are ignored.
    ///
    /// - Parameters:
    ///   - applied: What the apply returned.
    ///   - source: Who asks (`"console"`, a session's name), for the events; nil is whoever applied it.
    public func revert(_ applied: Applied, source: String? = nil) {
        revert(layers: Set(applied.layers), source: source)
    }

    /// Reverts every layer on `seam`; `source` says who asks, for the events (nil: whoever applied each).
    public func revert(seam: SeamID, source: String? = nil) {
        let layers = state.withLock { state in Set(state.records[seam]?.layers.map(\.id) ?? []) }
        revert(layers: layers, source: source)
    }

    /// Reverts every layer on every seam; `source` says who asks, for the events (nil: whoever applied each).
    ///
    /// - Returns: how many layers were active, and so reverted.
    @discardableResult
    public func revertAll(source: String? = nil) -> Int {
        let layers = activeLayerIDs
        revert(layers: layers, source: source)
        return layers.count
    }

    /// The ids of the layers applied now: what a caller that needs only them reads instead of a ``snapshot()``.
    package var activeLayerIDs: Set<LayerID> {
        state.withLock { state in Set(state.history.values.filter { $0.status == .active }.map(\.id)) }
    }

    /// The id of the newest event logged (0 before the first), without a ``snapshot()``.
    package var lastEventID: Int {
        state.withLock { $0.events.lastID }
    }

    /// The target's own screen as last published (``publish(_:)``), without a ``snapshot()``.
    package var view: TargetView {
        state.withLock { $0.view }
    }

    /// Reverts the given layers; `source` says who asks, for the events (nil: whoever applied each).
    ///
    /// Each `reverted` event names the behaviour and, when `source` is not who applied it, who did:
    /// `reverted clock.now shift(1d) (applied by profile Tokyo) [console]`.
    public func revert(layers: Set<LayerID>, source: String? = nil) {
        guard !layers.isEmpty else { return }
        let time = now
        let touched = state.withLock { state in state.revert(layers: layers, time: time, source: source) }
        for core in touched { core.notifyChanged() }
    }

    /// Finishes the reverts whose last call has returned: their layers go from reverting to reverted, and the
    /// behaviours they replaced are freed. Snapshots and every apply or revert do this too.
    public func finishReverting() {
        let time = now
        state.withLock { $0.settle(time: time) }
    }

    // MARK: Observing

    /// Turns call counting on until the returned observation is cancelled or released.
    ///
    /// Consoles, watchers and test scopes observe; while nobody does, counting costs nothing.
    public func observe() -> Observation {
        state.withLock { state in
            state.observers += 1
            state.updateCounting()
        }
        return Observation { [weak self] in
            self?.state.withLock { state in
                state.observers -= 1
                state.updateCounting()
            }
        }
    }

    /// Counts calls even while nobody observes (for programs that log or export their counts).
    public var countsAlways: Bool {
        get { state.withLock { $0.countsAlways } }
        set {
            state.withLock { state in
                state.countsAlways = newValue
                state.updateCounting()
            }
        }
    }

    /// A consistent picture of every seam, layer and the target's view.
    ///
    /// Seams that did not change since the last read are not rebuilt; to follow a registry, take one snapshot
    /// and then apply ``delta(since:eventsAfter:)`` to it (see ``RegistryDelta``).
    public func snapshot() -> Snapshot {
        let time = now
        return state.withLock { state in
            state.settle(time: time)
            state.readCounters(time: time)
            var seams = state.allSeamSnapshots()
            var layers = state.history.values.sorted { $0.id < $1.id }
            if !state.deadlines.isEmpty {
                state.fillTimeLeft(&seams, at: time)
                layers = layers.map { $0.timed(at: time) }
            }
            return Snapshot(
                uptime: time, sessionSeed: sessionSeed, isCounting: state.isCounting,
                disabledReason: KillSwitch.reason, seams: seams, layers: layers, view: state.view,
                lastEventID: state.events.lastID, guards: state.guardStatuses,
                generation: state.generations.current)
        }
    }

    /// One seam as ``snapshot()`` shows it (counters read now, its layers with their time left), or nil if no such
    /// seam is registered: what a reader of one seam needs, at the cost of that seam alone, under the registry's
    /// lock once.
    ///
    /// - Parameter id: The seam.
    /// - Returns: Its snapshot, without ``SeamSnapshot/actions`` (see ``actions(for:)``).
    public func snapshot(of id: SeamID) -> SeamSnapshot? {
        let time = now
        return state.withLock { state in
            guard state.records[id] != nil else { return nil }
            state.settle(time: time)
            state.readCounters(of: id, time: time)
            var seams = [state.seamSnapshot(id)]
            if !state.deadlines.isEmpty { state.fillTimeLeft(&seams, at: time) }
            return seams[0]
        }
    }

    /// The counters of one seam, or nil if it is not registered.
    public func counters(_ seam: SeamID) -> SeamCounters? {
        state.withLock { $0.records[seam]?.liveCounters() }
    }

    // MARK: Events and the target's view

    /// The registry's generation now: it goes up with every change a console shows (see ``delta(since:eventsAfter:)``).
    public var generation: UInt64 { state.withLock { $0.generations.current } }

    /// Events after `id` (0 for all that are kept), oldest first.
    public func events(after id: Int = 0, limit: Int = .max) -> [Event] {
        state.withLock { $0.events.events(after: id, limit: limit) }
    }

    /// A stream of events from now on. It ends when the registry is released or the consumer stops iterating.
    public func eventStream(bufferingNewest limit: Int = 1000) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(limit))
        let key = state.withLock { $0.subscribers.add(continuation) }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { $0.subscribers.remove(key) }
        }
        return stream
    }

    /// A signal for each change to the registry (a layer applied, replaced, reverted or expired, a profile or guard
    /// changed, an event logged, the view published, a seam registered), so a follower of
    /// ``delta(since:eventsAfter:)`` wakes when there is something to read instead of polling for it.
    ///
    /// Calls are not signalled: a call only adds to its seam's counters, and a follower that shows counts reads them
    /// when it reads anyway (or on a period of its own). Signals that come while the follower is busy fold into one.
    /// The stream ends when the registry is released or the consumer stops iterating.
    ///
    /// ```swift
    /// var generation: UInt64 = 0
    /// for await _ in registry.changeSignals() {
    ///     let delta = registry.delta(since: generation)
    ///     generation = delta.generation
    ///     show(delta)
    /// }
    /// ```
    public func changeSignals() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let key = state.withLock { state in
            state.generations.nextWaker += 1
            state.generations.wakers[state.generations.nextWaker] = continuation
            return state.generations.nextWaker
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.generations.wakers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Adds a message to the event log on behalf of a seam (what a behaviour's `report` does).
    public func report(seam: SeamID?, message: String, source: String? = nil) {
        let time = now
        state.withLock { $0.log(time, .report, seam, source, message) }
    }

    /// Publishes the target's own view for consoles.
    ///
    /// The same view again changes nothing: an app that republishes on a timer wakes its consoles only when what it
    /// shows changed.
    public func publish(_ view: TargetView) {
        publishView(view)
    }

    /// ``publish(_:)``, returning the generation the view changed at (nil: the same view), so a target that wakes on
    /// the registry's changes can tell its own publishing from others' changes.
    @discardableResult
    package func publishView(_ view: TargetView) -> UInt64? {
        state.withLock { state in
            guard state.view != view else { return nil }
            state.view = view
            state.generations.viewChanged()
            return state.generations.current
        }
    }

    deinit {
        expiry?.stop()
        state.withLock { state in
            // Seams may outlive their registry: withdraw what it installed, so they call their originals again.
            // Their cores own the withdrawn behaviours until the calls inside them have returned.
            for record in state.records.values {
                record.seam.core.withdraw(owner: state.owner)
                for layer in record.layers { layer.closePauses() }
            }
            state.subscribers.finishAll()
            for waker in state.generations.wakers.values { waker.finish() }
        }
    }
}

/// Keeps call counting on while it lives; see ``Registry/observe()``.
public final class Observation: Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Locked(onCancel) }

    /// Stops observing. Calling it again does nothing.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}

/// Reads the process environment without Foundation.
enum Environment {
    static func value(_ name: String) -> String? {
        guard let pointer = getenv(name) else { return nil }
        return String(cString: pointer)
    }
}
