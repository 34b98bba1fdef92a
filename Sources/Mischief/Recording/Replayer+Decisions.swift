/// What a replay needs to compare its calls' decisions with a recording's.
///
/// ## How decisions are compared
/// Per seam, over the calls the recording has decisions for (up to its last one, or to where it stopped keeping
/// them). The calls are cut into stretches at the seam's own steps (the changes made after a call number), and each
/// stretch must hold the same decisions: the same outcome, the same layer (the replayed one that stands for the
/// recorded one), and the same value unless the recorded one was `live`. In call order first; when the order differs
/// but the stretch holds the same decisions as a multiset, it matches too: with several threads calling one seam,
/// which call gets which answer is not reproducible, but what the behaviour decided over the stretch is.
struct DecisionCheck {
    struct Expected {
        var decision: Recording.Decision
        var line: Int
    }

    /// Each seam's recorded decisions, in call order.
    var expected: [SeamID: [Expected]] = [:]
    /// The last call of each seam whose decision is compared.
    var limit: [SeamID: Int] = [:]
    /// The call numbers of each seam's steps, in order: where its stretches end.
    var bounds: [SeamID: [Int]] = [:]
    /// The seam's raw counted calls when the replay began.
    var base: [SeamID: Int] = [:]
    /// The decisions the replay's calls got, by call number.
    var got: [SeamID: [Int: TakenDecision]] = [:]
    /// How many drain rounds (100 ms apart) each seam has been past its limit.
    var settled: [SeamID: Int] = [:]
    /// The calls each seam has made in the replay, as last told.
    var seen: [SeamID: Int] = [:]
    /// Those waiting for the comparison (`DecisionListener.waitUntilComplete()`).
    var waiting: [CheckedContinuation<Void, Never>] = []
    /// Set when the replay has finished: waiting is over.
    var ended = false

    init(_ schedule: ReplaySchedule) {
        for (decision, line) in zip(schedule.decisions, schedule.decisionLines) {
            if decision.outcome == .dropped {
                limit[decision.seam] = min(limit[decision.seam] ?? .max, decision.call - 1)
                continue
            }
            expected[decision.seam, default: []].append(Expected(decision: decision, line: line))
        }
        for (seam, list) in expected {
            expected[seam] = list.sorted { $0.decision.call < $1.decision.call }
            let last = expected[seam]?.last?.decision.call ?? 0
            limit[seam] = min(limit[seam] ?? .max, last)
        }
        for step in schedule.steps {
            guard let seam = step.seam, let call = step.afterCall, expected[seam] != nil else { continue }
            bounds[seam, default: []].append(call)
        }
    }

    var isEmpty: Bool { expected.isEmpty }

    /// Whether every seam has made the calls its decisions cover, and they have been read: each recorded call has
    /// its replayed decision, or three rounds have passed since the seam made its last covered call (a call's
    /// decision is read once the call has returned; a call that gets no chaos in the replay has none to wait for).
    var isComplete: Bool {
        expected.allSatisfy { seam, list in
            let rounds = settled[seam, default: 0]
            guard rounds < 3 else { return true }
            guard rounds >= 1 else { return false }
            let limit = limit[seam, default: 0]
            let got = got[seam] ?? [:]
            return list.allSatisfy { $0.decision.call > limit || got[$0.decision.call] != nil }
        }
    }

    /// Takes decisions read from the tapes and the seams' call counts.
    mutating func take(_ taken: [TakenDecision], calls: [SeamID: Int]) {
        for decision in taken {
            guard let limit = limit[decision.seam] else { continue }
            let call = decision.rawCall - base[decision.seam, default: 0]
            if decision.outcome == .dropped {
                // The replay's tape could not keep up: compare up to there.
                self.limit[decision.seam] = min(limit, call - 1)
                continue
            }
            guard call >= 1, call <= limit else { continue }
            got[decision.seam, default: [:]][call] = decision
        }
        for (seam, raw) in calls where expected[seam] != nil {
            seen[seam] = raw - base[seam, default: 0]
            if seen[seam, default: 0] >= limit[seam, default: 0] { settled[seam, default: 0] += 1 }
        }
    }

    /// A decision as compared: outcome, recorded layer and value (nil when live).
    private struct Answer: Hashable {
        var outcome: Recording.Decision.Outcome
        var layer: Int?
        var value: String?
    }

    private static func answer(_ decision: Recording.Decision) -> Answer {
        Answer(
            outcome: decision.outcome, layer: decision.outcome == .passed ? nil : decision.layer,
            value: decision.live == true ? nil : decision.value)
    }

    /// The replayed decision as the recording would name it: its layer mapped back to the recorded one's.
    private static func answer(_ taken: TakenDecision, recordedLayer: [LayerID: Int], live: Bool) -> Answer {
        Answer(
            outcome: taken.outcome,
            layer: taken.outcome == .passed ? nil : taken.layer.map { recordedLayer[$0] ?? -$0.rawValue },
            value: live ? nil : taken.value)
    }

