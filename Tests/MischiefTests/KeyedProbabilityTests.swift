import Mischief
import Testing

/// `p%@key`: a probability drawn once per ``ChaosKey``, so "10% of users" is the same users every time.
@Suite struct KeyedProbabilityTests {
    /// The keys of `count` users: `user-0`, `user-1`, …
    static func users(_ count: Int) -> [String] { (0..<count).map { "user-\($0)" } }

    /// Which of `keys` the behaviour applied to `seam` fires for (one call each).
    static func chosen(_ keys: [String], _ seam: Seam<Int, Int, Never>) -> Set<String> {
        Set(keys.filter { key in ChaosKey.$current.withValue(key) { seam(1) == 0 } })
    }

    @Test(arguments: [1, 2, 42] as [UInt64])
    func tenPercentOfTenThousandKeysFire(seed: UInt64) throws {
        let f = try Fixture(sessionSeed: seed)
        try f.registry.apply(spec: "10%@key return(0)", to: "test.double")
        let share = Double(Self.chosen(Self.users(10_000), f.double).count) / 10_000
        #expect(share > 0.09 && share < 0.11, "seed \(seed): \(share)")
    }

    @Test func theSameKeyGetsTheSameAnswerOnEveryCall() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "30%@key return(0)", to: "test.double")
        var answers: Set<Bool> = []
        for key in Self.users(50) {
            let calls = ChaosKey.$current.withValue(key) { (0..<100).map { _ in f.double(1) == 0 } }
            #expect(Set(calls).count == 1, "\(key) got both answers")
            answers.insert(calls[0])
        }
        #expect(answers == [true, false])
    }

    @Test func theSameSessionSeedChoosesTheSameKeysAndAnotherSeedOthers() throws {
        let keys = Self.users(1000)
        func chosen(sessionSeed: UInt64) throws -> Set<String> {
            let f = try Fixture(sessionSeed: sessionSeed)
            try f.registry.apply(spec: "10%@key return(0)", to: "test.double")
            return Self.chosen(keys, f.double)
        }
        let first = try chosen(sessionSeed: 7)
        #expect(try chosen(sessionSeed: 7) == first)
        let other = try chosen(sessionSeed: 8)
        #expect(other != first)
        #expect(first.intersection(other).count < 40)  // independent draws share ~1% of 1000
    }

    @Test func aCallWithoutAKeyNeverFires() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .probability(100, per: .key, .constant(0)))
        #expect(f.double(1) == 2)
        #expect(ChaosKey.$current.withValue("") { f.double(1) } == 2)
        #expect(ChaosKey.$current.withValue("user-1") { f.double(1) } == 0)
        // A fallback still runs for the calls the keyed term leaves.
        try f.registry.apply(spec: "100%@key return(0) -> return(5)", to: "test.double")
        #expect(f.double(1) == 5)
    }

    @Test func withOneSeedHigherPercentagesKeepTheKeysOfLowerOnesOnAnySeam() throws {
        let f = try Fixture()
        let other = Seam<Int, Int, Never>("test.other", title: "Other", category: "Test", summary: "x") { $0 }
        try f.registry.register(other)
        try f.registry.apply(f.double, .probability(5, per: .key, .constant(0), seed: 9))
        try f.registry.apply(other, .probability(10, per: .key, .constant(0), seed: 9))
        let keys = Self.users(2000)
        let few = Self.chosen(keys, f.double)
        let more = Self.chosen(keys, other)
        #expect(!few.isEmpty && few.isSubset(of: more) && more.count > few.count)
    }

    @Test func withoutASeedEachRuleChoosesItsOwnKeys() throws {
        let f = try Fixture()
        let other = Seam<Int, Int, Never>("test.other", title: "Other", category: "Test", summary: "x") { $0 }
        try f.registry.register(other)
        try f.registry.apply(spec: "10%@key return(0)", to: "test.double")
        try f.registry.apply(spec: "10%@key return(0)", to: "test.other")
        let keys = Self.users(2000)
        #expect(Self.chosen(keys, f.double) != Self.chosen(keys, other))
    }

    @Test func anExplicitSeedChoosesOtherKeysWhateverTheSessionSeed() throws {
        let keys = Self.users(1000)
        func chosen(sessionSeed: UInt64, seed: UInt64?) throws -> Set<String> {
            let f = try Fixture(sessionSeed: sessionSeed)
            try f.registry.apply(f.double, .probability(10, per: .key, .constant(0), seed: seed))
            return Self.chosen(keys, f.double)
        }
        let seeded = try chosen(sessionSeed: 1, seed: 99)
        #expect(try chosen(sessionSeed: 2, seed: 99) == seeded)
        #expect(try chosen(sessionSeed: 1, seed: nil) != seeded)
    }

    @Test func aCountCombinedWithAKeyedProbabilityCountsTheChosenKeysCalls() throws {
        let f = try Fixture()
        // One seed, so both behaviours choose the same keys.
        try f.registry.apply(f.double, .probability(50, per: .key, .constant(0), seed: 5))
        let keys = Self.users(40)
        let chosen = Self.chosen(keys, f.double)
        let inside = try #require(keys.first { chosen.contains($0) })
        let outside = try #require(keys.first { !chosen.contains($0) })
        try f.registry.apply(f.double, .probability(50, per: .key, .first(2, .constant(0)), seed: 5))
        // Calls for keys outside the share do not use up the count; the chosen keys share it.
        #expect(ChaosKey.$current.withValue(outside) { f.double(1) } == 2)
        #expect(ChaosKey.$current.withValue(inside) { [f.double(1), f.double(1), f.double(1)] } == [0, 0, 2])
        #expect(ChaosKey.$current.withValue(outside) { f.double(1) } == 2)
    }

    @Test func asyncSeamsReadTheKeyOfTheirTaskAndItsChildren() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "10%@key return(\"chosen\")", to: "test.fetch")
        var chosen: Set<String> = []
        for key in Self.users(1000) {
            let answers = try await ChaosKey.$current.withValue(key) {
                let child = Task { try await f.fetch(1) }
                return [try await f.fetch(1), try await f.fetch(1), try await child.value]
            }
            #expect(Set(answers).count == 1, "\(key): \(answers)")
            if answers[0] == "chosen" { chosen.insert(key) }
        }
        #expect(chosen.count > 60 && chosen.count < 140)
        #expect(try await f.fetch(1) == "item 1")  // no key
        // Another registry with the same session seed chooses the same keys.
        let g = try Fixture()
        try g.registry.apply(spec: "10%@key return(\"chosen\")", to: "test.fetch")
        for key in Self.users(200) {
            let answer = try await ChaosKey.$current.withValue(key) { try await g.fetch(1) }
            #expect((answer == "chosen") == chosen.contains(key), "\(key)")
        }
    }

    @Test func anInnerKeyReplacesTheOuterOne() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "50%@key return(0)", to: "test.double")
        let keys = Self.users(40)
        let inside = try #require(keys.first { ChaosKey.$current.withValue($0) { f.double(1) == 0 } })
        let outside = try #require(keys.first { ChaosKey.$current.withValue($0) { f.double(1) == 2 } })
        ChaosKey.$current.withValue(outside) {
            #expect(ChaosKey.$current.withValue(inside) { f.double(1) } == 0)
            #expect(f.double(1) == 2)
        }
    }

    @Test func keyedBehavioursPrintTheirScope() throws {
        typealias B = Behaviour<Int, Int, Never>
        #expect(B.probability(10, per: .key, .constant(0)).description == "10%@key return(0)")
        #expect(B.probability(10, per: .key, .first(3, .constant(0))).description == "10%@key 3*return(0)")
        #expect(B.constant(0).probability(25, per: .key).description == "25%@key return(0)")
        let f = try Fixture()
        try f.registry.apply(spec: "10 % @key 3* return(0) -> off", to: "test.double")
        #expect(f.registry.snapshot().seam("test.double")?.behaviourText == "10%@key 3*return(0) -> off")
        #expect(throws: MischiefError.self) { try f.registry.apply(spec: "return(0) + 10%@key off", to: "test.double") }
    }
}
