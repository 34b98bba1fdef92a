import Synchronization

/// The registry side of a seam core: which box calls get, in which phase, and the replaced boxes still waiting
/// for their calls to return.
///
/// The core owns every box its word points to or did, so a box lives exactly as long as a call may use it:
/// not as long as a registry does. When a registry goes away it withdraws what it installed
/// (``withdraw(owner:)``), so a seam that outlives its registry calls its original, and a call still inside
/// the withdrawn box finishes safely; the box is freed at the core's next install or reclaim, or with the core.
///
/// Phases: a retired box keeps the phase it was installed in. A new box gets a phase that no retired box waits
/// on; when none is free (three boxes within one call's time), it shares with the oldest, and ``reclaim()``
/// moves the current box to the other phase as soon as that one is free, so the oldest waits only for calls
/// already inside, never for calls that start later. Every method takes the core's own lock; registries call
/// them under theirs (lock order: registry, then core), and the core never calls back.
extension SeamCore {
    /// A replaced box, kept alive until every call that could be using it has returned.
    struct Retired: @unchecked Sendable {
        // @unchecked: `box` is a SyncBox or AsyncBox, final Sendable classes, held type-erased.
        let box: AnyObject
        let phase: Int
        /// Who installed it and the entries it served, so that registry can tell when they are reverted.
        let owner: Int
        let entries: Set<EntryID>
    }

    /// What a core owns, behind its lock.
    struct Ownership: @unchecked Sendable {
        // @unchecked: as for `Retired`; only touched under the core's lock.
        /// The installed box (the word holds its address unretained).
        var current: AnyObject?
        /// The phase of `current`, or of the last box when there is none.
        var phase = 0
        var owner = 0
        var entries: Set<EntryID> = []
        var counting = false
        var retired: [Retired] = []
    }

    /// What an owner still waits for on this core.
    struct Waiting {
        /// Whether any replaced box (any owner's) is still waiting for its calls.
        var isRetiring = false
        /// The owner's entries whose boxes are still waiting.
        var entries: Set<EntryID> = []
    }

    /// Installs `box` (or nothing) for `owner`, serving `entries`; the box it replaces is retired.
    func install(_ box: AnyObject?, entries: Set<EntryID>, owner: Int) {
        let freed = ownership.withLock { state in install(box, entries: entries, owner: owner, in: &state) }
        _ = freed  // released here, outside the lock: a box's captures may run code when they go
    }

    /// Frees retired boxes whose calls have all returned, moves the current box out of a phase a retired box
    /// waits on, and says what `owner` still waits for.
    func reclaim(owner: Int) -> Waiting {
        let (waiting, freed) = ownership.withLock { state in
            let freed = reclaimDrained(&state)
            if state.current != nil, state.retired.contains(where: { $0.phase == state.phase }),
                !state.retired.contains(where: { $0.phase != state.phase })
            {
                state.phase = 1 - state.phase
                store(state)
            }
            var waiting = Waiting(isRetiring: !state.retired.isEmpty)
            for retired in state.retired where retired.owner == owner { waiting.entries.formUnion(retired.entries) }
            return (waiting, freed)
        }
        _ = freed
        return waiting
    }

    /// Removes what `owner` installed, if it is still installed: calls get the original from now on.
    func withdraw(owner: Int) {
        let freed = ownership.withLock { state in
            guard state.current != nil, state.owner == owner else { return [Retired]() }
            return install(nil, entries: [], owner: owner, in: &state)
        }
        _ = freed
    }

    /// Turns call counting on or off, keeping the box and phase.
    func setCounting(_ on: Bool) {
        ownership.withLock { state in
            guard state.counting != on else { return }
            state.counting = on
            store(state)
        }
    }

    /// The installed box, for tests.
    var installedBox: AnyObject? { ownership.withLock { $0.current } }

    /// Retires the current box, installs `box` and returns the retired boxes that could be freed.
    private func install(
        _ box: AnyObject?, entries: Set<EntryID>, owner: Int, in state: inout Ownership
    ) -> [Retired] {
        var freed = reclaimDrained(&state)
        if let old = state.current {
            state.retired.append(Retired(box: old, phase: state.phase, owner: state.owner, entries: state.entries))
        }
        state.current = box
        state.owner = owner
        state.entries = entries
        if box != nil { state.phase = freePhase(state) }
        store(state)
        freed += reclaimDrained(&state)
        return freed
    }

    /// A phase for a new box: one no retired box waits on, else the one the newest retired box is not in.
    private func freePhase(_ state: Ownership) -> Int {
        let busy = state.retired.map(\.phase)
        let preferred = 1 - state.phase
        if !busy.contains(preferred) { return preferred }
        if !busy.contains(state.phase) { return state.phase }
        return 1 - (state.retired.last?.phase ?? state.phase)
    }

    /// Stores the word for `state`.
    private func store(_ state: Ownership) {
        var new: UInt = state.counting ? SeamCore.countingBit : 0
        if let box = state.current {
            let address = UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
            precondition(address & ~SeamCore.addressMask == 0, "behaviour boxes must be 16-byte aligned")
            new |= address | (UInt(state.phase) << 1)
        }
        word.store(new, ordering: .sequentiallyConsistent)
    }

    /// Takes the retired boxes whose phase has drained out of `state`; the caller releases them.
    private func reclaimDrained(_ state: inout Ownership) -> [Retired] {
        guard !state.retired.isEmpty else { return [] }
        var drained = [false, false]
        for phase in Set(state.retired.map(\.phase)) { drained[phase] = isDrained(phase: phase) }
        let freed = state.retired.filter { drained[$0.phase] }
        state.retired.removeAll { drained[$0.phase] }
        return freed
    }
}
