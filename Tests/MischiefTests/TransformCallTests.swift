import Synchronization
import Testing

@testable import Mischief

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `transform` of the original is called on the call path as the original and then the change, as the seam's types
/// (issue 32), not through the compiled behaviour's buffers. These check that path gives what the compiled behaviour
/// gives (a peek still runs the compiled one), and counts the same.
@Suite struct TransformCallTests {
    /// An Int seam whose original counts how often it ran.
    final class Counted: Sendable {
        final class Tally: Sendable {
            let atomic = Atomic(0)
            var count: Int { atomic.load(ordering: .relaxed) }
        }
        let runs = Tally()
        let seam: Seam<Int, Int, Never>
        init(id: SeamID = "test.counted", specialised: Bool = true) {
            let runs = self.runs
            let original: @Sendable (Int) -> Int = { value in
                runs.atomic.add(1, ordering: .relaxed)
                return value * 2
            }
            seam =
                specialised
                ? Seam(id, title: "Counted", category: "Test", summary: "x * 2", original: original)
                // The library's own init, as a seam built without the inlinable initialisers gets: no specialised runs.
                : Seam(
                    id, title: "Counted", category: "Test", summary: "x * 2", stacking: .replace, makeError: nil,
                    actions: [], original: original, originalValue: nil, runs: nil)
        }
    }

    @Test func aTransformRunsTheOriginalOnceAndCountsAChaosCall() throws {
        let registry = Registry(sessionSeed: 1)
        let counted = Counted()
        try registry.register(counted.seam)
        try registry.apply(counted.seam, .transform { $0 + 1 })
        #expect(counted.seam(5) == 11)
        #expect(counted.seam(0) == 1)
        #expect(counted.runs.count == 2)
        let counters = try #require(registry.counters("test.counted"))
        #expect(counters.calls == 2 && counters.chaosCalls == 2 && counters.errors == 0 && counters.inFlight == 0)
        #expect(counted.seam.peek(5) == 11)  // the compiled behaviour: same answer, not counted
        #expect(try #require(registry.counters("test.counted")).calls == 2)
    }

