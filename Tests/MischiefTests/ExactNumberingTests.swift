import Foundation
import Synchronization
import Testing

@testable import Mischief

/// Counters and call numbers that hold while several threads call a seam and another changes it: every call counted
/// whatever reads the counters and when, and every change exactly between two numbered calls (see `CallNumbering`).
@Suite struct ExactNumberingTests {
    /// How many rounds the property tests run: a few here, 1,000 in `Scripts/sanitize-thread.sh`
    /// (`MISCHIEF_EXACT_ROUNDS`).
    static var rounds: Int {
        ProcessInfo.processInfo.environment["MISCHIEF_EXACT_ROUNDS"].flatMap { Int($0) } ?? 6
    }
    /// How many calls each of the four threads makes in a round (`MISCHIEF_EXACT_CALLS`): fewer under
    /// ThreadSanitizer, where the rounds are many.
    static var callsEach: Int {
        ProcessInfo.processInfo.environment["MISCHIEF_EXACT_CALLS"].flatMap { Int($0) } ?? 1_500
    }

    /// How many changes the fifth thread makes in a round (`MISCHIEF_EXACT_CHANGES`): fewer under ThreadSanitizer,
    /// where each costs more and the rounds are many.
    static var changesEach: Int {
        ProcessInfo.processInfo.environment["MISCHIEF_EXACT_CHANGES"].flatMap { Int($0) } ?? 200
    }

    // MARK: A recorded seam with nothing applied

