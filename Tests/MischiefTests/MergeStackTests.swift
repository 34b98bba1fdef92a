import Testing

@testable import Mischief

/// Stacked `merge` layers are compiled into one box when they change: calls still try them newest first, each
/// layer keeps its own state across recompiles, and a layer reverted while a call is inside it is freed after.
@Suite struct MergeStackTests {
    private func mergingSeam() -> Seam<Int, Int, Never> {
        Seam<Int, Int, Never>("test.stack", title: "Stack", category: "Test", summary: "x", stacking: .merge) {
            -$0
        }
    }

    private func status(_ applied: Applied, in registry: Registry) -> RevertStatus? {
        registry.snapshot().layers.first { $0.id == applied.layers[0] }?.status
    }

    /// Layer k answers inputs from k up with k: newest first, input x meets layers 99…x+1 (which pass) before x.
    @Test func aHundredLayersAnswerNewestFirst() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        for k in 0..<100 { try registry.apply(seam, .match([.init({ $0 >= k }, .constant(k))])) }
        #expect((0..<100).map { seam($0) } == Array(0..<100))
        #expect(seam(1_000) == 99)
        #expect(seam(-5) == 5)  // no layer answers: the original
    }

    /// Layers of rules are walked as one list of rules, but a rule that matches and does not fire still ends its own
    /// layer's turn (as a `match` alone does): the call goes on to the next layer, never to the next rule of its
    /// layer.
    @Test func aMatchedRuleThatDoesNotFireEndsItsLayersTurn() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        try registry.apply(seam, .match([.when(1, .constant(20)), .when(2, .constant(22))]))
        try registry.apply(seam, .constant(30).probability(0))  // a layer without rules that never fires
        try registry.apply(seam, .match([]))  // no rules: nothing to try
        try registry.apply(seam, .match([.when(1, .first(1, .constant(10))), .when(1, .constant(11))]))
        #expect(seam(1) == 10)  // the newest layer's first rule
        #expect(seam(1) == 20)  // it matches but is used up: the oldest layer, not 11
        #expect(seam(2) == 22)
        #expect(seam(3) == -3)  // nothing matches: the original
    }

    /// A layer that is not rules (a fallback, a match with an `otherwise`) sits between layers of rules in its place.
    @Test func layersOfRulesAndOtherLayersKeepTheirOrder() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        try registry.apply(seam, .match([.when(1, .constant(1)), .when(2, .constant(2))]))
        try registry.apply(seam, .match([.when(2, .constant(20))], otherwise: .match([.when(3, .constant(30))])))
        try registry.apply(seam, .match([.when(3, .constant(300)), .when(4, .constant(400))]))
        try registry.apply(seam, .first(5, .constant(500)))
        #expect((1...5).map { seam($0) } == [500, 500, 500, 500, 500])
        #expect((1...5).map { seam($0) } == [1, 20, 300, 400, -5])
    }

    @Test func revertingAMiddleLayerLeavesTheOthersInOrder() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        var applied: [Applied] = []
        for k in 0..<10 { applied.append(try registry.apply(seam, .match([.init({ $0 >= k }, .constant(k))]))) }
        registry.revert(applied[5])
        #expect((0..<10).map { seam($0) } == [0, 1, 2, 3, 4, 4, 6, 7, 8, 9])
        registry.revert(applied[9])
        #expect(seam(20) == 8)
        registry.revert(applied[0])
        #expect(seam(0) == 0)  // layer 0 was the only one answering 0
        #expect(status(applied[5], in: registry) == .reverted)
    }

    /// `first(2)` and `seq(…)` count the calls that reach them, however often the stack around them is rebuilt.
    @Test func eachLayerKeepsItsCountersAcrossRecompiles() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        try registry.apply(seam, .first(2, .constant(100)))
        let sequence = try registry.apply(
            seam, .match([.init({ $0 == 1 }, .sequence([.constant(1), .constant(2), .constant(3)]))]))
        #expect(seam(0) == 100)  // first call to reach first(2)
        #expect(seam(1) == 1)
        let other = try registry.apply(seam, .match([.when(7, .constant(7))]))  // rebuilds the box
        #expect(seam(1) == 2)
        #expect(seam(0) == 100)  // second call to reach first(2)
        registry.revert(other)  // rebuilds it again
        #expect(seam(0) == 0)  // first(2) is used up: the original
        #expect(seam(1) == 3)
        #expect(seam(1) == 3)  // the last step repeats
        registry.revert(sequence)
        #expect(seam(1) == -1)
    }

    /// A call held in a lower layer while the stack is rebuilt and that layer reverted finishes in it; the layer
    /// is freed once the call has returned, and the layers left keep answering.
    @Test func aLayerRevertedWithACallInsideIsFreedAfterTheCall() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        let parked = ParkedCall()
        weak var witness: Witness?
        let lower = try registry.apply(seam, .match([.when(-1, .constant(-100))]))
        let held: Applied
        do {
            let strong = Witness()
            witness = strong
            held = try registry.apply(
                seam,
                .match([
                    .init(
                        { $0 == 0 },
                        .closure { _ in
                            _ = strong
                            return parked.park(returning: 42)
                        })
                ]))
        }
        try registry.apply(seam, .match([.when(1, .constant(10))]))
        parked.start(seam, input: 0)
        registry.revert(held)
        #expect(status(held, in: registry) == .reverting)
        #expect(seam(1) == 10 && seam(-1) == -100 && seam(0) == 0)
        #expect(witness != nil)
        #expect(parked.finish() == 42)
        registry.finishReverting()
        #expect(status(held, in: registry) == .reverted)
        #expect(witness == nil)
        registry.revert(lower)
        #expect(seam(-1) == 1 && seam(1) == 10)
    }

    /// A plain constant is served from the box without running its closure; labelled or stacked, it still counts
    /// as a call chaos served.
    @Test func constantsAreServedAndCountedLikeAnyBehaviour() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        let observation = registry.observe()
        defer { observation.cancel() }
        try registry.apply(seam, .constant(5))
        #expect(seam(1) == 5)
        try registry.apply(seam, .match([.when(2, .constant(20))]))
        #expect(seam(2) == 20 && seam(3) == 5)
        #expect(registry.counters("test.stack")?.calls == 3)
        #expect(registry.counters("test.stack")?.chaosCalls == 3)
        registry.revertAll()
        try registry.apply(spec: "return(8)", to: "test.stack")
        #expect(seam(1) == 8)
        #expect(seam.peek(1) == 8)
        #expect(registry.counters("test.stack")?.calls == 4)
    }

    @Test func asyncLayersAnswerNewestFirstAndKeepTheirCounters() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = AsyncSeam<Int, Int, Never>(
            "test.async.stack", title: "Stack", category: "Test", summary: "x", stacking: .merge
        ) { -$0 }
        try registry.register(seam)
        try registry.apply(seam, .first(1, .constant(100)))
        for k in 0..<20 { try registry.apply(seam, .match([.init({ $0 >= k }, .constant(k))])) }
        try registry.apply(seam, .match([.when(-1, .sequence([.constant(1), .constant(2)]))]))
        try registry.apply(seam, .match([.when(-2, .fallback([.probability(0, .constant(0)), .constant(7)]))]))
        #expect(await seam(5) == 5)
        #expect(await seam(50) == 19)
        #expect(await seam(-1) == 1)
        #expect(await seam(-1) == 2)
        #expect(await seam(-1) == 2)
        #expect(await seam(-2) == 7)
        #expect(await seam(-3) == 100)  // reaches first(1)
        #expect(await seam(-3) == 3)
        try registry.apply(seam, .constant(9))
        #expect(await seam(-3) == 9)
    }
}

