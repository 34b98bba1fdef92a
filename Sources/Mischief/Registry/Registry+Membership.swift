extension Registry {
    /// Removes a seam from the registry: what is applied to it is reverted first, so calls get the original,
    /// and its layers leave the history. Consoles following ``delta(since:eventsAfter:)`` see it in
    /// ``RegistryDelta/removed``. Does nothing for an id that is not registered; the seam can be registered
    /// again.
    public func unregister(_ id: SeamID) {
        revert(seam: id)
        let time = now
        state.withLock { state in
            guard let record = state.records[id] else { return }
            record.seam.core.withdraw(owner: state.owner)
            for layer in record.keptLayers { state.removeHistory(layer) }
            state.records[id] = nil
            state.forgetSeamSnapshots()
            state.order.removeAll { $0 == id }
            state.retiring.remove(id)
            state.numberings[id] = nil
            state.generations.removed[id] = state.generations.next()
            state.log(time, .report, id, nil, "unregistered")
        }
    }
}

extension Registry {
    /// Says what seam `id` reaches now, in lines a console shows with the seam and `mischief list` prints under it
    /// (``SeamSnapshot/notes``): for a seam whose reach changes while the program runs, such as a system seam that
    /// covers the libraries loaded so far. Replaces the seam's notes and counts a change when they differ; does
    /// nothing for an id that is not registered.
    public func annotate(_ id: SeamID, notes: [String]) {
        state.withLock { state in
            guard state.records[id] != nil, state.records[id]!.notes != notes else { return }
            state.records[id]!.notes = notes
            state.bump(id)
        }
    }
}

extension Registry.State {
    /// Adds a seam that is not registered yet, and counts it as a change.
    mutating func add(_ seam: any RegisteredSeam, time: Duration) {
        let id = seam.info.id
        records[id] = Registry.SeamRecord(seam: seam, index: nextIndex)
        nextIndex += 1
        forgetSeamSnapshots()
        order.append(id)
        seam.core.setCounting(counts(id))
        if isNumbering { reinstall(id) }  // its calls are numbered from here, as a recording or replay counts them
        bump(id)
        log(time, .registered, id, nil, seam.info.title)
    }
}
