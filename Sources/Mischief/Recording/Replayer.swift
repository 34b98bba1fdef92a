import Synchronization

/// Counts a seam's calls during a replay and says when the next step's call has come.
///
/// A replay arms one on each seam it changes after a call number: the registry then wraps the seam's box (or
/// installs one where nothing is applied) so that each call enters ``enter(_:)`` with its number before the behaviour
/// runs. The call
/// that reaches a step's number makes the change itself, from inside the seam, before its own behaviour runs (with
/// the box it entered): the next call already finds the change. Nothing is added to a seam's path when no replay
/// runs, and a seam with no step left is disarmed.
final class ReplayTrigger: Sendable {
    /// The highest call number since the replay began that a call took (numbered as a recording numbers them).
    let calls = Atomic<Int>(0)
    /// The call number the next step waits for; `Int.max` while it waits for something else. No call takes a
    /// number above it until the step is made (see ``CallNumbering``).
    let due: Atomic<Int>
    /// The seam's call number when the replay began on it, set when the registry arms the seam.
    let startNumber = Atomic<Int>(0)
    private let reached: @Sendable () -> Void

    /// A trigger whose first step waits for call `due` (`Int.max`: for something else).
    init(due: Int = .max, reached: @escaping @Sendable () -> Void) {
        self.due = Atomic(due)
        self.reached = reached
    }

    /// Where the replay's numbers start in the seam's numbering.
    var start: Int { startNumber.load(ordering: .relaxed) }

    /// Starts the replay's numbers at the seam's call `number` (before the seam is armed).
    func begin(at number: Int) { startNumber.store(number, ordering: .relaxed) }

    /// Counts call `number` of the seam (not a peek) and makes the steps it reaches.
    func enter(_ number: Int) {
        let call = number &- start
        var seen = calls.load(ordering: .relaxed)
        while seen < call {
            let (exchanged, original) = calls.weakCompareExchange(
                expected: seen, desired: call, ordering: .sequentiallyConsistent)
            if exchanged { break }
            seen = original
        }
        if call >= due.load(ordering: .sequentiallyConsistent) { reached() }
    }
}

