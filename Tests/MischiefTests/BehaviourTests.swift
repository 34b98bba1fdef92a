import Mischief
import Testing

@Suite struct BehaviourTests {
    @Test func originalRunsWhenNothingIsApplied() throws {
        let f = try Fixture()
        #expect(f.double(21) == 42)
        try f.registry.apply(f.double, .original)
        #expect(f.double(21) == 42)
    }

    @Test func constantReplacesTheOriginal() throws {
        let f = try Fixture()
        let applied = try f.registry.apply(f.double, .constant(7))
        #expect(f.double(1) == 7 && f.double(100) == 7)
        f.registry.revert(applied)
        #expect(f.double(1) == 2)
    }

    @Test func returningNilOnlyWhereTheOutputIsOptional() throws {
        let f = try Fixture()
        try f.registry.apply(f.optional, .returningNil)
        #expect(f.optional() == nil)
        #expect(f.registry.snapshot().seam("test.optional")?.behaviourText == "nil")
    }

    @Test func closureSeesInputIndexAndOriginal() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .closure { call in call.index * 1000 + call.original(call.input + 1) })
        #expect(f.double(1) == 4)  // index 0, original(2)
        #expect(f.double(1) == 1004)
        #expect(f.double(5) == 2012)
    }

    @Test func randomIsSeededAndRepeatable() throws {
        let first = try Fixture()
        let second = try Fixture()
        try first.registry.apply(first.double, .random(seed: 7))
        try second.registry.apply(second.double, .random(seed: 7))
        let a = (0..<20).map { _ in first.double(0) }
        let b = (0..<20).map { _ in second.double(0) }
        #expect(a == b)
        #expect(Set(a).count > 3)
        #expect(first.registry.snapshot().seam("test.double")?.seeds == [7])
    }

    @Test func randomWithoutASeedTakesOneFromTheSessionSeedAndReportsIt() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .random())
        let seeds = try #require(f.registry.snapshot().seam("test.double")?.seeds)
        #expect(seeds.count == 1)
        #expect(f.registry.events().last?.message.contains("seed \(seeds[0])") == true)
        // Same session seed, same behaviour: same seed and same values.
        let g = try Fixture()
        try g.registry.apply(g.double, .random())
        #expect(g.registry.snapshot().seam("test.double")?.seeds == seeds)
        #expect((0..<5).map { _ in f.double(0) } == (0..<5).map { _ in g.double(0) })
    }

    @Test func randomStringsAndBooleansAreBuiltIn() throws {
        let registry = Registry(sessionSeed: 1)
        let name = Seam<Void, String, Never>("t.name", title: "", category: "", summary: "") { "Ann" }
        let flag = Seam<Void, Bool, Never>("t.flag", title: "", category: "", summary: "") { true }
        try registry.register(name, flag)
        try registry.apply([Change(name, .random(seed: 3)), Change(flag, .random(seed: 3))])
        let names = Set((0..<30).map { _ in name() })
        let flags = Set((0..<30).map { _ in flag() })
        #expect(names.count > 5)
        #expect(flags == [true, false])
    }

    @Test func throwingOnAThrowingSeam() throws {
        let f = try Fixture()
        try f.registry.apply(f.parse, .throwing(Boom()))
        #expect(throws: Boom.self) { try f.parse("1") }
        try f.registry.apply(f.parse, .throwing(message: "bad input"))
        #expect(throws: InjectedError("bad input")) { try f.parse("1") }
    }

    @Test func throwingOnASeamThatCannotThrowIsRefusedAtApplyTime() throws {
        let f = try Fixture()
        #expect(
            throws: MischiefError.unsupported(
                "test.double",
                """
                this seam cannot throw, so 'throw("nope")' cannot apply here
                """)
        ) {
            try f.registry.apply(f.double, .throwing(message: "nope"))
        }
        #expect(f.double(2) == 4)
        #expect(f.registry.events().last?.kind == .refused)
    }

    @Test func sequenceGivesTheIthCallTheIthBehaviourAndRepeatsTheLast() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .sequence([.constant(1), .original, .constant(3)]))
        #expect([f.double(10), f.double(10), f.double(10), f.double(10)] == [1, 20, 3, 3])
    }

    @Test func emptySequenceIsRefused() throws {
        let f = try Fixture()
        #expect(throws: MischiefError.unsupported("test.double", "seq() needs at least one behaviour")) {
            try f.registry.apply(f.double, .sequence([]))
        }
    }

    @Test func matchTakesTheFirstMatchingRuleElseFallsThrough() throws {
        let f = try Fixture()
        try f.registry.apply(
            f.double,
            .match([.init({ $0 < 0 }, .constant(0)), .when(5, .constant(55)), .init({ $0 < 10 }, .constant(9))]))
        #expect(f.double(-3) == 0)
        #expect(f.double(5) == 55)
        #expect(f.double(7) == 9)
        #expect(f.double(50) == 100)  // no rule: the original
    }

    @Test func matchUsesItsFallbackWhenGiven() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .match([.when(1, .constant(-1))], otherwise: .constant(0)))
        #expect(f.double(1) == -1 && f.double(2) == 0)
    }

    @Test func probabilityZeroNeverFiresAndHundredAlwaysDoes() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .probability(0, .constant(0)))
        #expect((0..<200).allSatisfy { _ in f.double(1) == 2 })
        try f.registry.apply(f.double, .probability(100, .constant(0)))
        #expect((0..<200).allSatisfy { _ in f.double(1) == 0 })
    }

    @Test func probabilityFiresAboutThatOftenAndRepeatsWithTheSeed() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .probability(30, .constant(0), seed: 99))
        let hits = (0..<2000).map { _ in f.double(1) == 0 }
        let rate = Double(hits.filter { $0 }.count) / 2000
        #expect(rate > 0.25 && rate < 0.35)
        let g = try Fixture()
        try g.registry.apply(g.double, .probability(30, .constant(0), seed: 99))
        #expect((0..<2000).map { _ in g.double(1) == 0 } == hits)
    }

    @Test func firstNCallsThenFallsThrough() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .first(2, .constant(0)))
        #expect([f.double(1), f.double(1), f.double(1)] == [0, 0, 2])
        let counters = try #require(f.registry.counters("test.double"))
        #expect(counters.chaosCalls == 2)
    }

    @Test func transformMapsTheOriginalsOutput() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .transform { $0 + 1 })
        #expect(f.double(5) == 11)
    }

    @Test func delayBlocksASynchronousSeamThenRunsTheRest() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .constant(3).delayed(by: .milliseconds(20)))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(f.double(1) == 3)
        #expect(clock.now - start >= .milliseconds(20))
        #expect(f.registry.snapshot().seam("test.double")?.behaviourText == "delay(20ms) + return(3)")
    }

    @Test func behavioursCompose() throws {
        let f = try Fixture()
        // The first three calls go through a sequence; after that the original.
        try f.registry.apply(f.double, .first(3, .sequence([.constant(1), .constant(2)])))
        #expect((0..<5).map { _ in f.double(10) } == [1, 2, 2, 20, 20])
        // A fallback chain: the first two calls fail, then a constant.
        try f.registry.apply(f.parse, .first(2, .throwing(Boom())).otherwise(.constant(0)))
        #expect(throws: Boom.self) { try f.parse("5") }
        #expect(throws: Boom.self) { try f.parse("5") }
        #expect(try f.parse("5") == 0)
    }

    @Test func offStopsAFallbackChain() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .fallback([.original, .constant(0)]))
        #expect(f.double(4) == 8)
    }

    @Test func descriptionsReadLikeSpecs() {
        typealias B = Behaviour<Int, Int, any Error>
        #expect(B.constant(1).description == "return(1)")
        #expect(B.first(3, .constant(1)).otherwise(.original).description == "3*return(1) -> off")
        #expect(B.probability(12.5, .throwing(message: "x")).description == #"12.5%throw("x")"#)
        #expect(B.sequence([.constant(1), .delay(.seconds(2))]).description == "seq(return(1), delay(2s))")
        #expect(
            B.probability(50, .constant(1).delayed(by: .milliseconds(250))).description
                == "50%seq(delay(250ms) + return(1))")
        #expect(Behaviour<Void, String, Never>.constant("a\"b").description == #"return("a\"b")"#)
        #expect(B.constant(1).labelled("shift(1d)").description == "shift(1d)")
    }
}

@Suite struct SeededGeneratorTests {
    @Test func matchesTheReferenceSplitMix64Sequence() {
        // First outputs of Vigna's splitmix64.c for seed 0.
        var generator = SeededGenerator(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func mixingIsDeterministicAndSensitive() {
        var first = SeededGenerator(mixing: 1, 2, 3)
        var second = SeededGenerator(mixing: 1, 2, 3)
        var other = SeededGenerator(mixing: 1, 2, 4)
        let a = first.next()
        #expect(a == second.next() && a != other.next())
    }

    @Test func unitsAndIndicesStayInRange() {
        var generator = SeededGenerator(seed: 9)
        #expect((0..<1_000).allSatisfy { _ in (0..<7).contains(generator.index(below: 7)) })
        #expect((0..<1_000).allSatisfy { _ in (0.0..<1.0).contains(generator.nextUnit()) })
    }
}
