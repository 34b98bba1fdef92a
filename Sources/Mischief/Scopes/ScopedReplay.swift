/// A recording replayed in a ``ChaosScope``: its changes made again after the same calls of the scope, and the
/// decisions those calls get compared with the recorded ones. What a regression test exported from a session runs
/// (MischiefTesting's `.replaying` trait, `mischief export --as test`).
///
/// A registry's replay (``Registry/replay(_:options:)``) changes the whole process; this one changes only the task
/// tree that runs in ``scope``, so tests that replay different recordings run in parallel. The scope counts each
/// seam's calls made in it from 1, as a recording counts them from its start: a step recorded `after call N` is made
/// when call N of its seam returns (or when call N+1 comes in, if that is first); a step on a seam the recording
/// never saw called, or recorded before its first call, is made at once. Each call that meets a replayed change gets a decision (what the
/// change returned or threw, or that it passed the call to the original), and ``finish()`` compares them with the
/// recorded ones in call order: the same outcome, the same layer, the same value unless the recorded one was `live`.
///
/// ```swift
/// let replay = ScopedReplay(try ReplaySchedule(Recording(jsonLines: text)), registry: registry)
/// await replay.scope.run { await checkout() }   // the code under test, making the recorded calls
/// let outcome = replay.finish()                 // the first divergence, with both values, if any
/// ```
///
/// What a scope cannot make: an advance of virtual time (it diverges there, naming it). Times to live do not apply
/// (the changes last as long as the scope), and sources only decide which layer a newer one from the same source
/// replaces, as in the registry.
public final class ScopedReplay: Sendable {
    /// The steps and decisions replayed.
    public let schedule: ReplaySchedule
    /// The scope the changes are made in: run the code under test in it (`scope.run { … }`).
    public let scope: ChaosScope
    let replayer: ScopeReplayer

    /// Starts replaying `schedule` in a new scope inside `parent`: checks every step (its seam is registered in
    /// `registry`, its spec applies) and makes those due before any call. A step that does not fit is the outcome's
    /// divergence; nothing after it is made.
    ///
    /// - Parameters:
    ///   - schedule: The recording's steps and decisions (``ReplaySchedule/init(_:)``).
    ///   - name: The scope's name, for messages (a test's name).
    ///   - registry: Where the recorded seams are registered.
    ///   - parent: The scope whose changes the replay's come before; the current task's scope by default.
    public init(
        _ schedule: ReplaySchedule, name: String = "replay", registry: Registry = .shared,
        parent: ChaosScope? = ChaosScope.current
    ) {
        self.schedule = schedule
        replayer = ScopeReplayer(schedule, registry: registry)
        scope = ChaosScope(
            name, registry: registry, seed: schedule.sessionSeed, parent: parent, replayer: replayer)
        replayer.start(in: scope)
    }

    /// Ends the replay and says how it went: every step made and every recorded decision matched, or the first
    /// divergence (a seam not registered, a spec that no longer applies, calls that never came before the end, a
    /// decision that differs), with both values. Steps not made by now are not made later.
    public func finish() -> ReplayOutcome {
        replayer.finish()
    }
}

/// A call of a scope that replays a recording, numbered as it came in.
@usableFromInline
struct ReplayTicket {
    @usableFromInline let replayer: ScopeReplayer
    /// The scope that replays.
    @usableFromInline let scope: ChaosScope
    let seam: SeamID
    /// Its number among the seam's calls in the scope, from 1.
    let call: Int
    /// The recorded layer a decision of this call is put down to (the newest replayed change on the seam); nil
    /// when no change was on the seam, and the call gets no decision.
    let layer: Int?
    /// Whether several changes on a merging seam could have answered, so the layer is not compared.
    let ambiguous: Bool
}

/// The state of a ``ScopedReplay``; the scope's calls enter and leave it.
@usableFromInline
final class ScopeReplayer: Sendable {
    struct State {
        /// Each seam's steps not made yet, in order.
        var queues: [SeamID: [ReplayStep]] = [:]
        /// The calls each seam has made in the scope.
        var calls: [SeamID: Int] = [:]
        /// The replayed changes on each seam, oldest first, as the scope holds them: recorded layer and source.
        var layers: [SeamID: [(layer: Int, source: String?)]] = [:]
        var done = 0
        var divergence: ReplayDivergence?
        var finished = false
        /// The decisions the scope's calls got.
        var got: [SeamID: [Int: TakenDecision]] = [:]
        /// Calls whose layer is not compared (``ReplayTicket/ambiguous``).
        var ambiguous: Set<SeamCall> = []
    }

    struct SeamCall: Hashable {
        var seam: SeamID
        var call: Int
    }

