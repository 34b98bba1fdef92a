extension Registry {
    /// Everything a registry guards with its one lock.
    struct State: @unchecked Sendable {
        // @unchecked: only ever touched inside the registry's lock. The non-Sendable parts are the
        // type-erased compiled runs, which are Sendable closures.
        /// This registry's mark on the boxes it installs in seam cores (see `SeamCore+Ownership.swift`).
        let owner: Int
        var records: [SeamID: SeamRecord] = [:]
        var order: [SeamID] = []
        /// The layers kept, active and recently reverted (`LayerHistory.swift`).
        var history = LayerHistory()
        var events: EventLog
        /// The event stream's readers (`EventSubscribers.swift`).
        var subscribers = EventSubscribers()
        var observers = 0
        var countsAlways = false
        /// Whether `crash` behaviours may be applied; see ``Registry/allowsCrash``.
        var allowsCrash = Registry.crashAllowedByEnvironment
        var view = TargetView()
        /// The profiles defined (`ProfileBook.swift`).
        var profiles = ProfileBook()
        /// What each applied profile applied; any change to it is a change of the profiles' status.
        var appliedProfiles: [String: Applied] = [:] { didSet { generations.profilesChanged() } }
        var nextLayer = 1
        var nextGroup = 1
        /// Layers reverted while a call may still be inside them.
        var reverting: Set<LayerID> = []
        /// Seams whose cores may hold replaced boxes still waiting for their calls; only these are settled.
        var retiring: Set<SeamID> = []
        /// Change counting; see `Registry+Generation.swift`.
        var generations = Generations()
        /// When each active layer with a time to live expires (see `Registry+Expiry.swift`).
        var deadlines: [LayerID: Duration] = [:]
        /// The guards, in the order they were added (`GuardBook.swift`, `Registry+Guards.swift`).
        var guards = GuardBook()
        /// The test scopes published for consoles (`Registry+Scopes.swift`).
        var scopes = ScopeTable()
        /// The most guards kept (``Registry/guardLimit``; tests lower it).
        var guardCapacity = Registry.guardLimit
        var nextIndex = 0
        /// Every seam's snapshot in registration order, as of the last ``allSeamSnapshots()``, but for the seams counted
        /// since, listed in ``staleSnapshots``: the next snapshot rebuilds those alone, in place when the last one
        /// given out is gone. Nil before the first snapshot and after a seam comes or goes.
        var seamSnapshots: [SeamSnapshot]?
        /// The places in ``seamSnapshots`` out of date, with their seams (a seam may be listed more than once).
        var staleSnapshots: [(slot: Int, id: SeamID)] = []
        /// The recordings in progress (`Registry+Recording.swift`); each counts as an observer.
        var recorders: [Recorder] = []
        /// The numbering of each seam's box while calls are numbered (`CallNumbering.swift`).
        var numberings: [SeamID: CallNumbering] = [:]
        /// The seams a replay waits on, with the trigger their calls enter (`Replayer.swift`).
        var replayTriggers: [SeamID: ReplayTrigger] = [:]
        /// The tape of each seam whose calls' decisions are noted now (`Registry+Decisions.swift`).
        var tapes: [SeamID: any DecisionSource] = [:]
        /// Tapes of replaced boxes, drained until their last call has left.
        var retiredTapes: [any DecisionSource] = []
        /// Wakes the housekeeping thread when a tape is made: it reads tapes every 100 ms only while there are any.
        var tapeMade: (@Sendable () -> Void)?
        /// The replays that compare decisions, each with its seams.
        var decisionListeners: [DecisionListener] = []

        init(eventCapacity: Int, owner: Int) {
            events = EventLog(capacity: eventCapacity)
            self.owner = owner
        }

        var isCounting: Bool { observers > 0 || countsAlways }

        mutating func log(
            _ time: Duration, _ kind: Event.Kind, _ seam: SeamID?, _ source: String?, _ message: String,
            detail: RecordingDetail? = nil
        ) {
            let generation = generations.next()
            // The decisions made before the event go before it, in a recording and to a replay.
            if !tapes.isEmpty || !retiredTapes.isEmpty { drainDecisions() }
            let event = events.append(
                time: time, kind: kind, seam: seam, source: source, message: message, generation: generation)
            if !recorders.isEmpty { record(event, detail: detail) }
            subscribers.deliver(event)
        }

        /// Runs `body`, delivering the events it logs only when it has finished, in order: a reader woken by one of
        /// them then finds the change it tells of made (a guard's trip is logged before the reverts it causes, and
        /// a reader acting on it must find them reverted).
        mutating func holdingEvents<Result>(_ body: (inout Self) -> Result) -> Result {
            let outer = subscribers.hold()
            let result = body(&self)
            subscribers.release(restoring: outer)
            return result
        }

        mutating func updateCounting() {
            let guarded = guardedSeams
            for (id, record) in records { record.seam.core.setCounting(isCounting || guarded.contains(id)) }
        }

        /// Builds and installs the box for the seam's current layers; the seam's core retires the previous
        /// box until its calls have returned. While calls are numbered (``isNumbering``) the new box's numbers (or, with
        /// nothing applied, the core's) start exactly where the old ones stop (see ``CallNumbering``).
        mutating func reinstall(_ id: SeamID) {
            let record = records[id]!
            var box: AnyObject?
            if let old = tapes.removeValue(forKey: id) { retire(old) }
            let previous = numberings[id]
            var numbering: CallNumbering?
            // Only the layers that answer calls go into the box, so building it costs the same at any height of a
            // replacing seam's stack.
            let answering = record.answering
            if isNumbering, answering.isEmpty, replayTriggers[id] == nil {
                // Nothing applied and no replay step to wait for: the core numbers the calls, and no box is installed.
                numbering = CallNumbering(trigger: nil, core: record.seam.core)
                numberings[id] = numbering
            } else if isNumbering {
                let runs = answering.reversed().map(\.run)
                let next = CallNumbering(trigger: replayTriggers[id])
                let context =
                    wantsDecisions(of: id) && !runs.isEmpty
                    ? TapContext(layers: answering.reversed().map(\.id)) : nil
                let numbered = record.seam.numberedBox(
                    layers: runs, tape: context, trigger: replayTriggers[id], numbering: next)
                box = numbered.box
                if let tape = numbered.tape {
                    tapes[id] = tape
                    tapeMade?()
                }
                numbering = next
                numberings[id] = next
            } else {
                numberings[id] = nil
                if !answering.isEmpty { box = record.seam.makeBox(layers: answering.reversed().map(\.run)) }
            }
            // The box serves only the layers that answer: no call can be inside one beneath them.
            record.seam.core.install(
                box, layers: Set(answering.map(\.id)), owner: owner, numbered: numbering != nil
            ) {
                numbering?.follow(previous)
            }
            retiring.insert(id)
            bump(id)
        }

        /// Whether calls are numbered now: a recording or a replay needs to know which call each change came after.
        var isNumbering: Bool { !recorders.isEmpty || !decisionListeners.isEmpty || !replayTriggers.isEmpty }

        /// The number of seam `id`'s last call so far (exact right after a reinstall, where a change is made); nil
        /// while calls are not numbered.
        func callNumber(of id: SeamID) -> Int? {
            numberings[id]?.position
        }

        /// Frees retired boxes whose calls have all returned, and marks their layers reverted. Touches only the
        /// seams that replaced a box since their last settle, and the layers still reverting.
        mutating func settle(time: Duration, quietFor quiet: Set<LayerID> = []) {
            var waiting: Set<LayerID> = []
            for id in retiring {
                guard let record = records[id] else {
                    retiring.remove(id)
                    continue
                }
                let state = record.seam.core.reclaim(owner: owner)
                if record.isRetiring != state.isRetiring {
                    records[id]!.isRetiring = state.isRetiring
                    bump(id)
                }
                if !state.isRetiring {
                    retiring.remove(id)
                    // Its last behaviour's calls have all returned: take their counts now, whether or not anyone
                    // reads the counters (a seam nothing changes and nobody observes is not read again).
                    readCounters(of: id, time: time)
                }
                waiting.formUnion(state.layers)
            }
            for layer in reverting where !waiting.contains(layer) {
                reverting.remove(layer)
                guard let snapshot = history[layer] else { continue }
                setHistory(snapshot.with(status: .reverted))
                history.noteReverted(layer)
                if !quiet.contains(layer) {
                    log(
                        time, .revertCompleted, snapshot.seam, snapshot.source,
                        "\(snapshot.behaviourText): the last call inside it has returned")
                }
            }
            pruneHistory()
        }

        /// Records `layer` in the history and in its seam's list, and counts the change.
        mutating func setHistory(_ layer: LayerSnapshot) {
            let old = history.set(layer)
            if old == nil { records[layer.seam]?.keptLayers.append(layer.id) }
            if !guards.isEmpty, (old?.status == .active) != (layer.status == .active) {
                generations.guardsChanged()  // a guard watches while what it guards is active
            }
            if layer.status == .reverting { reverting.insert(layer.id) }
            bump(layer.seam)
            if appliedProfiles.values.contains(where: { $0.layers.contains(layer.id) }) {
                generations.profilesChanged()  // a profile is active while any of its layers is
            }
        }

        /// Forgets `layer` (pruned, or its seam unregistered).
        mutating func removeHistory(_ layer: LayerID) {
            guard let old = history.remove(layer) else { return }
            if old.status == .active, !guards.isEmpty { generations.guardsChanged() }
            reverting.remove(layer)
            records[old.seam]?.keptLayers.removeAll { $0 == layer }
            bump(old.seam)
        }

        /// Drops the oldest reverted layers beyond ``LayerHistory/revertedLimit``, oldest reverted first.
        private mutating func pruneHistory() {
            while let layer = history.nextToPrune() { removeHistory(layer) }
        }
    }

    /// A registered seam and what is applied to it.
    struct SeamRecord {
        let seam: any RegisteredSeam
        /// Its active layers, oldest first.
        var layers: [Layer] = []
        /// Whether replaced boxes were waiting for their calls at the last settle (the seam's core owns them).
        var isRetiring = false
        var lastCalled: Duration? {
            get { seldom?.lastCalled }
            set { if seldom != nil || newValue != nil { writableSeldom().lastCalled = newValue } }
        }
        /// The counters last read, and when the registry last counted a change to this seam.
        var counters: SeamCounters {
            get { seldom?.counters ?? SeamCounters() }
            set { if seldom != nil || newValue != SeamCounters() { writableSeldom().counters = newValue } }
        }
        /// The calls its pauses held when the counters were last read, oldest first.
        var heldCalls: [HeldCall] {
            get { seldom?.heldCalls ?? [] }
            set { if seldom != nil || !newValue.isEmpty { writableSeldom().heldCalls = newValue } }
        }
        /// What the seam's core had counted at the last ``Registry/resetCounters(_:source:)`` (calls, chaos calls
        /// and errors; the core's counters only grow), subtracted from what it counts.
        var baseline: SeamCounters {
            get { seldom?.baseline ?? SeamCounters() }
            set { if seldom != nil || newValue != SeamCounters() { writableSeldom().baseline = newValue } }
        }
        /// The fields above and ``notes``, which a seam nobody calls, resets or annotates never changes from their
        /// defaults, kept behind one reference made on the first change (copied on write, so records stay values).
        /// The registry's dictionary keeps each record inline in a bucket, some 2.6 buckets a seam at 100,000 seams
        /// (its load stays under ¾, and its capacity is a power of two): every byte of a record costs a registered seam
        /// that many (issue 47, memory per registered seam).
        private var seldom: Seldom?
        var generation: UInt64 = 0
        /// The seam's snapshot as of `generation`, built on demand.
        var cached: SeamSnapshot? {
            get { cachedBox?.snapshot }
            set { cachedBox = newValue.map(CachedSnapshot.init) }
        }
        /// Where `cached` is kept: a reference, so a record nobody has read yet (most of them, in a registry of many
        /// seams) holds one word for it rather than a whole snapshot.
        private var cachedBox: CachedSnapshot?
        /// The ids of its layers the history keeps, active and reverted, oldest first.
        var keptLayers: [LayerID] = []
        /// Its place in registration order.
        let index: Int
        /// Its place in ``State/seamSnapshots`` while that is kept.
        var slot = 0
        /// What its owner says the seam reaches now (see ``Registry/annotate(_:notes:)``).
        var notes: [String] {
            get { seldom?.notes ?? [] }
            set { if seldom != nil || !newValue.isEmpty { writableSeldom().notes = newValue } }
        }

        /// `seam.core`, read without a call through the seam's witness table or a retain: a read of many seams' counters
        /// looks at each one's core. The record holds the seam, which holds its core.
        unowned(unsafe) let core: SeamCore

        init(seam: any RegisteredSeam, index: Int) {
            self.seam = seam
            self.core = seam.core
            self.index = index
        }

        /// ``seldom``, made or copied first unless this record is its only holder.
        private mutating func writableSeldom() -> Seldom {
            if !isKnownUniquelyReferenced(&seldom) { seldom = seldom.map(Seldom.init(copying:)) ?? Seldom() }
            return seldom.unsafelyUnwrapped
        }

        /// The snapshot as of `generation`: the cached one, else one built from `history` and cached. Mutating, so
        /// that a record in a dictionary is read in place rather than copied whole.
        mutating func cachedSnapshot(history: [LayerID: LayerSnapshot]) -> SeamSnapshot {
            if let cachedBox { return cachedBox.snapshot }
            let built = snapshot(history: history)
            cachedBox = CachedSnapshot(built)
            return built
        }

        /// The snapshot as of `generation`: the cached one, else one built from `history` (not cached: for a reader
        /// that keeps it itself).
        func currentSnapshot(history: [LayerID: LayerSnapshot]) -> SeamSnapshot {
            cachedBox?.snapshot ?? snapshot(history: history)
        }

        /// The layers whose behaviours answer calls, oldest first: on a replacing seam (``Stacking/replace``) only
        /// the newest, whatever lies beneath it; on a merging one every layer.
        var answering: ArraySlice<Layer> {
            seam.info.stacking == .replace ? layers.suffix(1) : layers[...]
        }

        /// The seam's counters now, since its last reset, with the calls its layers' pauses hold.
        func liveCounters() -> SeamCounters {
            var counters = core.counters()
            // Clamped: the core's shards are summed without a lock, so a read may trail the one a reset took.
            counters.calls = max(0, counters.calls &- baseline.calls)
            counters.chaosCalls = max(0, counters.chaosCalls &- baseline.chaosCalls)
            counters.errors = max(0, counters.errors &- baseline.errors)
            for layer in layers where !layer.pauses.isEmpty { counters.held += layer.heldCount }
            return counters
        }

        /// The calls its layers' pauses hold now, oldest first.
        func liveHeldCalls() -> [HeldCall] {
            layers.flatMap { $0.pauses.flatMap(\.heldInputs) }.map(HeldCall.init(input:))
        }

        func snapshot(history: [LayerID: LayerSnapshot]) -> SeamSnapshot {
            let status: RevertStatus
            if !layers.isEmpty {
                status = .active
            } else if isRetiring {
                status = .reverting
            } else if !keptLayers.isEmpty {
                status = .reverted
            } else {
                status = .neverApplied
            }
            let behaviour: String?
            switch (layers.count, seam.info.stacking) {
            case (0, _): behaviour = nil
            case (_, .replace): behaviour = layers.last!.description
            case (_, .merge): behaviour = layers.reversed().map(\.description).joined(separator: " -> ")
            }
            let seeds = seam.info.stacking == .replace ? (layers.last?.seeds ?? []) : layers.flatMap(\.seeds)
            return SeamSnapshot(
                info: seam.info, counters: counters, behaviourText: behaviour, spec: spec,
                layers: layers.compactMap { history[$0.id] }, seeds: seeds, status: status, lastCalled: lastCalled,
                notes: notes, heldCalls: heldCalls)
        }

        /// The spec of what calls get now (the last layer's on a replacing seam, every layer's newest first joined
        /// with `->` on a merging one); nil when nothing is applied or a layer was built in code and has no spec.
        var spec: String? {
            guard !layers.isEmpty else { return nil }
            let current = seam.info.stacking == .replace ? [layers.last!] : layers.reversed()
            let specs = current.compactMap(\.spec)
            return specs.count == current.count ? specs.joined(separator: " -> ") : nil
        }
    }

    /// A record's fields that most seams never change from their defaults (see `SeamRecord.seldom`).
    final class Seldom {
        var lastCalled: Duration?
        var counters = SeamCounters()
        var heldCalls: [HeldCall] = []
        var baseline = SeamCounters()
        var notes: [String] = []

        init() {}

        init(copying other: Seldom) {
            lastCalled = other.lastCalled
            counters = other.counters
            heldCalls = other.heldCalls
            baseline = other.baseline
            notes = other.notes
        }
    }

    /// A seam's snapshot as a record keeps it between reads.
    final class CachedSnapshot {
        let snapshot: SeamSnapshot

        init(_ snapshot: SeamSnapshot) { self.snapshot = snapshot }
    }

    /// One layer on a seam: a behaviour applied to it, with its id.
    struct Layer {
        let id: LayerID
        /// The compiled behaviour (a SyncBox or AsyncBox of the seam's types: a class, so the closure inside is
        /// not reabstracted as it would be if it were kept as an `any Sendable` itself).
        let run: any Sendable
        let description: String
        /// The canonical spec, when the layer was made from one.
        let spec: String?
        let source: String
        let group: Int
        let appliedAt: Duration
        let seeds: [UInt64]
        /// The seed the layer was given (nil: derived from the session seed), for a recording that starts later.
        var givenSeed: UInt64? = nil
        /// Where the behaviour holds calls (its pauses), so they can be released, and closed when it goes.
        let pauses: [PauseSite]
        /// Where the behaviour's delays wait, so those waits end when it goes.
        var delays: [PauseSite] = []
        /// How long it lasts, when it has a time to live.
        var ttl: Duration? = nil
        /// When it expires, on the registry's clock.
        var expiresAt: Duration? = nil

        /// Calls held by this layer's pauses now.
        var heldCount: Int { pauses.reduce(0) { $0 + $1.heldCount } }

        /// Releases the calls this layer's pauses hold and ends its delays' waits, and holds no more: the layer is
        /// going.
        func closePauses() { for site in pauses + delays { site.close() } }

        func snapshot(seam: SeamID, status: RevertStatus, revertedAt: Duration? = nil) -> LayerSnapshot {
            LayerSnapshot(
                id: id, seam: seam, behaviour: description, spec: spec, source: source, group: group,
                appliedAt: appliedAt,
                revertedAt: revertedAt, status: status, seeds: seeds, ttl: ttl,
                expiresAt: status == .active ? expiresAt : nil)
        }
    }

}

extension LayerSnapshot {
    func with(status: RevertStatus) -> LayerSnapshot {
        LayerSnapshot(
            id: id, seam: seam, behaviour: behaviourText, spec: spec, source: source, group: group,
            appliedAt: appliedAt,
            revertedAt: revertedAt, status: status, seeds: seeds, ttl: ttl,
            expiresAt: status == .active ? expiresAt : nil)
    }
}
