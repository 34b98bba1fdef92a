extension Registry.State {
    /// Checks, compiles and applies `changes` as a unit, under the registry's lock: if any is refused, none is
    /// applied. Returns the handle and the cores whose listeners to notify once the lock is released.
    ///
    /// With `replacingSource`, a layer `source` applied earlier on the same seam is replaced rather than
    /// stacked on: repeated applies from one place (console nudges, repeated `PUT`s) keep one layer each.
    mutating func apply(
        _ changes: [Change], source: String, time: Duration, sessionSeed: UInt64,
        reporter: @escaping @Sendable (SeamID, String) -> Void, replacingSource: Bool = false,
        ttls: [Duration?] = []
    ) throws(MischiefError) -> (Applied, [SeamCore]) {
        if let reason = KillSwitch.reason {
            let error = MischiefError.disabled(reason: reason)
            log(time, .refused, changes.first?.seamID, source, error.description)
            throw error
        }
        // Check and compile everything before touching any seam.
        var layers: [(SeamID, Registry.Layer)] = []
        /// The seed each change was given, for a recording (nil: derived from the session seed).
        var givenSeeds: [UInt64?] = []
        let group = nextGroup
        for (offset, change) in changes.enumerated() {
            let id = change.seamID
            guard let record = records[id] else {
                log(time, .refused, id, source, MischiefError.unknownSeam(id).description)
                throw .unknownSeam(id)
            }
            guard record.seam === change.seam else { throw .foreignSeam(id) }
            let context = LayerContext(
                sessionSeed: change.seed ?? sessionSeed, label: change.behaviourText, allowsCrash: allowsCrash,
                reporter: reporter)
            let run: any Sendable
            do throws(MischiefError) {
                run = try record.seam.compile(change.behaviour, context: context)
            } catch {
                log(time, .refused, id, source, error.description)
                throw error
            }
            var layer = Registry.Layer(
                id: LayerID(rawValue: nextLayer + offset), run: run, description: change.behaviourText,
                spec: change.spec, source: source, group: group, appliedAt: time, seeds: context.seeds,
                pauses: context.pauses)
            layer.delays = context.delays
            layer.givenSeed = change.seed
            if offset < ttls.count { layer.setTTL(ttls[offset], at: time) }
            layers.append((id, layer))
            givenSeeds.append(change.seed)
        }
        nextLayer += changes.count
        nextGroup += 1
        var touched: [SeamID] = []
        var replaced: Set<LayerID> = []
        for (id, layer) in layers {
            if replacingSource { replaced.formUnion(replaceLayers(of: id, by: layer, time: time)) }
            records[id]!.layers.append(layer)
            deadlines[layer.id] = layer.expiresAt
            setHistory(layer.snapshot(seam: id, status: .active))
            if !touched.contains(id) { touched.append(id) }
        }
        // Installed before the events are logged, so that each `applied` names the call the change came after: the
        // last one the replaced box took (see CallNumbering).
        for id in touched { reinstall(id) }
        for ((id, layer), given) in zip(layers, givenSeeds) {
            let seeds = layer.seeds.isEmpty ? "" : " (seed \(layer.seeds.map(String.init).joined(separator: ", ")))"
            let ttl = layer.ttl.map { " (ttl \(SpecDuration($0)))" } ?? ""
            log(
                time, .applied, id, source, "\(layer.description)\(seeds)\(ttl)",
                detail: RecordingDetail(
                    layer: layer.id, spec: layer.spec, seed: given, seeds: layer.seeds, ttl: layer.ttl))
        }
        if !replaced.isEmpty { settle(time: time, quietFor: replaced) }
        return (Applied(layers: layers.map(\.1.id)), touched.map { records[$0]!.seam.core })
    }

    /// Takes off seam `id` the layers `layer`'s source applied in earlier groups that `layer` replaces: on a
    /// replacing seam every one, on a merging seam (whose rules combine) only those with `layer`'s very spec, so
    /// that the same rule applied again is not doubled. Returns their ids.
    private mutating func replaceLayers(of id: SeamID, by layer: Registry.Layer, time: Duration) -> [LayerID] {
        let merges = records[id]!.seam.info.stacking == .merge
        func isReplaced(_ old: Registry.Layer) -> Bool {
            old.source == layer.source && old.group < layer.group && (!merges || old.spec == layer.spec)
        }
        let removed = records[id]!.layers.filter(isReplaced)
        guard !removed.isEmpty else { return [] }
        records[id]!.layers.removeAll(where: isReplaced)
        for old in removed {
            deadlines[old.id] = nil
            old.closePauses()
            setHistory(old.snapshot(seam: id, status: .reverting, revertedAt: time))
        }
        return removed.map(\.id)
    }

    /// Reverts `layers` under the registry's lock; returns the cores whose listeners to notify.
    /// Touches only the seams the layers are on. `reasons` says why, for the events of the layers it names.
    ///
    /// Each `reverted` event names what was reverted and who asked: its source is `source` (the layer's own
    /// source when nil), and its message the layer's behaviour text, then `(applied by …)` when someone other than
    /// the layer's source asked, then the reason: `shift(1d) (applied by profile Tokyo)` from `console`.
    mutating func revert(
        layers: Set<LayerID>, time: Duration, reasons: [LayerID: String] = [:], source: String? = nil
    ) -> [SeamCore] {
        var seams: Set<SeamID> = []
        for layer in layers {
            if let snapshot = history[layer], snapshot.status == .active { seams.insert(snapshot.seam) }
        }
        var touched: [SeamCore] = []
        for id in seams.sorted(by: { records[$0]!.index < records[$1]!.index }) {
            let removed = records[id]!.layers.filter { layers.contains($0.id) }
            guard !removed.isEmpty else { continue }
            records[id]!.layers.removeAll { layers.contains($0.id) }
            reinstall(id)
            touched.append(records[id]!.seam.core)
            for layer in removed {
                // Held calls go on now (into the behaviour they were held in, which the core keeps until they
                // return); a call still on its way into the pause is not held.
                layer.closePauses()
                deadlines[layer.id] = nil
                setHistory(layer.snapshot(seam: id, status: .reverting, revertedAt: time))
                let reason = reasons[layer.id].map { ": \($0)" } ?? ""
                let asker = source ?? layer.source
                let owner = asker == layer.source ? "" : " (applied by \(layer.source))"
                // A long behaviour text is cut, not who applied it or why.
                let suffix = owner + reason
                let room = max(64, Event.maximumMessageLength - suffix.utf8.count)
                log(
                    time, .reverted, id, asker, Event.bounded(layer.description, to: room) + suffix,
                    detail: RecordingDetail(layer: layer.id))
            }
        }
        // Layers with nothing in flight are reverted at once; say "completed" only for those that waited.
        settle(time: time, quietFor: layers)
        for layer in layers where history[layer]?.status == .reverting {
            let snapshot = history[layer]!
            let inFlight = records[snapshot.seam]!.seam.core.counters().inFlight
            log(
                time, .report, snapshot.seam, snapshot.source,
                "\(snapshot.behaviourText): reverting, \(inFlight) call\(inFlight == 1 ? "" : "s") still inside it")
        }
        return touched
    }
}