/// Runs one ``ReplaySchedule`` on a registry: see ``Registry/replay(_:options:)``.
final class Replayer: Sendable {
    struct State {
        /// Each seam's steps not made yet, in order.
        var queues: [SeamID: [ReplayStep]] = [:]
        /// Seams a step is being made on now (by one thread; the others leave it to that one).
        var busy: Set<SeamID> = []
        /// Steps made.
        var done: Set<Int> = []
        /// Steps made at a time whose time has come.
        var timeReached: Set<Int> = []
        /// The replayed layer of each recorded one.
        var layers: [Int: LayerID] = [:]
        var triggers: [SeamID: ReplayTrigger] = [:]
        var divergence: ReplayDivergence?
        var finished = false
        var waiters: [(before: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Those waiting for the end: the last step made and the decisions compared, a divergence, or the timeout.
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let schedule: ReplaySchedule
    let options: ReplayOptions
    weak let registry: Registry?
    /// The recorded decisions and the replay's, compared once the calls have come; nil when the recording has none
    /// (`Replayer+Decisions.swift`).
    let decisions: DecisionListener?
    let state = Locked(State())

    init(_ schedule: ReplaySchedule, options: ReplayOptions, registry: Registry) {
        self.schedule = schedule
        self.options = options
        self.registry = registry
        let check = DecisionCheck(schedule)
        decisions = check.isEmpty ? nil : DecisionListener(check)
    }

    var count: Int { schedule.steps.count }

    /// The seams the replay arms or taps: its steps' and its decisions'.
    var seams: Set<SeamID> { Set(schedule.steps.compactMap(\.seam)).union(schedule.decisions.map(\.seam)) }

    /// Whether it has ended, whichever way.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Checks every step that can be checked now (its seam is registered): the seam exists, its spec applies.
    func validate() -> ReplayDivergence? {
        guard let registry else { return nil }
        let registered = Set(registry.seams.map(\.id))
        for step in schedule.steps {
            if let problem = problem(with: step, registered: registered, registry: registry) { return problem }
        }
        return nil
    }

    private func problem(with step: ReplayStep, registered: Set<SeamID>, registry: Registry) -> ReplayDivergence? {
        switch step.action {
        case .advance:
            guard options.advance == nil else { return nil }
            return diverged(step, recorded: step.what, replayed: "this target cannot advance its time", matched: 0)
        case .revert, .setTTL:
            return nil
        case .apply:
            guard let seam = step.seam else { return nil }
            guard registered.contains(seam) else {
                if options.waitsForSeams { return nil }
                return diverged(step, recorded: "seam \(seam)", replayed: "no such seam is registered", matched: 0)
            }
            do throws(MischiefError) {
                _ = try registry.replayChange(step, sessionSeed: schedule.sessionSeed, fileAccess: options.fileAccess)
                return nil
            } catch {
                return diverged(
                    step, recorded: "spec \(step.spec ?? "")", replayed: "it no longer applies: \(error)", matched: 0)
            }
        }
    }

    func diverged(_ step: ReplayStep, recorded: String, replayed: String, matched: Int? = nil) -> ReplayDivergence {
        ReplayDivergence(
            step: step.number, steps: count, matched: matched ?? state.withLock { $0.done.count }, line: step.line,
            seam: step.seam, recorded: recorded, replayed: replayed)
    }

    /// Queues the steps and arms the seams they wait on; the registry's lock is not held.
    func start() {
        state.withLock { state in
            for step in schedule.steps { if let seam = step.seam { state.queues[seam, default: []].append(step) } }
            for (seam, steps) in state.queues where steps.contains(where: { $0.afterCall != nil }) {
                // No call takes a number past the first step's until it is made (see CallNumbering).
                state.triggers[seam] = ReplayTrigger(due: steps[0].afterCall ?? .max) { [weak self] in
                    self?.pump(seam)
                }
            }
        }
        guard let registry else { return }
        // Decisions and steps count calls from the same place: where the seams' numbers stand when they are armed.
        let triggers = state.withLock { $0.triggers }
        let bases = registry.listen(decisions, arming: triggers)
        decisions?.check.withLock { $0.base = bases }
        if options.resetsCounters { registry.resetCounters(source: "replay") }
        for seam in triggers.keys { pump(seam) }
    }

    /// Seams just registered (a replay from a target's start): check their steps and make those that are due.
    func registered(_ seams: [SeamID]) {
        guard let registry, !state.withLock({ $0.finished }) else { return }
        let mine = seams.filter { seam in state.withLock { $0.queues[seam] != nil } }
        let all = Set(registry.seams.map(\.id))
        for seam in mine {
            for step in state.withLock({ $0.queues[seam] ?? [] }) {
                if let problem = problem(with: step, registered: all, registry: registry) {
                    return finish(problem.with(matched: state.withLock { $0.done.count }))
                }
            }
            // Its numbers started at its registration (as a recording's do): armed from there.
            if let trigger = state.withLock({ $0.triggers[seam] }) { registry.arm(seam, with: trigger, from: 0) }
            pump(seam)
        }
    }

    /// Makes the steps of `seam` that are due, in order, on the calling thread (a seam's call, or the timer).
    func pump(_ seam: SeamID) {
        guard let registry else { return }
        while true {
            let due: [ReplayStep] = state.withLock { state in
                guard !state.finished, !state.busy.contains(seam), registry.isRegistered(seam) else { return [] }
                let trigger = state.triggers[seam]
                var due: [ReplayStep] = []
                while let head = state.queues[seam]?.first {
                    let calls = trigger?.calls.load(ordering: .sequentiallyConsistent) ?? 0
                    let reached = head.afterCall.map { calls >= $0 } ?? state.timeReached.contains(head.number)
                    guard reached else {
                        // The limit moves on only once the steps before it are made: calls past a step wait for it.
                        guard due.isEmpty else { break }
                        trigger?.due.store(head.afterCall ?? .max, ordering: .sequentiallyConsistent)
                        // A call that counted before the store saw the old number: look again.
                        if let after = head.afterCall,
                            (trigger?.calls.load(ordering: .sequentiallyConsistent) ?? 0) >= after
                        {
                            continue
                        }
                        break
                    }
                    due.append(head)
                    state.queues[seam]!.removeFirst()
                }
                if due.isEmpty, state.queues[seam]?.isEmpty ?? true {
                    trigger?.due.store(.max, ordering: .sequentiallyConsistent)
                }
                if !due.isEmpty { state.busy.insert(seam) }
                return due
            }
            guard !due.isEmpty else { return }
            for step in due {
                if let problem = make(step, registry: registry) {
                    state.withLock { _ = $0.busy.remove(seam) }
                    return finish(problem)
                }
                state.withLock { _ = $0.done.insert(step.number) }
            }
            let empty = state.withLock { state in
                state.busy.remove(seam)
                return state.queues[seam]?.isEmpty ?? true
            }
            if empty {
                registry.disarm(seam)
                state.withLock { $0.queues[seam] = nil }
                checkProgress()
                return
            }
            checkProgress()
        }
    }

    /// Makes one step; the divergence if it did not go as recorded.
    private func make(_ step: ReplayStep, registry: Registry) -> ReplayDivergence? {
        switch step.action {
        case .apply:
            do throws(MischiefError) {
                let change = try registry.replayChange(
                    step, sessionSeed: schedule.sessionSeed, fileAccess: options.fileAccess)
                let (layer, seeds) = try registry.applyReplayed(
                    change, source: step.source ?? "replay", ttl: step.ttl.map { .seconds($0) },
                    sessionSeed: schedule.sessionSeed)
                if let recorded = step.layer { state.withLock { $0.layers[recorded] = layer } }
                if let expected = step.seeds, expected != seeds {
                    return diverged(
                        step, recorded: "seeds \(expected.map(String.init).joined(separator: ", "))",
                        replayed: "seeds \(seeds.map(String.init).joined(separator: ", ")): the seed does not reproduce"
                    )
                }
                return nil
            } catch {
                return diverged(step, recorded: "spec \(step.spec ?? "")", replayed: "it no longer applies: \(error)")
            }
        case .revert:
            guard let recorded = step.layer, let layer = state.withLock({ $0.layers[recorded] }) else { return nil }
            registry.revert(layers: [layer], source: step.source)
            return nil
        case .setTTL:
            guard let seam = step.seam else { return nil }
            let ttl = step.ttl.flatMap { $0 > 0 ? Duration.seconds($0) : nil }
            do throws(MischiefError) {
                _ = try registry.setTTL(ttl, on: seam)
                return nil
            } catch {
                return diverged(step, recorded: step.what, replayed: "it could not be set: \(error)")
            }
        case .advance:
            return nil  // made by the timer, which can wait for the target's tasks
        }
    }

    /// Makes the steps without a call number at their times, each after every step before it.
    func runTimedSteps() async {
        let start = ContinuousClock.now
        for step in schedule.steps where step.afterCall == nil {
            await waitUntilDone(before: step.number)
            if state.withLock({ $0.finished }) { return }
            // Range-checked when read (`Recording.clockRange`); clamped again so that nothing here can trap.
            let when = start + .milliseconds(Int64((min(max(step.at, 0), 1e11) * 1000).rounded()))
            if when > .now { try? await Task.sleep(until: when, clock: .continuous) }
            if Task.isCancelled || state.withLock({ $0.finished }) { return }
            if step.action == .advance {
                let seconds = min(max(step.advanced ?? 0, 0), Recording.durationRange.upperBound)
                let moved = await options.advance?(.milliseconds(Int64((seconds * 1000).rounded())))
                guard moved == true else {
                    return finish(diverged(step, recorded: step.what, replayed: "the target's time did not move"))
                }
                state.withLock { _ = $0.done.insert(step.number) }
                checkProgress()
            } else if let seam = step.seam {
                state.withLock { _ = $0.timeReached.insert(step.number) }
                pump(seam)
            }
        }
    }

    /// Waits until every step numbered below `number` is made, or the replay has finished.
    func waitUntilDone(before number: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.finished || (1..<number).allSatisfy(state.done.contains) { return true }
                state.waiters.append((number, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits until the replay has finished, whichever way.
    func waitUntilFinished() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.finished { return true }
                state.finishWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Resumes the waiters whose steps are made; finishes when all are.
    private func checkProgress() {
        let (ready, all) = state.withLock { state in
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard (1..<waiter.before).allSatisfy(state.done.contains) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return (ready, state.done.count == count)
        }
        for continuation in ready { continuation.resume() }
        // With decisions to compare, the replay's task finishes it once they are compared.
        if all && decisions == nil { finish(nil) }
    }

    /// Ends the replay (matched, or with `divergence`): disarms every seam and wakes every waiter.
    func finish(_ divergence: ReplayDivergence?) {
        let (waiters, triggers) = state.withLock { state -> ([CheckedContinuation<Void, Never>], [SeamID]) in
            guard !state.finished else { return ([], []) }
            state.finished = true
            state.divergence = divergence
            defer {
                state.waiters = []
                state.finishWaiters = []
            }
            let waiting = state.waiters.map(\.continuation) + state.finishWaiters
            return (waiting, Array(state.triggers.keys))
        }
        for seam in triggers { registry?.disarm(seam) }
        for waiter in waiters { waiter.resume() }
        decisions?.wake()
    }

    /// The first step not made, as a divergence: the calls it waited for did not come in time.
    func timedOut() {
        guard let registry else { return finish(nil) }
        let (next, calls) = state.withLock { state -> (ReplayStep?, Int) in
            let next = schedule.steps.first { !state.done.contains($0.number) }
            return (next, next?.seam.flatMap { state.triggers[$0]?.calls.load(ordering: .relaxed) } ?? 0)
        }
        let waited = waitedWithin
        guard let next else {
            // Every step was made: the calls the recorded decisions cover did not all come.
            let short = decisions?.check.withLock { check -> (SeamID, Int, Int)? in
                for seam in check.expected.keys.sorted() {
                    let seen = check.seen[seam, default: 0]
                    let limit = check.limit[seam, default: 0]
                    if seen < limit { return (seam, seen, limit) }
                }
                return nil
            }
            guard let (seam, seen, limit) = short else {
                // The calls came; their decisions are being read, and the replay's task compares them.
                if decisions == nil { finish(nil) }
                return
            }
            return finish(
                ReplayDivergence(
                    step: count, steps: count, matched: count, line: 0, seam: seam,
                    recorded: "decisions up to call \(limit)",
                    replayed: "the seam made \(seen) of \(limit) calls \(waited)"))
        }
        let replayed: String
        if let seam = next.seam, !registry.isRegistered(seam) {
            replayed = "the seam was not registered \(waited)"
        } else if let after = next.afterCall {
            replayed = "the seam made \(calls) of \(after) calls \(waited)"
        } else {
            replayed = "an earlier step was still waiting \(waited)"
        }
        finish(diverged(next, recorded: "\(next.what) \(next.when)", replayed: replayed))
    }

    /// `within 1m`, and when the wait was the default, how it was derived and how to wait longer.
    var waitedWithin: String {
        guard options.timeout == nil else { return "within \(SpecDuration(options.timeout ?? .zero))" }
        return "within \(SpecDuration(schedule.derivedTimeout)), the default wait (the recording's last step at +"
            + "\(ReplayStep.seconds(schedule.lastRecordedTime.rounded())) s, × 1.5 plus 30 s): too short here; give a "
            + "longer timeout (mischief replay --timeout SECONDS)"
    }

    var outcome: ReplayOutcome {
        let decisions = decisionsCompared
        return state.withLock { state in
            ReplayOutcome(
                steps: count, replayed: state.done.count, divergence: state.divergence,
                decisions: state.divergence == nil ? decisions : nil)
        }
    }
}

extension ReplayDivergence {
    func with(matched: Int) -> ReplayDivergence {
        var copy = self
        copy.matched = matched
        return copy
    }
}