    let schedule: ReplaySchedule
    weak let registry: Registry?
    /// The seams whose calls are numbered: those with steps after a call, and those with recorded decisions.
    let followed: Set<SeamID>
    let state = Locked(State())

    init(_ schedule: ReplaySchedule, registry: Registry) {
        self.schedule = schedule
        self.registry = registry
        var followed = Set(schedule.decisions.map(\.seam))
        for step in schedule.steps {
            if let seam = step.seam, step.afterCall != nil { followed.insert(seam) }
        }
        self.followed = followed
    }

    /// Checks every step, then makes the steps due before any call: those on seams never called in the recording,
    /// and those recorded before a seam's first call.
    func start(in scope: ChaosScope) {
        guard let registry else { return }
        for step in schedule.steps {
            guard step.action == .apply else { continue }
            do throws(MischiefError) {
                _ = try registry.replayChange(step, sessionSeed: schedule.sessionSeed, fileAccess: .unrestricted)
            } catch {
                let replayed: String
                if case .unknownSeam = error {
                    replayed = "no such seam is registered in the test's registry: register it before the replay starts"
                } else {
                    replayed = "it no longer applies: \(error)"
                }
                let recorded = step.seam.map { "seam \($0): \(step.spec ?? "")" } ?? (step.spec ?? "")
                state.withLock { $0.divergence = diverged(step, recorded: recorded, replayed: replayed, done: 0) }
                return
            }
        }
        state.withLock { state in
            for step in schedule.steps {
                if let seam = step.seam {
                    state.queues[seam, default: []].append(step)
                } else if step.afterCall == nil {
                    state.queues["", default: []].append(step)  // advances of time, made at once
                }
            }
            for seam in Array(state.queues.keys) {
                while state.divergence == nil, let head = state.queues[seam]?.first, (head.afterCall ?? 0) == 0 {
                    state.queues[seam]!.removeFirst()
                    make(head, in: scope, &state)
                }
                if state.queues[seam]?.isEmpty == true { state.queues[seam] = nil }
            }
        }
    }

    /// Numbers a call of `seam` coming into `scope`, after making the steps due before it.
    @usableFromInline
    func enter(_ seam: AnySeam, scope: ChaosScope) -> ReplayTicket? {
        let id = seam.info.id
        guard followed.contains(id) else { return nil }
        return state.withLock { state in
            guard !state.finished else { return nil }
            let call = state.calls[id, default: 0] + 1
            state.calls[id] = call
            makeSteps(of: id, upTo: call - 1, in: scope, &state)
            let layers = state.layers[id] ?? []
            return ReplayTicket(
                replayer: self, scope: scope, seam: id, call: call, layer: layers.last?.layer,
                ambiguous: layers.count > 1 && seam.info.stacking == .merge)
        }
    }

    /// Makes the steps of `seam` recorded after its call `call` or before, in order.
    private func makeSteps(of seam: SeamID, upTo call: Int, in scope: ChaosScope, _ state: inout State) {
        while state.divergence == nil, let head = state.queues[seam]?.first, let after = head.afterCall, after <= call {
            state.queues[seam]!.removeFirst()
            make(head, in: scope, &state)
        }
        if state.queues[seam]?.isEmpty == true { state.queues[seam] = nil }
    }

    /// Notes the decision of a call that met a replayed change (what the scope's change returned or threw when
    /// `fired`, or that it passed the call on), then makes the steps recorded after this call, so the next call
    /// finds them (a call that comes in first makes them itself).
    @usableFromInline
    func leave<Output, Failure: Error>(_ ticket: ReplayTicket, result: Result<Output, Failure>, fired: Bool) {
        guard let layer = ticket.layer else {
            state.withLock { state in
                guard !state.finished else { return }
                makeSteps(of: ticket.seam, upTo: ticket.call, in: ticket.scope, &state)
            }
            return
        }
        var decision = TakenDecision(
            seam: ticket.seam, rawCall: ticket.call, layer: nil, outcome: .passed, value: nil, live: false)
        if fired {
            decision.layer = LayerID(rawValue: layer)
            switch result {
            case .success(let value):
                decision.outcome = .returned
                decision.value = DecisionTape<Output, Failure>.rendered(value)
                decision.live = (value as? any ReplayVariantValue)?.variesOnReplay ?? false
            case .failure(let error):
                decision.outcome = .threw
                decision.value = DecisionTape<Output, Failure>.rendered(error)
            }
        }
        state.withLock { state in
            guard !state.finished else { return }
            state.got[ticket.seam, default: [:]][ticket.call] = decision
            if ticket.ambiguous { state.ambiguous.insert(SeamCall(seam: ticket.seam, call: ticket.call)) }
            makeSteps(of: ticket.seam, upTo: ticket.call, in: ticket.scope, &state)
        }
    }

