import Mischief
import Testing

/// A counted call that ends in an error is an error, whoever threw it: a behaviour, the original, or the caller
/// reporting a failure it learnt of afterwards.
@Suite struct ErrorCountingTests {
    struct Refused: Error {}

    @Test func anOriginalThatThrowsCountsAnErrorWhileCalled() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Refused>("errors.sync", title: "T", category: "C", summary: "") {
            (input: Int) throws(Refused) -> Int in
            if input < 0 { throw Refused() }
            return input
        }
        try registry.register(seam)
        let observation = registry.observe()
        defer { withExtendedLifetime(observation) {} }
        #expect(throws: Refused.self) { try seam(-1) }
        #expect(try seam(1) == 1)
        let counters = try #require(registry.snapshot().seam("errors.sync")).counters
        #expect(counters.calls == 2)
        #expect(counters.errors == 1)
    }

    @Test func anAsyncOriginalThatThrowsCountsAnError() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = AsyncSeam<Int, Int, Refused>("errors.async", title: "T", category: "C", summary: "") {
            (input: Int) throws(Refused) -> Int in
            if input < 0 { throw Refused() }
            return input
        }
        try registry.register(seam)
        let observation = registry.observe()
        defer { withExtendedLifetime(observation) {} }
        await #expect(throws: Refused.self) { try await seam(-1) }
        #expect(try await seam(1) == 1)
        let counters = try #require(registry.snapshot().seam("errors.async")).counters
        #expect((counters.calls, counters.errors) == (2, 1))
    }

    @Test func aReportedFailureCountsOnlyWhileCallsAreCounted() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Void, Int, Never>("errors.reported", title: "T", category: "C", summary: "") { 1 }
        try registry.register(seam)
        _ = seam()
        seam.countFailure()  // nobody counts: errors never outnumber calls
        #expect(try #require(registry.snapshot().seam("errors.reported")).counters.errors == 0)
        let observation = registry.observe()
        defer { withExtendedLifetime(observation) {} }
        _ = seam()
        seam.countFailure()
        let counters = try #require(registry.snapshot().seam("errors.reported")).counters
        #expect((counters.calls, counters.errors) == (1, 1))
    }
}
