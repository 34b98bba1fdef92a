import Synchronization

/// The registry side of a seam core: which box calls get, in which phase, and the replaced boxes still waiting
/// for their calls to return.
///
/// The core owns every box its word points to or did, so a box lives exactly as long as a call may use it:
/// not as long as a registry does. When a registry goes away it withdraws what it installed
/// (``withdraw(owner:)``), so a seam that outlives its registry calls its original, and a call still inside
/// the withdrawn box finishes safely; the box is freed at the core's next install or reclaim, or with the core.
///
/// Phases: every box carries the set of phases it may have calls in. A new box is published in a phase no
/// retired box waits on; when none is free (three boxes within one call's time), it shares one, and
/// ``reclaim(owner:)`` publishes it in the other phase as soon as that one is free, so a retired box waits only
/// for calls already inside, never for calls that start later. A phase observed drained after a box stopped
/// being published in it leaves that box's set; a retired box with an empty set is freed. `Models/seam-core.pml`
/// checks this (Scripts/model-check.sh). Every method takes the core's own lock; registries call them under
/// theirs (lock order: registry, then core), and the core never calls back.
extension SeamCore {
    /// A replaced box, kept alive until every call that could be using it has returned.
    struct Retired: @unchecked Sendable {
        // @unchecked: `box` is a SyncBox or AsyncBox, final Sendable classes, held type-erased.
        let box: AnyObject
        /// The phases it may still have calls in (bit n for phase n).
        var phases: UInt8
        /// Who installed it and the layers it served, so that registry can tell when they are reverted.
        let owner: Int
        let layers: Set<LayerID>
    }

    /// What a core owns, behind its lock.
    struct Ownership: @unchecked Sendable {
        // @unchecked: as for `Retired`; only touched under the core's lock.
        /// The installed box (the word holds its address unretained).
        var current: AnyObject?
        /// The phase the word publishes `current` in, or the last box's when there is none.
        var phase = 0
        /// The phases `current` may have calls in: `phase`, and those it was published in before.
        var phases: UInt8 = 0
        var owner = 0
        var layers: Set<LayerID> = []
        var counting = false
        /// Whether a recording or a replay numbers the calls (see ``SeamCore/numberedBit``).
        var numbered = false
        /// Whether a ``ChaosScope`` is active somewhere (see ``SeamCore/scopedBit``).
        var scoped = false
        var retired: [Retired] = []
        /// The seam whose ``AnySeam/word`` copies ``SeamCore/word``; nil once it has gone. Unowned: the seam owns
        /// this core, and clears this in its deinit, under this lock, before its memory goes.
        unowned(unsafe) var copy: AnySeam?
    }

    /// What an owner still waits for on this core.
    struct Waiting {
        /// Whether any replaced box (any owner's) is still waiting for its calls.
        var isRetiring = false
        /// The owner's layers whose boxes are still waiting.
        var layers: Set<LayerID> = []
    }

    /// Installs `box` (or nothing) for `owner`, serving `layers`; the box it replaces is retired. `beforePublishing`
    /// runs in this core's lock just before the box is published, with nothing between the two (a numbered box
    /// closes the numbers of the one it replaces there: see ``CallNumbering``).
    func install(
        _ box: AnyObject?, layers: Set<LayerID>, owner: Int, numbered: Bool = false,
        beforePublishing: (() -> Void)? = nil
    ) {
        let freed = ownership.withLock { state in
            state.numbered = numbered
            return install(box, layers: layers, owner: owner, in: &state, beforePublishing: beforePublishing)
        }
        _ = freed  // released here, outside the lock: a box's captures may run code when they go
    }

    /// Frees retired boxes whose calls have all returned, moves the current box out of a phase a retired box
    /// waits on, and says what `owner` still waits for.
    func reclaim(owner: Int) -> Waiting {
        let (waiting, freed) = ownership.withLock { state in
            let freed = reclaimDrained(&state)
            let busy = state.retired.reduce(0) { $0 | $1.phases }
            if state.current != nil, busy & bit(state.phase) != 0, busy & bit(1 - state.phase) == 0 {
                state.phase = 1 - state.phase
                state.phases |= bit(state.phase)
                store(state)
            }
            var waiting = Waiting(isRetiring: !state.retired.isEmpty)
            for retired in state.retired where retired.owner == owner { waiting.layers.formUnion(retired.layers) }
            return (waiting, freed)
        }
        _ = freed
        return waiting
    }

