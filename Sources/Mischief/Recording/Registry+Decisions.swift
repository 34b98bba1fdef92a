/// A replay that compares the decisions its calls get with the recorded ones: the seams it watches, and the
/// comparison, behind a lock of its own that is taken last (under the registry's lock, or alone), never before
/// another.
final class DecisionListener: Sendable {
    let seams: Set<SeamID>
    let check: Locked<DecisionCheck>

    init(_ check: DecisionCheck) {
        seams = Set(check.expected.keys)
        self.check = Locked(check)
    }

    /// Takes decisions read from the tapes, or the seams' call counts once a round; wakes the comparison once every
    /// seam's calls are in. Called under the registry's lock.
    func take(_ taken: [TakenDecision], _ calls: [SeamID: Int]) {
        let ready = check.withLock { check -> [CheckedContinuation<Void, Never>] in
            check.take(taken, calls: calls)
            guard check.isComplete else { return [] }
            defer { check.waiting = [] }
            return check.waiting
        }
        for continuation in ready { continuation.resume() }
    }

    /// The replay has finished: nobody waits for the comparison any more.
    func wake() {
        let waiting = check.withLock { check in
            check.ended = true
            defer { check.waiting = [] }
            return check.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Waits until every seam's calls are in, or the replay has finished.
    func waitUntilComplete() async {
        await withCheckedContinuation { continuation in
            let ready = check.withLock { check in
                if check.ended || check.isComplete { return true }
                check.waiting.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

extension Registry {
    /// How often the housekeeping thread reads the tapes while decisions are noted.
    static let decisionDrainInterval = Duration.milliseconds(100)

    /// Reads every tape now: the decisions made so far reach the recordings and replays, and each replay learns
    /// how many calls its seams have made.
    func drainDecisions() {
        state.withLock { state in
            state.drainDecisions()
            state.tellListenersTheCalls()
            state.updateTaps()
        }
    }

    /// Starts noting decisions for `listener`'s seams (a replay) and arms `triggers`' seams, in one step; the
    /// housekeeping thread reads the tapes every 100 ms. Returns where each seam's call numbers start: the replay's
    /// numbers, of decisions and of steps, count from there.
    func listen(_ listener: DecisionListener?, arming triggers: [SeamID: ReplayTrigger]) -> [SeamID: Int] {
        let bases = state.withLock { state in
            if let listener {
                state.decisionListeners.append(listener)
                state.observers += 1  // the replay numbers calls as the recording did: every call, chaos or not
                state.updateCounting()
            }
            for (seam, trigger) in triggers where state.records[seam] != nil {
                state.replayTriggers[seam] = trigger
            }
            state.updateTaps(cuttingAll: true)
            let bases = state.numberingBases
            for (seam, trigger) in triggers { trigger.begin(at: bases[seam] ?? 0) }
            return bases
        }
        if listener != nil { expiry?.wake() }
        return bases
    }

    /// Stops giving decisions to `listener`; its seams go back to their plain boxes unless a recording wants them.
    func stopListening(_ listener: DecisionListener) {
        state.withLock { state in
            guard state.decisionListeners.contains(where: { $0 === listener }) else { return }
            state.drainDecisions()
            state.decisionListeners.removeAll { $0 === listener }
            state.observers -= 1
            state.updateCounting()
            state.updateTaps()
        }
    }

    /// The housekeeping thread's part: drain the tapes; how long until the next drain (nil: nothing is tapped, and no
    /// replay listens: a recording of a target with nothing applied, as an idle console's, wakes nobody; the tape
    /// that a change makes wakes the thread).
    func decisionRound() -> Duration? {
        state.withLock { state in
            guard !state.tapes.isEmpty || !state.retiredTapes.isEmpty || !state.decisionListeners.isEmpty else {
                return nil
            }
            state.drainDecisions()
            state.tellListenersTheCalls()
            state.updateTaps()
            return Registry.decisionDrainInterval
        }
    }

}

extension Registry.State {
    /// Whether a recording or a replay wants the decisions of any seam.
    var wantsAnyDecisions: Bool {
        recorders.contains(where: \.wantsDecisions) || !decisionListeners.isEmpty
    }

    /// Whether a recording or a replay wants the decisions of `seam`'s calls.
    func wantsDecisions(of seam: SeamID) -> Bool {
        recorders.contains(where: \.wantsDecisions) || decisionListeners.contains { $0.seams.contains(seam) }
    }

    /// Keeps a replaced tape until its calls have left and it is read to the end.
    mutating func retire(_ tape: any DecisionSource) {
        drain(tape)
        retiredTapes.append(tape)
    }

    /// Reads every tape, current and retired, and drops the retired ones that are done.
    mutating func drainDecisions() {
        for tape in tapes.values { drain(tape) }
        guard !retiredTapes.isEmpty else { return }
        for tape in retiredTapes { drain(tape) }
        retiredTapes.removeAll { tape in
            tape.isDrained && !(records[tape.seam]?.isRetiring ?? false) && !retiring.contains(tape.seam)
        }
    }

    private func drain(_ tape: any DecisionSource) {
        var taken: [TakenDecision] = []
        tape.drain { taken.append($0) }
        guard !taken.isEmpty else { return }
        for recorder in recorders { recorder.take(taken) }
        for listener in decisionListeners where listener.seams.contains(tape.seam) { listener.take(taken, [:]) }
    }

    /// Tells each replay how many calls its seams have made, decisions or not: once a round, after the drain.
    func tellListenersTheCalls() {
        for listener in decisionListeners {
            var calls: [SeamID: Int] = [:]
            for seam in listener.seams {
                if let number = callNumber(of: seam) { calls[seam] = number }
            }
            listener.take([], calls)
        }
    }

    /// Puts a numbered box on every seam while calls are numbered, with a tape where decisions are wanted, and a
    /// plain one back where they no longer are. `cuttingAll` reinstalls every numbered seam, so that each one's
    /// numbering has a base exactly here (a recording or a replay starting: its call numbers start there).
    mutating func updateTaps(cuttingAll: Bool = false) {
        let numbering = isNumbering
        for id in order {
            guard let record = records[id] else { continue }
            if (numberings[id] != nil) != numbering || (numbering && cuttingAll)
                || (!record.layers.isEmpty && wantsDecisions(of: id) != (tapes[id] != nil))
            {
                reinstall(id)
            }
        }
    }

    /// Where each seam's numbering starts now: the base of the box it was last given (exact after a reinstall).
    var numberingBases: [SeamID: Int] { numberings.mapValues(\.base) }
}