    /// Makes one step in `scope`; a step that cannot be made is the replay's divergence.
    private func make(_ step: ReplayStep, in scope: ChaosScope, _ state: inout State) {
        guard let registry else { return }
        switch step.action {
        case .apply:
            guard let seam = step.seam, let target = registry.registered(seam) else { return }
            do throws(MischiefError) {
                let change = try registry.replayChange(
                    step, sessionSeed: schedule.sessionSeed, fileAccess: .unrestricted)
                // A change from a source replaces that source's change on the seam, as in the registry.
                if let index = state.layers[seam]?.lastIndex(where: { $0.source == step.source }) {
                    scope.removeLayer(of: target, at: index)
                    state.layers[seam]!.remove(at: index)
                }
                try scope.apply(change)
                state.layers[seam, default: []].append((step.layer ?? -step.number, step.source))
            } catch {
                state.divergence = diverged(
                    step, recorded: "spec \(step.spec ?? "")", replayed: "it no longer applies: \(error)",
                    done: state.done)
                return
            }
        case .revert:
            guard let seam = step.seam, let target = registry.registered(seam),
                let index = state.layers[seam]?.firstIndex(where: { $0.layer == step.layer })
            else { break }
            scope.removeLayer(of: target, at: index)
            state.layers[seam]!.remove(at: index)
        case .setTTL:
            break  // a scope's changes last as long as the scope
        case .advance:
            state.divergence = diverged(
                step, recorded: step.what, replayed: "a test's replay cannot advance time", done: state.done)
            return
        }
        state.done += 1
    }

    private func diverged(_ step: ReplayStep, recorded: String, replayed: String, done: Int) -> ReplayDivergence {
        ReplayDivergence(
            step: step.number, steps: schedule.steps.count, matched: done, line: step.line, seam: step.seam,
            recorded: recorded, replayed: replayed)
    }

    /// Ends the replay: the first step not made, or the first decision that differs.
    func finish() -> ReplayOutcome {
        let state = self.state.withLock { state in
            state.finished = true
            return state
        }
        let count = schedule.steps.count
        if let divergence = state.divergence {
            return ReplayOutcome(steps: count, replayed: state.done, divergence: divergence)
        }
        let waiting = state.queues.values.compactMap(\.first).min { $0.number < $1.number }
        if let next = waiting {
            let calls = next.seam.map { state.calls[$0, default: 0] } ?? 0
            let replayed =
                next.afterCall.map { "the code under test made \(calls) of \($0) calls before the end" }
                ?? "an earlier step was still waiting at the end"
            return ReplayOutcome(
                steps: count, replayed: state.done,
                divergence: diverged(next, recorded: "\(next.what) \(next.when)", replayed: replayed, done: state.done))
        }
        var check = DecisionCheck(schedule)
        guard !check.isEmpty else { return ReplayOutcome(steps: count, replayed: state.done) }
        for seam in check.expected.keys.sorted() {
            let limit = check.limit[seam, default: 0]
            let calls = state.calls[seam, default: 0]
            guard calls >= limit else {
                let divergence = ReplayDivergence(
                    step: count, steps: count, matched: state.done, line: 0, seam: seam,
                    recorded: "decisions up to call \(limit)",
                    replayed: "the code under test made \(calls) of \(limit) calls before the end")
                return ReplayOutcome(steps: count, replayed: state.done, divergence: divergence)
            }
        }
        // A call several changes of a merging seam could have answered is compared by outcome and value.
        for (seam, list) in check.expected {
            check.expected[seam] = list.map { expected in
                var expected = expected
                if state.ambiguous.contains(SeamCall(seam: seam, call: expected.decision.call)) {
                    expected.decision.layer = nil
                }
                return expected
            }
        }
        check.got = state.got
        for call in state.ambiguous { check.got[call.seam]?[call.call]?.layer = nil }
        let recorded = Set(schedule.steps.compactMap(\.layer) + schedule.decisions.compactMap(\.layer))
        let layers = Dictionary(uniqueKeysWithValues: recorded.map { ($0, LayerID(rawValue: $0)) })
        let compared = check.expected.reduce(0) { sum, seam in
            sum + seam.value.filter { $0.decision.call <= check.limit[seam.key, default: 0] }.count
        }
        guard let difference = check.firstDifference(layers: layers) else {
            return ReplayOutcome(steps: count, replayed: state.done, decisions: compared)
        }
        return ReplayOutcome(
            steps: count, replayed: state.done,
            divergence: ReplayDivergence(
                step: count, steps: count, matched: state.done, line: difference.line, seam: difference.seam,
                recorded: difference.recorded, replayed: difference.replayed, decisionsMatched: difference.matched))
    }
}
