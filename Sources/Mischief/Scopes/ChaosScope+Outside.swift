import Synchronization

// What a scope's table shows (``ScopeSnapshot``), and the changes made to a scope from outside its task: a console,
// the CLI or the control API changing one running test's world.

extension ChaosScope.State {
    /// Marks the outside layers among `ids` as reverted, after the calls their seams have had when `numbered` (a
    /// revert someone made); the scope's end (``ChaosScope/revertAll()``) is none, and says no call.
    mutating func retire(_ ids: Set<Int>, numbered: Bool = true) {
        guard !ids.isEmpty else { return }
        for index in outside.indices where ids.contains(outside[index].id) && outside[index].isActive {
            outside[index].isActive = false
            if numbered { outside[index].revertedCall = entered.map { $0[outside[index].seam] ?? 0 } }
        }
    }
}

extension ChaosScope {
    /// Starts numbering the calls that come into the scope, each seam's from 1, as a recording numbers a registry's:
    /// a layer applied from outside from now on says after which call it came (``ScopeLayer/call``), so
    /// `mischief export --scope` makes it again there. `Registry.publish(_:)` of the scope starts it.
    public func startNumbering() {
        state.withLock { state in
            if state.entered == nil { state.entered = [:] }
        }
        numbering.store(true, ordering: .releasing)
    }

    /// Counts a call of `seam` coming into this scope and each numbering scope around it, before any layer decides
    /// it; one load per scope when none numbers.
    @usableFromInline
    func enter(_ seam: AnySeam) {
        var next: ChaosScope? = self
        while let current = next {
            if current.numbering.load(ordering: .acquiring) {
                current.state.withLock { state in state.entered?[seam.info.id, default: 0] += 1 }
            }
            next = current.parent
        }
    }
}

extension ChaosScope {
    /// The scope's layers still applied, oldest first: its own (no source) and those applied from outside.
    public var layers: [ScopeLayer] {
        state.withLock { state in state.seams.values.flatMap { $0.layers.map(\.shown) } }.sorted { $0.id < $1.id }
    }

    /// Every layer applied from outside the scope (``apply(spec:to:source:seed:)``), reverted ones too, oldest first:
    /// what a test that fails says it had.
    public var outsideLayers: [ScopeLayer] { state.withLock { $0.outside } }

    /// Applies `spec` to the seam `id` in this scope only, on behalf of `source` (a console's session, the CLI):
    /// only the scope's task tree sees it, and ``revert(source:seam:)`` takes it away again.
    ///
    /// - Parameters:
    ///   - spec: The behaviour as a spec.
    ///   - id: A seam of the scope's registry.
    ///   - source: Who applies it, as events and the scope's table name it.
    ///   - seed: The seed its random parts derive theirs from; the scope's seed when nil.
    /// - Returns: The layer, as the scope's table shows it.
    /// - Throws: ``MischiefError`` for an unknown seam, a spec that does not fit it, or chaos switched off.
    @discardableResult
    public func apply(spec: String, to id: SeamID, source: String, seed: UInt64? = nil) throws(MischiefError)
        -> ScopeLayer
    {
        let change = try registry.change(spec: spec, for: id, seed: seed)
        return try add([change], source: source)[0]
    }

    /// Reverts the layers `source` applied from outside (every outside layer when nil; only those on `seam` when
    /// given); returns how many. The scope's own layers stay. Calls their pauses hold go on at once.
    @discardableResult
    public func revert(source: String?, seam: SeamID? = nil) -> Int {
        func goes(_ layer: ScopeLayer) -> Bool { layer.source != nil && (source == nil || layer.source == source) }
        let (count, sites) = state.withLock { state -> (Int, [PauseSite]) in
            var count = 0
            var sites: [PauseSite] = []
            var retired: Set<Int> = []
            for key in Array(state.seams.keys) {
                var entry = state.seams[key]!
                guard seam == nil || entry.seam.info.id == seam else { continue }
                let gone = entry.layers.filter { goes($0.shown) }
                guard !gone.isEmpty else { continue }
                let goneSites = Set(gone.flatMap(\.sites).map(ObjectIdentifier.init))
                entry.layers.removeAll { goes($0.shown) }
                entry.pauses.removeAll { goneSites.contains(ObjectIdentifier($0)) }
                entry.delays.removeAll { goneSites.contains(ObjectIdentifier($0)) }
                count += gone.count
                sites += gone.flatMap(\.sites)
                retired.formUnion(gone.map(\.shown.id))
                if entry.layers.isEmpty {
                    state.seams[key] = nil
                } else {
                    entry.rebuild()
                    state.seams[key] = entry
                }
            }
            state.retire(retired)
            return (count, sites)
        }
        for site in sites { site.close() }
        return count
    }

    /// Releases the calls the scope's pauses on the seam `id` hold (every seam's when nil); returns how many.
    @discardableResult
    public func release(seam id: SeamID?) -> Int {
        release(seam: id, answer: nil)
    }

    /// Ends the held calls on the seam `id` (every seam's when nil) with a compiled `answer`, or unchanged when nil.
    func release(seam id: SeamID?, answer: (any AnyObject & Sendable)?) -> Int {
        let sites = state.withLock { state in
            state.seams.values.filter { id == nil || $0.seam.info.id == id }.flatMap(\.pauses)
        }
        return sites.reduce(0) { $0 + $1.release(answer: answer) }
    }

    /// Reverts the layers applied from outside that pause calls of the seam `id` (a breakpoint told to let the rest
    /// run); returns how many.
    func revertOutsidePauses(seam id: SeamID) -> Int {
        let sources = Set(layers.filter { $0.seam == id && $0.hasPause }.compactMap(\.source))
        return sources.reduce(0) { $0 + revert(source: $1, seam: id) }
    }

    /// Each seam called in the scope with the scope's own counts, in the order first called, and the calls its
    /// pauses hold now (a seam with held calls and none returned yet is listed too).
    public var seamCounts: [ScopeSeamCounts] {
        let (calls, held) = state.withLock { state in
            (
                state.calls,
                state.seams.values.compactMap { entry -> (SeamID, [String])? in
                    let held = entry.pauses.flatMap(\.heldInputs)
                    return held.isEmpty ? nil : (entry.seam.info.id, held)
                }
            )
        }
        var order: [SeamID] = []
        var counts: [SeamID: ScopeSeamCounts] = [:]
        for call in calls {
            if counts[call.seam] == nil {
                order.append(call.seam)
                counts[call.seam] = ScopeSeamCounts(seam: call.seam)
            }
            counts[call.seam]!.calls += 1
            if call.servedBy != .original { counts[call.seam]!.chaosCalls += 1 }
            if case .threw = call.outcome { counts[call.seam]!.errors += 1 }
        }
        for (seam, inputs) in held {
            if counts[seam] == nil {
                order.append(seam)
                counts[seam] = ScopeSeamCounts(seam: seam)
            }
            counts[seam]!.held = inputs.count
            counts[seam]!.heldCalls = inputs.map(HeldCall.init(input:))
        }
        return order.map { counts[$0]! }
    }

    /// How many calls the scope has seen and holds: what changes when its counts do.
    var countsMark: Int {
        state.withLock { state in
            state.calls.count &* 31 &+ state.seams.values.reduce(0) { $0 + $1.pauses.reduce(0) { $0 + $1.heldCount } }
        }
    }
}