    /// Random chains of `map`s, labelled or not, with and without the seam's specialised runs: the call path, the
    /// peek (the compiled behaviour) and the arithmetic agree.
    @Test(arguments: [true, false]) func chainsOfChangesAgreeWithTheCompiledBehaviour(specialised: Bool) throws {
        var generator = SeededGenerator(seed: 32, stream: specialised ? 1 : 2)
        for round in 0..<200 {
            let registry = Registry(sessionSeed: 1)
            let counted = Counted(specialised: specialised)
            try registry.register(counted.seam)
            var behaviour = Behaviour<Int, Int, Never>.original
            var expected: @Sendable (Int) -> Int = { $0 * 2 }
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let step = Int.random(in: -5...5, using: &generator)
                let before = expected
                if Bool.random(using: &generator) {
                    behaviour = behaviour.map { $0 &+ step }
                    expected = { before($0) &+ step }
                } else {
                    behaviour = behaviour.map { $0 &* step }
                    expected = { before($0) &* step }
                }
                if Int.random(in: 0..<4, using: &generator) == 0 { behaviour = behaviour.labelled("step") }
            }
            try registry.apply(counted.seam, behaviour)
            let input = Int.random(in: -1000...1000, using: &generator)
            #expect(counted.seam(input) == expected(input), "round \(round)")
            #expect(counted.seam.peek(input) == expected(input), "round \(round)")
            #expect(counted.runs.count == 2, "round \(round): the original ran once a call")
            #expect(try #require(registry.counters("test.counted")).chaosCalls == 1, "round \(round)")
        }
    }

    @Test func anErrorFromTheOriginalOrTheChangeIsCountedAndThrown() throws {
        let f = try Fixture()
        try f.registry.apply(f.parse, .transform { $0 * 10 })
        #expect(try f.parse("4") == 40)
        #expect(throws: InjectedError.self) { try f.parse("four") }  // the original threw
        try f.registry.apply(f.parse, .transform { _ in throw Boom() })
        #expect(throws: Boom.self) { try f.parse("4") }  // the change threw
        let counters = try #require(f.registry.counters("test.parse"))
        #expect(counters.calls == 3 && counters.chaosCalls == 3 && counters.errors == 2)
    }

    /// An optional output whose change gives nil returns nil, once, rather than being taken for "no change".
    @Test func aChangeThatGivesNilOnAnOptionalSeamReturnsNil() throws {
        let f = try Fixture()
        try f.registry.apply(f.optional, .transform { _ in nil })
        #expect(f.optional() == nil)
        try f.registry.apply(f.optional, .transform { ($0 ?? "") + "!" })
        #expect(f.optional() == "present!")
        #expect(try #require(f.registry.counters("test.optional")).chaosCalls == 2)
    }

    /// Four threads call while a fifth applies a transform, a constant and reverts, over and over (at least 100
    /// changes happen while they call): every answer is one of the three, each call is counted once and its original
    /// run at most once, and nothing is left inside.
    @Test func callsWhileTheBehaviourChangesUnderThemAddUp() throws {
        final class Seen: Sendable {
            let original = Atomic(0), transformed = Atomic(0), constant = Atomic(0), wrong = Atomic(0)
            let changes = Atomic(0), callersDone = Atomic(0)
        }
        let registry = Registry(sessionSeed: 1)
        let counted = Counted()
        try registry.register(counted.seam)
        let observation = registry.observe()
        defer { observation.cancel() }
        let callers = 4
        let seen = Seen()
        var threads: [POSIXThread] = []
        for caller in 0..<callers {
            threads.append(
                try POSIXThread.start {
                    var index = 0
                    // Until each behaviour has answered some call too (a loaded machine can keep a caller off the
                    // CPU through a behaviour's whole time), within 200,000 changes.
                    func bothSeen() -> Bool {
                        seen.constant.load(ordering: .relaxed) > 0 && seen.transformed.load(ordering: .relaxed) > 0
                    }
                    while index < 5_000 || seen.changes.load(ordering: .acquiring) < 100
                        || (!bothSeen() && seen.changes.load(ordering: .acquiring) < 200_000)
                    {
                        let input = caller * 1_000_000_000 + index
                        switch counted.seam(input) {
                        case input * 2: seen.original.add(1, ordering: .relaxed)
                        case input * 2 + 1: seen.transformed.add(1, ordering: .relaxed)
                        case -1: seen.constant.add(1, ordering: .relaxed)
                        default: seen.wrong.add(1, ordering: .relaxed)
                        }
                        index += 1
                    }
                    seen.callersDone.add(1, ordering: .releasing)
                }.get())
        }
        var changes = 0
        while seen.callersDone.load(ordering: .acquiring) < callers {
            let behaviour: Behaviour<Int, Int, Never> = changes % 2 == 0 ? .transform { $0 + 1 } : .constant(-1)
            let applied = try registry.apply(counted.seam, behaviour)
            if changes % 3 == 2 { registry.revert(applied) }
            changes += 1
            seen.changes.store(changes, ordering: .releasing)
        }
        for thread in threads { thread.join() }
        registry.revertAll()
        registry.finishReverting()

        let original = seen.original.load(ordering: .relaxed)
        let transformed = seen.transformed.load(ordering: .relaxed)
        let constant = seen.constant.load(ordering: .relaxed)
        #expect(seen.wrong.load(ordering: .relaxed) == 0)
        #expect(transformed > 0 && constant > 0, "both behaviours answered some calls")
        #expect(counted.runs.count == original + transformed, "the original ran once for each answer it made")
        let counters = try #require(registry.counters("test.counted"))
        #expect(counters.calls == original + transformed + constant)
        #expect(counters.chaosCalls == transformed + constant && counters.inFlight == 0)
    }

    /// The catalogue clock's real seconds come from C now (`mischief_clock_real_seconds`): the same reading as the
    /// system's, to the tolerance of two readings in a row.
    @Test func theRealSecondsAreTheSystemClocks() {
        for _ in 0..<100 {
            let before = ContinuousClock.now
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            let system = Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
            let real = RealClock.seconds()
            let elapsed = ContinuousClock.now - before
            let bound = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18 + 1e-6
            #expect(abs(real - system) <= bound, "system \(system), real \(real), read within \(elapsed)")
        }
    }
}
