import Mischief

extension ConsoleData {
    /// What a controller sends a console that shows `earlier` (nil: nothing yet) to bring it to this data, as a
    /// target does: everything first (``ConsoleUpdate/reset(_:)``), then what changed since (``ConsoleUpdate/delta(_:)``:
    /// every seam listed, those gone removed, the profiles, the guards, the view, the test scopes when they changed and the
    /// events it has not seen), and
    /// the loss when this data's target is lost.
    ///
    /// For tests and benchmarks that hold pictures: a picture reaches the console by the one road, as deltas, and
    /// the console's one applier (``TargetState/applying(_:eventLimit:)``) brings its copy forward.
    package func updates(after earlier: ConsoleData?) -> [ConsoleUpdate] {
        // Another process (or none yet) starts again from everything, as a controller's reset does.
        let earlier = earlier.flatMap { earlier in
            earlier.target.pid == state.target.pid && earlier.target.uptime <= state.target.uptime ? earlier : nil
        }
        let since = earlier?.generation ?? 0
        let generation = max(since + 1, state.generation)
        let listed = Set(state.seams.map(\.id))
        let before = (earlier?.seams ?? []).map(\.id)
        // The applier keeps the seams it has in place and adds new ones at the end, as a registry registers them;
        // seams in another order are all removed and listed again, as a registry reports seams registered again.
        let known = Set(before)
        let added = state.seams.map(\.id).filter { !known.contains($0) }
        let moved = before.filter(listed.contains) + added != state.seams.map(\.id)
        let newest = earlier?.events.last?.id ?? 0
        let registryDelta = RegistryDelta(
            generation: generation, since: since, uptime: state.target.uptime, sessionSeed: state.target.sessionSeed,
            isCounting: true, seams: state.seams, removed: moved ? before : before.filter { !listed.contains($0) },
            profiles: state.profiles, guards: state.guards, events: state.events.filter { $0.id > newest },
            view: state.view, lastEventID: state.events.last?.id ?? 0,
            scopes: earlier?.state.scopes == state.scopes ? nil : state.scopes)
        let delta = StreamDelta(target: state.target, registry: registryDelta)
        var updates: [ConsoleUpdate] = [earlier == nil ? .reset(delta) : .delta(delta)]
        if case .lost(let reason) = connection { updates.append(.lost(reason)) }
        return updates
    }
}

extension ConsoleState {
    /// Feeds the console the deltas that bring what it shows to `data` (``ConsoleData/updates(after:)``), through
    /// ``Console/update(_:_:)`` as a controller's updates arrive.
    package mutating func show(_ data: ConsoleData) {
        for update in data.updates(after: self.data) { _ = Console.update(&self, .update(update)) }
    }
}