    /// The first decision that differs, with how many matched before it; nil when all match.
    func firstDifference(layers: [Int: LayerID])
        -> (seam: SeamID, call: Int, line: Int, recorded: String, replayed: String, matched: Int)?
    {
        let recordedLayer = Dictionary(layers.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        var first: (seam: SeamID, call: Int, line: Int, recorded: String, replayed: String, matched: Int)?
        var matchedBefore: [Int] = []  // the lines of every matched decision, to count those before the first
        for (seam, list) in expected {
            let limit = limit[seam] ?? 0
            let got = got[seam] ?? [:]
            let bounds = (bounds[seam] ?? []).filter { $0 < limit } + [limit]
            var lower = 0
            for upper in bounds where upper > lower {
                let recorded = list.filter { $0.decision.call > lower && $0.decision.call <= upper }
                let replayed = got.filter { $0.key > lower && $0.key <= upper }.sorted { $0.key < $1.key }
                defer { lower = upper }
                let expectedAnswers = recorded.map { Self.answer($0.decision) }
                let liveAt = Dictionary(
                    recorded.map { ($0.decision.call, $0.decision.live == true) }, uniquingKeysWith: { a, _ in a })
                let replayedAnswers = replayed.map {
                    Self.answer($0.value, recordedLayer: recordedLayer, live: liveAt[$0.key] ?? false)
                }
                let inOrder =
                    recorded.map(\.decision.call) == replayed.map(\.key) && expectedAnswers == replayedAnswers
                let sameMultiset =
                    recorded.count == replayed.count
                    && Dictionary(expectedAnswers.map { ($0, 1) }, uniquingKeysWith: +)
                        == Dictionary(replayedAnswers.map { ($0, 1) }, uniquingKeysWith: +)
                if inOrder || sameMultiset {
                    matchedBefore += recorded.map(\.line)
                    continue
                }
                // The first call, in order, whose decision differs.
                let calls = Set(recorded.map(\.decision.call)).union(replayed.map(\.key)).sorted()
                for call in calls {
                    let want = recorded.first { $0.decision.call == call }
                    let have = got[call]
                    let wantAnswer = want.map { Self.answer($0.decision) }
                    let haveAnswer = have.map {
                        Self.answer($0, recordedLayer: recordedLayer, live: want?.decision.live == true)
                    }
                    if wantAnswer == haveAnswer {
                        if let want { matchedBefore.append(want.line) }
                        continue
                    }
                    let line = want?.line ?? list.first { $0.decision.call > call }?.line ?? list.last?.line ?? 0
                    let recordedText =
                        "call \(call): " + (want.map { $0.decision.answer } ?? "no chaos (nothing applied)")
                    let replayedText =
                        "call \(call): "
                        + (have.map { taken in
                            Recording.Decision(
                                seam: seam, call: call, layer: taken.layer.map { recordedLayer[$0] ?? $0.rawValue },
                                outcome: taken.outcome, value: taken.value
                            ).answer
                                + (taken.layer.map {
                                    recordedLayer[$0] == nil ? " (a layer the recording has not)" : ""
                                }
                                    ?? "")
                        } ?? "no chaos (nothing applied)")
                    if first == nil || line < first!.line {
                        first = (seam, call, line, recordedText, replayedText, 0)
                    }
                    break
                }
                break  // later stretches of this seam follow from this one
            }
        }
        guard var found = first else { return nil }
        found.matched = matchedBefore.filter { $0 < found.line }.count
        return found
    }
}

extension Replayer {
    /// Waits until every seam has made the calls the recorded decisions cover (or the replay has finished), then
    /// compares them; the first difference, if any.
    func compareDecisions() async -> ReplayDivergence? {
        guard let decisions else { return nil }
        if let registry, registry.expiry == nil {
            // A registry without its housekeeping thread (a test's): read the tapes here, as that thread would.
            while !decisions.check.withLock({ $0.ended || $0.isComplete }) {
                registry.drainDecisions()
                try? await Task.sleep(for: Registry.decisionDrainInterval)
            }
        }
        await decisions.waitUntilComplete()
        // The replay's lock and the listener's are taken one after the other, never one inside the other.
        let (finished, layers, done) = state.withLock { ($0.finished, $0.layers, $0.done.count) }
        guard !finished, let difference = decisions.check.withLock({ $0.firstDifference(layers: layers) }) else {
            return nil
        }
        return ReplayDivergence(
            step: count, steps: count, matched: done, line: difference.line, seam: difference.seam,
            recorded: difference.recorded, replayed: difference.replayed, decisionsMatched: difference.matched)
    }

    /// Stops listening for decisions (the replay is over).
    func stopComparingDecisions() {
        if let decisions { registry?.stopListening(decisions) }
    }

    /// How many decisions the replay compares.
    var decisionsCompared: Int? {
        decisions?.check.withLock { check in
            check.expected.reduce(0) { sum, seam in
                sum + seam.value.filter { $0.decision.call <= check.limit[seam.key, default: 0] }.count
            }
        }
    }
}
