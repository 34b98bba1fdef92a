import Synchronization

extension Registry {
    /// How a registry counts its changes, so that a poller can ask for what changed since it last looked.
    ///
    /// Every change a console shows takes the next generation: the registry's counter goes up by one and the
    /// seam concerned records it (apply, revert, replace, a revert completing, a layer pruned, registration,
    /// counters that moved), as do events, the target's view and the profiles' status. `touched` lists seams in
    /// the order they were last counted, so "what changed since N" reads only the seams changed since N.
    ///
    /// Calls are not counted as they happen: a call adds to its seam's sharded counters and nothing else (a
    /// registry-wide counter would be one contended cache line on every call). A read (``snapshot()``,
    /// ``delta(since:eventsAfter:)``) compares each seam's counters with the values it last saw and counts the
    /// seams whose counters moved. While nobody observes, only seams carrying a behaviour or waiting for a
    /// replaced one can move, and only those are read; while counting is on, every seam's counters are.
    struct Generations {
        /// Starts at 1: 0 asks for everything, so a registry where nothing has happened yet must be as of another
        /// generation, or a poller that has everything would be sent everything again on every look.
        private(set) var current: UInt64 = 1
        /// Seam ids in the order they were counted, each with the generation it was counted at (a seam counted
        /// again appears again; the older mention is stale). Compacted when stale mentions dominate.
        private(set) var touched: [(generation: UInt64, seam: SeamID)] = []
        /// Seams unregistered, with the generation they went at.
        var removed: [SeamID: UInt64] = [:]
        private(set) var profiles: UInt64 = 0
        private(set) var view: UInt64 = 0
        private(set) var guards: UInt64 = 0
        private(set) var scopes: UInt64 = 0
        /// Told of every change but a read finding that counters moved (see ``Registry/changeSignals()``).
        var wakers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextWaker = 0

        /// The next generation; `wakes`: tell the wakers (a reader that found counters moved has them already).
        mutating func next(wakes: Bool = true) -> UInt64 {
            current += 1
            if wakes { for waker in wakers.values { waker.yield() } }
            return current
        }

        mutating func seamChanged(_ id: SeamID, wakes: Bool = true) -> UInt64 {
            let generation = next(wakes: wakes)
            touched.append((generation, id))
            return generation
        }

        mutating func profilesChanged() { profiles = next() }
        mutating func viewChanged() { view = next() }
        mutating func guardsChanged() { guards = next() }
        /// The scope table changed; `wakes` as for ``next(wakes:)`` (a reader that found counts moved has them).
        mutating func scopesChanged(wakes: Bool = true) { scopes = next(wakes: wakes) }

        /// Keeps one mention per seam once stale ones outnumber the seams.
        mutating func compact(live: [SeamID: UInt64]) {
            guard touched.count > 2 * live.count + 64 else { return }
            touched = live.map { (generation: $0.value, seam: $0.key) }.sorted { $0.generation < $1.generation }
        }

        /// Mentions after `generation`, oldest first (stale ones included).
        func touched(since generation: UInt64) -> ArraySlice<(generation: UInt64, seam: SeamID)> {
            var low = touched.startIndex
            var high = touched.endIndex
            while low < high {
                let middle = (low + high) / 2
                if touched[middle].generation <= generation { low = middle + 1 } else { high = middle }
            }
            return touched[low...]
        }
    }
}

extension SeamCore {
    /// Whether no call has counted on this core yet, nor outside Swift: then its counters are all zero.
    var hasNoCounts: Bool {
        usedShards.load(ordering: .acquiring) == 0 && !countsExternally.load(ordering: .acquiring)
    }
}

extension Registry.SeamRecord {
    /// Takes the seam's live counters; returns whether they moved since the last read (the caller counts that as
    /// a change). A call counted since then makes `time` the seam's last call.
    mutating func readCounters(time: Duration) -> Bool {
        // A seam no call has counted on yet, with nothing applied or held, still reads zero: two loads of its core and
        // no copy of its counters. With a console observing a registry of many seams, that is most of them at every
        // read (a snapshot of 20,000 took 295 instructions a seam here, most of them in seams nobody called).
        if layers.isEmpty, heldCalls.isEmpty, counters == SeamCounters(), core.hasNoCounts { return false }
        let live = liveCounters()
        // A held call replaced by another leaves the count as it was: the inputs tell them apart.
        let held = live.held > 0 || !heldCalls.isEmpty ? liveHeldCalls() : heldCalls
        guard live != counters || held != heldCalls else { return false }
        heldCalls = held
        if live.calls != counters.calls { lastCalled = time }
        counters = live
        return true
    }
}

