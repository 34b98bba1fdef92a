extension Registry {
    /// Releases the calls held by the pauses applied to `seam` (see ``Behaviour/pause(_:max:)`` and spec
    /// `pause`); they go on at once. Calls held on the same gate for another seam stay held.
    ///
    /// - Returns: How many calls were released.
    /// - Throws: ``MischiefError/unknownSeam(_:)`` when no such seam is registered.
    @discardableResult
    public func release(_ seam: SeamID) throws(MischiefError) -> Int {
        let sites = try state.withLock { (state) throws(MischiefError) -> [PauseSite] in
            guard let record = state.records[seam] else { throw .unknownSeam(seam) }
            return record.layers.flatMap(\.pauses)
        }
        let released = sites.reduce(0) { $0 + $1.release() }
        if released > 0 { report(seam: seam, message: "released \(held(released))", kind: .report, source: nil) }
        return released
    }

    /// Ends the calls held on `seam` as a breakpoint does: each goes on unchanged (`answer` nil), or returns or
    /// throws what the spec `answer` gives, built with the seam's own actions and types (`return({"name": "Ann"})`,
    /// `throw("offline")`, a city, a date: whatever the seam takes). Then the next call is held again, or, with
    /// `holdNext` false, the pause is reverted and the rest run.
    ///
    /// An answer that does not fire (`50%return(1)` on a call it passes over) lets the call go on as a release does.
    /// Calls held on the same gate for another seam stay held. The held calls and their inputs are in
    /// ``SeamSnapshot/heldCalls``; the pause's maximum still ends a hold nobody answers (the event log says so).
    ///
    /// - Parameters:
    ///   - seam: The seam whose held calls to end.
    ///   - answer: The spec each call returns (or throws) instead of going on; nil releases them unchanged.
    ///   - holdNext: Whether the pause stays and holds the next call; false reverts it.
    ///   - source: Who asks, for the events.
    /// - Returns: How many calls were ended.
    /// - Throws: ``MischiefError/unknownSeam(_:)``, ``MischiefError/invalidSpec(_:_:)`` when `answer` does not
    ///   parse or fit the seam, and ``MischiefError/unsupported(_:_:)`` when it would hold or wait itself. Nothing is
    ///   released when it throws.
    @discardableResult
    public func release(
        _ seam: SeamID, answer: String?, holdNext: Bool = true, source: String? = nil
    ) throws(MischiefError) -> Int {
        var box: (any AnyObject & Sendable)?
        var canonical: String?
        if let answer { (box, canonical) = try answerBox(answer, for: seam) }
        let (sites, pausing) = try state.withLock {
            (state) throws(MischiefError) -> ([PauseSite], Set<LayerID>) in
            guard let record = state.records[seam] else { throw .unknownSeam(seam) }
            let pausing = record.layers.filter { !$0.pauses.isEmpty }
            return (pausing.flatMap(\.pauses), Set(pausing.map(\.id)))
        }
        let released = sites.reduce(0) { $0 + $1.release(answer: box) }
        if released > 0 {
            let how = canonical.map { " answering \($0)" } ?? ""
            report(seam: seam, message: "released \(held(released))\(how)", kind: .report, source: source)
        }
        if !holdNext { revert(layers: pausing, source: source) }
        return released
    }

    /// The compiled answer `answer` gives a held call of `seam` (a SyncBox or AsyncBox: a class, as the held call
    /// expects), and its canonical spec.
    ///
    /// - Throws: ``MischiefError/invalidSpec(_:_:)`` when it does not parse or fit, ``MischiefError/unsupported(_:_:)``
    ///   when it would hold or wait itself.
    func answerBox(_ answer: String, for seam: SeamID) throws(MischiefError) -> ((any AnyObject & Sendable)?, String?) {
        let change = try change(spec: answer, for: seam)
        let context = LayerContext(sessionSeed: sessionSeed, label: change.behaviourText, reporter: reporter)
        let run = try change.seam.compile(change.behaviour, context: context)
        // An action that waits outside the behaviour (system.net's `latency`) is named by its signature.
        let waiting = Set(change.seam.actionSignatures.filter(\.waits).map(\.name))
        let terms = (try? Spec(parsing: answer))?.alternatives.flatMap(\.terms) ?? []
        guard context.pauses.isEmpty, context.delays.isEmpty,
            !terms.contains(where: { waiting.contains($0.action) })
        else {
            throw .unsupported(seam, "an answer to a held call cannot pause or wait itself; give what it returns")
        }
        return ((run as! (any AnyObject & Sendable)), change.spec)
    }

    /// Waits, without polling, until the pause applied to `seam` holds `count` calls: for tests that apply
    /// `pause` as a spec and so have no ``PauseGate`` of their own.
    ///
    /// It watches the first pause of the newest change on the seam that has one (on a replacing seam, the one
    /// calls meet), as applied when it is called.
    ///
    /// - Throws: ``MischiefError/unknownSeam(_:)``, ``MischiefError/unsupported(_:_:)`` when no pause is
    ///   applied to the seam, or `CancellationError` when the waiting task is cancelled.
    public func waitUntilHeld(_ seam: SeamID, _ count: Int = 1) async throws {
        let site = try state.withLock { (state) throws(MischiefError) -> PauseSite in
            guard let record = state.records[seam] else { throw .unknownSeam(seam) }
            guard let site = record.layers.last(where: { !$0.pauses.isEmpty })?.pauses.first else {
                throw .unsupported(seam, "no pause is applied to it, so no call can be held")
            }
            return site
        }
        try await site.waitUntilHeld(count)
    }

    /// Releases every call held by a pause on any seam; returns how many.
    @discardableResult
    public func releaseAll() -> Int {
        let sites = state.withLock { state in
            state.order.flatMap { id in state.records[id]!.layers.flatMap(\.pauses).map { (id, $0) } }
        }
        var total = 0
        var bySeam: [SeamID: Int] = [:]
        for (id, site) in sites {
            let released = site.release()
            bySeam[id, default: 0] += released
            total += released
        }
        for (id, released) in bySeam.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where released > 0 {
            report(seam: id, message: "released \(held(released))", kind: .report, source: nil)
        }
        return total
    }

    private func held(_ count: Int) -> String { "\(count) held call\(count == 1 ? "" : "s")" }
}