    /// While a recording numbers calls, a seam with nothing applied gets no box: its calls take their numbers from
    /// its core, and a change still lands exactly after the calls made before it, from the core's numbers into a
    /// box's and back.
    @Test func aRecordedSeamWithNothingAppliedIsNumberedWithoutABox() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Never>("t.p", title: "p", category: "t", summary: "p") { $0 }
        try registry.register(seam)
        let recorder = registry.startRecording(capacity: 100, decisions: 100)
        #expect(seam.core.installedBox == nil, "nothing applied: no box while recording")
        #expect(seam.core.word.load(ordering: .relaxed) & SeamCore.numberedBit != 0)
        for i in 0..<5 { #expect(seam(i) == i) }
        try registry.apply(spec: "return(7)", to: "t.p")
        #expect(seam.core.installedBox != nil)
        for i in 0..<3 { #expect(seam(i) == 7) }
        registry.revert(seam: "t.p")
        #expect(seam.core.installedBox == nil, "reverted: the core numbers the calls again")
        for i in 0..<2 { #expect(seam(i) == i) }
        try registry.apply(spec: "return(8)", to: "t.p")
        _ = seam(0)
        recorder.stop()
        let recording = recorder.recording
        let changes = recording.entries.filter { $0.seam == "t.p" && ($0.kind == .applied || $0.kind == .reverted) }
        #expect(changes.map(\.call) == [5, 8, 10], "each change after the calls made before it")
        #expect(recording.decisions.filter { $0.seam == "t.p" }.map(\.call) == [6, 7, 8, 11])
        #expect(registry.snapshot().seam("t.p")?.counters.calls == 11)
    }

    /// The same for an async seam, whose calls count on shared lines and may change threads: numbered without a box
    /// while nothing is applied, and each change after exactly the calls made before it.
    @Test func aRecordedAsyncSeamWithNothingAppliedIsNumberedWithoutABox() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = AsyncSeam<Int, Int, Never>("t.a", title: "a", category: "t", summary: "a") { $0 }
        try registry.register(seam)
        let recorder = registry.startRecording(capacity: 100, decisions: 100)
        #expect(seam.core.installedBox == nil, "nothing applied: no box while recording")
        for i in 0..<4 { #expect(await seam(i) == i) }
        try registry.apply(spec: "return(7)", to: "t.a")
        for i in 0..<2 { #expect(await seam(i) == 7) }
        registry.revert(seam: "t.a")
        #expect(seam.core.installedBox == nil)
        #expect(await seam(9) == 9)
        try registry.apply(spec: "return(8)", to: "t.a")
        recorder.stop()
        let changes = recorder.recording.entries.filter {
            $0.seam == "t.a" && ($0.kind == .applied || $0.kind == .reverted)
        }
        #expect(changes.map(\.call) == [4, 6, 7], "each change after the calls made before it")
        #expect(registry.snapshot().seam("t.a")?.counters.calls == 7)
    }

    // MARK: Counters

    @Test func callsABehaviourServedStayCountedWhenNothingReadThemBeforeItsRevert() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, any Error>("t.x", title: "x", category: "t", summary: "x") { $0 }
        try registry.register(seam)
        try registry.apply(spec: #"throw("x")"#, to: "t.x")
        for i in 0..<3 { _ = try? seam(i) }
        registry.revert(seam: "t.x")
        let counters = try #require(registry.snapshot().seam("t.x")).counters
        #expect(counters.calls == 3)
        #expect(counters.chaosCalls == 3)
        #expect(counters.errors == 3)
    }

    @Test func callsABehaviourServedStayCountedThroughAReplacementAndARevertOfEverything() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, any Error>("t.x", title: "x", category: "t", summary: "x") { $0 }
        try registry.register(seam)
        try registry.apply(spec: "return(1)", to: "t.x", source: "console")
        for i in 0..<2 { _ = try? seam(i) }
        try registry.apply(spec: #"throw("x")"#, to: "t.x", source: "console")  // replaces the first
        for i in 0..<2 { _ = try? seam(i) }
        #expect(registry.revertAll() == 1)
        for i in 0..<5 { _ = try? seam(i) }  // nobody observes: not counted
        let counters = try #require(registry.snapshot().seam("t.x")).counters
        #expect(counters == SeamCounters(calls: 4, chaosCalls: 4, errors: 2))
    }

    @Test func aGuardThatRevertsKeepsTheCallsItSaw() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, any Error>("t.x", title: "x", category: "t", summary: "x") { $0 }
        try registry.register(seam)
        _ = try registry.addGuard(Guard(parsing: "errors(t.x) > 50% over 1m min 3"), source: "test")
        registry.checkGuards()
        try registry.apply(spec: #"throw("x")"#, to: "t.x")
        for i in 0..<4 { _ = try? seam(i) }
        #expect(registry.checkGuards().count == 1, "the guard tripped")
        let snapshot = try #require(registry.snapshot().seam("t.x"))
        #expect(snapshot.behaviourText == nil, "the guard reverted the throw")
        #expect(snapshot.counters.calls == 4)
        #expect(snapshot.counters.errors == 4)
    }

    // MARK: Call numbers

    /// What a recording says about one seam: the layers active after each numbered call, from its events.
    struct Timeline {
        /// (call the event came after, applied layer or nil, reverted layer or nil), in event order.
        var events: [(call: Int, applied: Int?, reverted: Int?)] = []
        /// Each applied layer's value (`return(N)`).
        var values: [Int: String] = [:]
        /// The source of each layer applied and not replaced.
        var sources: [Int: String?] = [:]

        init(_ recording: Recording, seam: SeamID) {
            for entry in recording.entries where entry.seam == seam {
                guard let call = entry.call, let layer = entry.layer else { continue }
                switch entry.kind {
                case .applied:
                    // A layer replaces the one its source applied before (the source's later group), as the
                    // registry's `apply(spec:to:source:)` does; that one's revert is not an event of its own.
                    for (other, source) in sources where source == entry.source {
                        events.append((call, nil, other))
                        sources[other] = nil
                    }
                    sources[layer] = entry.source
                    events.append((call, layer, nil))
                    if let spec = entry.spec, spec.hasPrefix("return(") {
                        values[layer] = String(spec.dropFirst("return(".count).dropLast())
                    }
                case .reverted:
                    events.append((call, nil, layer))
                    sources[layer] = nil
                default: break
                }
            }
        }

        /// The newest layer active for call `call`: every event that came after a call before it has happened.
        func answering(_ call: Int) -> Int? {
            var active: [Int] = []
            for event in events where event.call < call {
                if let layer = event.applied { active.append(layer) }
                if let layer = event.reverted { active.removeAll { $0 == layer } }
            }
            return active.last
        }
    }

    /// Four threads call one seam while a fifth applies, replaces, reverts and sets times to live; a recording keeps
    /// every decision. Each decision's layer is the one its call number says was installed, and the counters are
    /// the calls made.
    @Test func everyDecisionIsAnsweredByTheLayerInstalledAtItsCallNumber() throws {
        // A bound in time for CI (`MISCHIEF_EXACT_SECONDS`): the rounds made within it are said, never cut short silently.
        let budget = ProcessInfo.processInfo.environment["MISCHIEF_EXACT_SECONDS"].flatMap { Double($0) }
        let start = ContinuousClock.now
        var made = 0
        for round in 0..<Self.rounds {
            if let budget, (ContinuousClock.now - start).seconds > budget { break }
            try Self.changeWhileFourThreadsCall(seed: UInt64(round) &+ 1)
            made += 1
        }
        print("exact numbering: \(made) of \(Self.rounds) rounds in \((ContinuousClock.now - start).seconds) s")
        #expect(made > 0)
    }

    static func changeWhileFourThreadsCall(seed: UInt64) throws {
        let registry = Registry(sessionSeed: seed)
        let seam = Seam<Int, Int, Never>("t.n", title: "n", category: "t", summary: "n") { $0 }
        try registry.register(seam)
        let recorder = registry.startRecording(capacity: 100_000, decisions: 1_000_000)
        let callsEach = Self.callsEach
        let finished = Atomic<Int>(0)
        let made = Atomic<Int>(0)
        let started = DispatchGroup()
        let done = DispatchGroup()
        for _ in 0..<4 {
            started.enter()
            done.enter()
            Thread.detachNewThread {
                started.leave()
                var count = 0
                while count < callsEach {
                    _ = seam(count)
                    count += 1
                }
                made.add(count, ordering: .relaxed)
                finished.add(1, ordering: .releasing)
                done.leave()
            }
        }
        started.wait()
        var random = SeededGenerator(seed: seed)
        var changes = 0
        var value = 0
        let changesEach = Self.changesEach
        while changes < changesEach || finished.load(ordering: .acquiring) < 4 {
            value += 1
            switch random.next() % 5 {
            case 0, 1: try registry.apply(spec: "return(\(value))", to: "t.n", source: "console")
            case 2: try registry.apply(spec: "return(\(value))", to: "t.n", source: "profile \(value % 3)")
            case 3: registry.revert(seam: "t.n")
            default: _ = try? registry.setTTL(.seconds(3600), on: "t.n")
            }
            changes += 1
        }
        #expect(done.wait(timeout: .now() + 60) == .success, "the calling threads finished")
        registry.revert(seam: "t.n")
        recorder.stop()
        let recording = recorder.recording
        let timeline = Timeline(recording, seam: "t.n")
        let decisions = recording.decisions.filter { $0.seam == "t.n" }
        let kept = decisions.filter { $0.outcome != .dropped }
        #expect(Set(kept.map(\.call)).count == kept.count, "seed \(seed): no two decisions share a call number")
        var wrong: [String] = []
        for decision in kept {
            let expected = timeline.answering(decision.call)
            if decision.layer != expected || decision.value != expected.flatMap({ timeline.values[$0] }) {
                wrong.append(
                    "call \(decision.call): \(decision.answer), expected layer \(expected.map(String.init) ?? "none")")
            }
        }
        #expect(wrong.isEmpty, "seed \(seed): \(wrong.count) of \(kept.count) decisions off: \(wrong.prefix(5))")
        let total = made.load(ordering: .acquiring)
        #expect(total == 4 * callsEach)
        if decisions.count == kept.count {
            let answered = (1...total).filter { timeline.answering($0) != nil }.count
            #expect(kept.count == answered, "seed \(seed): every call a layer answered has its decision")
        }
        let counters = try #require(registry.snapshot().seam("t.n")).counters
        #expect(counters.calls == total, "seed \(seed): every call counted once")
        #expect(counters.inFlight == 0)
    }

    /// Two threads call while changes are made from a third; the recording, replayed on a fresh registry whose two
    /// threads make the same calls, matches: each change lands at its call number, and the decisions between two
    /// changes are the same set.
    @Test func aSessionWithTwoCallingThreadsReplaysExactly() async throws {
        var decisions = 0
        for round in 0..<max(3, Self.rounds / 2) {
            let recording = try Self.twoThreadSession(seed: UInt64(round) &+ 7)
            decisions += recording.decisions.count
            let outcome = try await Self.replayWithTwoThreads(recording)
            #expect(outcome.divergence == nil, "round \(round): \(outcome.divergence.map { "\($0)" } ?? "")")
            #expect(outcome.replayed == outcome.steps)
        }
        #expect(decisions > 0, "the changes came while the threads were calling")
    }

    static let callsPerThread = 150

    static func twoThreadSession(seed: UInt64) throws -> Recording {
        let registry = Registry(sessionSeed: seed)
        let seam = Seam<Int, Int, Never>("t.n", title: "n", category: "t", summary: "n") { $0 }
        try registry.register(seam)
        let recorder = registry.startRecording(capacity: 10_000, decisions: 100_000)
        let progress = Progress()
        let done = twoCallingThreads(seam) { progress.count.add(1, ordering: .releasing) }
        // Changes at points the calls have reached, from this thread, while they go on.
        let marks = [(40, #"20%return(1)"#), (150, "50%return(9)"), (230, "return(3)")]
        for (mark, spec) in marks {
            while progress.count.load(ordering: .acquiring) < mark { sched_yield() }
            try registry.apply(spec: spec, to: "t.n", source: "console", seed: seed)
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        recorder.stop()
        return recorder.recording
    }

    /// Calls made so far.
    final class Progress: Sendable {
        let count = Atomic<Int>(0)
    }

    /// Two threads, each calling `seam` ``callsPerThread`` times with the program's own work between calls (so changes
    /// come among them); `afterEach` runs after each call. The group is left when both are done.
    static func twoCallingThreads(
        _ seam: Seam<Int, Int, Never>, afterEach: @escaping @Sendable () -> Void = {}
    ) -> DispatchGroup {
        let done = DispatchGroup()
        for _ in 0..<2 {
            done.enter()
            Thread.detachNewThread {
                for value in 0..<callsPerThread {
                    _ = seam(value)
                    afterEach()
                    busy()
                    sched_yield()
                }
                done.leave()
            }
        }
        return done
    }

    /// Some 20 µs of work, without sleeping.
    static func busy() {
        var x: UInt64 = 1
        for i in 0..<4_000 { x = x &* 6_364_136_223_846_793_005 &+ UInt64(i) }
        if x == 42 { print(x) }
    }

    static func replayWithTwoThreads(_ recording: Recording) async throws -> ReplayOutcome {
        let registry = Registry(sessionSeed: 99)
        let seam = Seam<Int, Int, Never>("t.n", title: "n", category: "t", summary: "n") { $0 }
        try registry.register(seam)
        let run = registry.startReplay(try ReplaySchedule(recording))
        let done = twoCallingThreads(seam)
        let outcome = await run.outcome()
        #expect(done.wait(timeout: .now() + 60) == .success)
        return outcome
    }
}