/// Equality rules in a row (`.when`), in one layer or several, are looked for in one search; what calls get is what
/// rule-by-rule tests would give.
@Suite struct MergeEqualityRunTests {
    private func mergingSeam() -> Seam<Int, Int, Never> {
        Seam<Int, Int, Never>("test.runs", title: "Runs", category: "Test", summary: "x", stacking: .merge) { -$0 }
    }

    @Test func tenLayersOfEqualityRulesAnswerAsEachRuleWould() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        for k in 0..<10 { try registry.apply(seam, .match([.when(k, .constant(100 + k))])) }
        #expect((0..<10).map { seam($0) } == (100..<110).map { $0 })
        #expect(seam(10) == -10)
        try registry.apply(seam, .match([.when(3, .constant(3_000))]))  // newest first
        #expect(seam(3) == 3_000)
    }

    @Test func aRunBrokenByOtherRulesAndUsedUpRulesGoesOnInOrder() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        try registry.apply(seam, .match([.when(1, .constant(10)), .when(2, .constant(20))]))
        try registry.apply(seam, .match([.init({ $0 > 100 }, .constant(1_000))]))  // not an equality: breaks the run
        try registry.apply(seam, .match([.when(2, .first(1, .constant(21))), .when(2, .constant(22))]))
        try registry.apply(seam, .match([.when(1, .first(2, .constant(11)))]))
        #expect(seam(1) == 11)
        #expect(seam(1) == 11)
        #expect(seam(1) == 10)  // used up: past its layer, on through the rest of the run and beyond
        #expect(seam(2) == 21)
        #expect(seam(2) == 20)  // a matched rule that does not fire ends its layer's turn: not 22
        #expect(seam(101) == 1_000)
        #expect(seam(7) == -7)
    }
}
