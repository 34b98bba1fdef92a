import Metrics
import MetricsTestKit
import Mischief
import MischiefMetrics
import MischiefTestSupport
import Testing

@Suite struct SeamMetricsTests {
    let registry = Registry(sessionSeed: 1)
    let seam = Seam<Int, Int, any Error>("server.price", title: "Price", category: "Server", summary: "") { $0 }
    let backend = TestMetrics()
    let seamDimension = [("seam", "server.price")]

    init() throws { try registry.register(seam) }

    @Test func callsChaosCallsAndErrorsAreCountersWithTheSeamAsADimension() throws {
        let metrics = SeamMetrics(registry: registry, factory: backend)
        let observation = registry.observe()
        defer { observation.cancel() }
        for _ in 0..<3 { _ = try seam(1) }
        try registry.apply(spec: #"throw("down")"#, to: "server.price")
        for _ in 0..<2 { _ = try? seam(1) }
        metrics.report()
        #expect(try backend.expectCounter("mischief_seam_calls", seamDimension).totalValue == 5)
        #expect(try backend.expectCounter("mischief_seam_chaos_calls", seamDimension).totalValue == 2)
        #expect(try backend.expectCounter("mischief_seam_errors", seamDimension).totalValue == 2)
        #expect(try backend.expectMeter("mischief_seam_in_flight", seamDimension).lastValue == 0)
        #expect(try backend.expectMeter("mischief_seam_held", seamDimension).lastValue == 0)
        #expect(try backend.expectMeter("mischief_layers_active").lastValue == 1)
        // A second report adds only what happened since the first.
        _ = try? seam(1)
        metrics.report()
        #expect(try backend.expectCounter("mischief_seam_calls", seamDimension).totalValue == 6)
        registry.revert(seam: "server.price")
        metrics.report()
        #expect(try backend.expectMeter("mischief_layers_active").lastValue == 0)
    }

    /// A behaviour applied and reverted between two reports, with nothing else reading the counters: its calls are
    /// reported all the same (they were lost before: the registry read only seams with something applied).
    @Test func chaosAppliedAndRevertedBetweenTwoReportsIsReported() throws {
        let metrics = SeamMetrics(registry: registry, factory: backend)
        metrics.report()
        try registry.apply(spec: #"throw("down")"#, to: "server.price")
        for _ in 0..<3 { _ = try? seam(1) }
        registry.revert(seam: "server.price")
        metrics.report()
        #expect(try backend.expectCounter("mischief_seam_calls", seamDimension).totalValue == 3)
        #expect(try backend.expectCounter("mischief_seam_chaos_calls", seamDimension).totalValue == 3)
        #expect(try backend.expectCounter("mischief_seam_errors", seamDimension).totalValue == 3)
    }

    @Test func aCounterResetIsAFreshStartNotANegativeIncrement() throws {
        let metrics = SeamMetrics(registry: registry, factory: backend)
        let observation = registry.observe()
        defer { observation.cancel() }
        for _ in 0..<4 { _ = try seam(1) }
        metrics.report()
        _ = try registry.resetCounters("server.price")
        _ = try seam(1)
        metrics.report()
        let counter = try backend.expectCounter("mischief_seam_calls", seamDimension)
        #expect(counter.totalValue == 5)
        #expect(counter.values.allSatisfy { $0 >= 0 })
    }

    @Test func withoutAnObserverOnlyChaosIsCountedUnlessItCountsCalls() async throws {
        for _ in 0..<3 { _ = try seam(1) }
        SeamMetrics(registry: registry, factory: backend).report()
        #expect(try backend.expectCounter("mischief_seam_calls", seamDimension).totalValue == 0)

        let counting = SeamMetrics(registry: registry, interval: .milliseconds(10), countsCalls: true, factory: backend)
        let task = Task { await counting.run() }
        try await Poll.until("the reporter to turn counting on", timeout: .seconds(30), lastSeen: { "not counting" }) {
            registry.snapshot().isCounting ? true : nil
        }
        for _ in 0..<3 { _ = try seam(1) }
        task.cancel()
        await task.value
        // The last report, made as it ended, has the calls; and counting is off again.
        #expect(try backend.expectCounter("mischief_seam_calls", seamDimension).totalValue == 3)
        #expect(!registry.snapshot().isCounting)
    }
}