    /// Removes what `owner` installed, if it is still installed: calls get the original from now on.
    func withdraw(owner: Int) {
        let freed = ownership.withLock { state in
            guard state.current != nil || state.numbered, state.owner == owner else { return [Retired]() }
            state.numbered = false
            return install(nil, layers: [], owner: owner, in: &state)
        }
        _ = freed
    }

    /// Turns call counting on or off, keeping the box and phase.
    func setCounting(_ on: Bool) {
        let changed = ownership.withLock { state in
            guard state.counting != on else { return false }
            state.counting = on
            store(state)
            return true
        }
        if changed, let external = externalCounting() { external.setCounting(on) }
    }

    /// Sets or clears the scoped bit, keeping the box, phase and counting.
    func setScoped(_ on: Bool) {
        ownership.withLock { state in
            guard state.scoped != on else { return }
            state.scoped = on
            store(state)
        }
    }

    /// Keeps `seam`'s ``AnySeam/word`` a copy of this core's word from now on, starting with the word as it is (a
    /// scope may have set a bit while the core was made).
    func copyWord(to seam: AnySeam) {
        ownership.withLock { state in
            state.copy = seam
            seam.word.store(word.load(ordering: .relaxed), ordering: .releasing)
        }
    }

    /// Stops copying the word: the seam is going.
    func stopCopyingWord() {
        ownership.withLock { $0.copy = nil }
    }

    /// The installed box, for tests.
    var installedBox: AnyObject? { ownership.withLock { $0.current } }

    /// Retires the current box, installs `box` and returns the retired boxes that could be freed.
    private func install(
        _ box: AnyObject?, layers: Set<LayerID>, owner: Int, in state: inout Ownership,
        beforePublishing: (() -> Void)? = nil
    ) -> [Retired] {
        var freed = reclaimDrained(&state)
        if let old = state.current {
            state.retired.append(Retired(box: old, phases: state.phases, owner: state.owner, layers: state.layers))
        }
        state.current = box
        state.owner = owner
        state.layers = layers
        state.phases = 0
        if box != nil {
            state.phase = freePhase(state)
            state.phases = bit(state.phase)
        }
        beforePublishing?()
        store(state)
        freed += reclaimDrained(&state)
        return freed
    }

    /// A phase for a new box: one no retired box waits on, else the other one than the last box's.
    private func freePhase(_ state: Ownership) -> Int {
        let busy = state.retired.reduce(0) { $0 | $1.phases }
        if busy & bit(1 - state.phase) == 0 || busy & bit(state.phase) != 0 { return 1 - state.phase }
        return state.phase
    }

    private func bit(_ phase: Int) -> UInt8 { 1 << UInt8(phase) }

    /// Stores the word for `state`.
    private func store(_ state: Ownership) {
        var new: UInt = state.counting ? SeamCore.countingBit : 0
        if state.numbered { new |= SeamCore.numberedBit | SeamCore.countingBit }
        if state.scoped { new |= SeamCore.scopedBit }
        if let box = state.current {
            let address = UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
            precondition(address & ~SeamCore.addressMask == 0, "behaviour boxes must be 16-byte aligned")
            new |= address | (UInt(state.phase) << 1)
        }
        word.store(new, ordering: .sequentiallyConsistent)
        // The copy a call tests first (see ``AnySeam/word``). Nothing depends on its order with the store above: a
        // call that acts on the copy either runs the original untouched or reloads this word after announcing itself.
        state.copy?.word.store(new, ordering: .releasing)
    }

    /// Checks the phases boxes are no longer published in but may have calls in; a drained one leaves every
    /// box's set. Takes the retired boxes left with none out of `state`; the caller releases them.
    private func reclaimDrained(_ state: inout Ownership) -> [Retired] {
        let published = state.current == nil ? 0 : bit(state.phase)
        let stale = state.retired.reduce(state.phases & ~published) { $0 | $1.phases }
        guard stale != 0 else { return [] }
        var drained: UInt8 = 0
        for phase in 0..<SeamCore.phaseCount where stale & bit(phase) != 0 && isDrained(phase: phase) {
            drained |= bit(phase)
        }
        state.phases &= ~(drained & ~published)
        for index in state.retired.indices { state.retired[index].phases &= ~drained }
        let freed = state.retired.filter { $0.phases == 0 }
        state.retired.removeAll { $0.phases == 0 }
        return freed
    }
}
