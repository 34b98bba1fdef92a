import Synchronization
import Testing

@testable import Mischief

/// A seam declared with the value its original always gives works out a change of that value once, when the change
/// is applied, and then serves it as a constant; a seam with an original function runs the change on every call.
@Suite struct ValueSeamTests {
    /// A change that counts how often it runs.
    private final class Tally: Sendable {
        let runs = Atomic<Int>(0)
        func plusOne(_ value: Int) -> Int {
            runs.add(1, ordering: .relaxed)
            return value + 1
        }
    }

    @Test func aChangeOfAFixedValueRunsOnceWhenApplied() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Void, Int, Never>("test.value", title: "V", category: "Test", summary: "x", value: 10)
        try registry.register(seam)
        let tally = Tally()
        try registry.apply(seam, .transform(tally.plusOne).labelled("plus one"))
        #expect(tally.runs.load(ordering: .relaxed) == 1)
        #expect([seam(), seam(), seam()] == [11, 11, 11])
        #expect(tally.runs.load(ordering: .relaxed) == 1)
        #expect(registry.snapshot().seam("test.value")?.behaviourText == "plus one")  // described as applied

        // Over a constant, through a label: still one value, worked out once.
        try registry.apply(seam, Behaviour.constant(5).map(tally.plusOne).map(tally.plusOne))
        #expect(tally.runs.load(ordering: .relaxed) == 3)
        #expect([seam(), seam()] == [7, 7])
        #expect(tally.runs.load(ordering: .relaxed) == 3)
    }

    @Test func aChangeOfAnOriginalFunctionRunsOnEveryCall() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Void, Int, Never>("test.function", title: "F", category: "Test", summary: "x") { 10 }
        try registry.register(seam)
        let tally = Tally()
        try registry.apply(seam, .transform(tally.plusOne))
        #expect([seam(), seam(), seam()] == [11, 11, 11])
        #expect(tally.runs.load(ordering: .relaxed) == 3)
    }

    /// Only a change of the value itself is worked out in advance: behaviours around it keep their per-call
    /// meaning.
    @Test func behavioursAroundAChangeStillDecideEachCall() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Void, Int, Never>("test.value", title: "V", category: "Test", summary: "x", value: 10)
        try registry.register(seam)
        let tally = Tally()
        try registry.apply(seam, .first(2, .transform(tally.plusOne)))
        #expect([seam(), seam(), seam()] == [11, 11, 10])
        #expect(tally.runs.load(ordering: .relaxed) == 2)
    }
}