extension Registry.State {
    /// Counts a change to seam `id`: its snapshot is rebuilt at the next read. `wakes`: tell those waiting for
    /// changes (not when a read found its counters moved: that reader takes them).
    mutating func bump(_ id: SeamID, wakes: Bool = true) {
        // Found once and changed in place: `records[id]!.field = …` hashes the id for each write.
        guard let position = records.index(forKey: id) else { return }
        let generation = generations.seamChanged(id, wakes: wakes)
        records.values[position].generation = generation
        records.values[position].cached = nil
        if seamSnapshots != nil {
            if staleSnapshots.count < records.count {
                staleSnapshots.append((records.values[position].slot, id))
            } else {
                forgetSeamSnapshots()  // rebuilding them all is cheaper than looking each one up
            }
        }
        if generations.touched.count > 2 * records.count + 64 {
            generations.compact(live: records.mapValues(\.generation))
        }
    }

    /// Reads the counters of the seams whose counters can move and counts the seams whose counters did.
    mutating func readCounters(time: Duration) {
        if isCounting {
            // Every seam: walked in the dictionary's storage, so no seam id is hashed or compared except those that
            // moved.
            var moved: [(index: Int, id: SeamID)] = []
            var position = records.values.startIndex
            while position != records.values.endIndex {
                if records.values[position].readCounters(time: time) {
                    moved.append((records.values[position].index, records.keys[position]))
                }
                records.values.formIndex(after: &position)
            }
            for seam in moved.sorted(by: { $0.index < $1.index }) { bump(seam.id, wakes: false) }
        } else {
            for id in retiring { readCounters(of: id, time: time) }
            for layer in history.values where layer.status == .active { readCounters(of: layer.seam, time: time) }
            if !guards.isEmpty { for id in guardedSeams { readCounters(of: id, time: time) } }
        }
    }

    /// Reads the counters of seam `id` and counts a change when they moved.
    mutating func readCounters(of id: SeamID, time: Duration) {
        if records[id]?.readCounters(time: time) == true { bump(id, wakes: false) }
    }

    /// The snapshot of seam `id` as of its generation, built once per generation. Finds the record once (its id is
    /// hashed once, not for each read and write of it) and reads it in place, without copying it: a snapshot of
    /// every seam does this for each.
    mutating func seamSnapshot(_ id: SeamID) -> SeamSnapshot {
        let position = records.index(forKey: id)!
        return records.values[position].cachedSnapshot(history: history.layers)
    }

    /// Every seam's snapshot, in registration order (``order``). Kept between reads (``seamSnapshots``), so a read
    /// rebuilds only the seams counted since the last one, in place when nobody holds the snapshot it gave out then:
    /// with 100,000 seams, copying out and freeing every seam's snapshot on every read was most of a snapshot's time.
    mutating func allSeamSnapshots() -> [SeamSnapshot] {
        guard seamSnapshots != nil else { return rebuildSeamSnapshots() }
        let stale = staleSnapshots
        staleSnapshots.removeAll(keepingCapacity: true)
        for (slot, id) in stale {
            guard let position = records.index(forKey: id) else { continue }
            seamSnapshots![slot] = records.values[position].cachedSnapshot(history: history.layers)
        }
        return seamSnapshots!
    }

    /// Drops the snapshots kept between reads: the next read builds them all.
    mutating func forgetSeamSnapshots() {
        seamSnapshots = nil
        staleSnapshots = []
    }

    /// Builds every seam's snapshot and keeps them (``seamSnapshots``). Walks the records where the dictionary keeps
    /// them and puts them in order by their registration index, so no id is hashed: with 100,000 seams, finding each
    /// by its id was a third of a snapshot's instructions.
    /// Registration indices are below ``nextIndex``, so unless seams came and went many times the records are put in
    /// order by placing each at its index, with no sort. A record's own cached snapshot is used when it has one, and
    /// none is made for it here: the kept list serves the next read.
    private mutating func rebuildSeamSnapshots() -> [SeamSnapshot] {
        typealias Position = Dictionary<SeamID, Registry.SeamRecord>.Index
        var positions: [(index: Int, position: Position)] = []
        positions.reserveCapacity(records.count)
        var position = records.values.startIndex
        while position != records.values.endIndex {
            positions.append((records.values[position].index, position))
            records.values.formIndex(after: &position)
        }
        var ordered: [Position] = []
        ordered.reserveCapacity(positions.count)
        if nextIndex <= 2 * records.count + 64 {
            var placed = [Position?](repeating: nil, count: nextIndex)
            for entry in positions { placed[entry.index] = entry.position }
            for case let position? in placed { ordered.append(position) }
        } else {
            ordered = positions.sorted { $0.index < $1.index }.map(\.position)
        }
        var seams: [SeamSnapshot] = []
        seams.reserveCapacity(ordered.count)
        for position in ordered {
            records.values[position].slot = seams.count
            seams.append(records.values[position].currentSnapshot(history: history.layers))
        }
        seamSnapshots = seams
        staleSnapshots = []
        return seams
    }

    /// The seams counted after `generation`, in registration order.
    func seams(changedSince generation: UInt64) -> [SeamID] {
        var seen: Set<SeamID> = []
        var changed: [SeamID] = []
        for mention in generations.touched(since: generation) {
            guard let record = records[mention.seam], record.generation == mention.generation else { continue }
            if seen.insert(mention.seam).inserted { changed.append(mention.seam) }
        }
        return changed.sorted { records[$0]!.index < records[$1]!.index }
    }
}
