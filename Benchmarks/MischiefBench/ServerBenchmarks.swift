import Foundation
import Logging
import Metrics
import Mischief
import MischiefLogging
import MischiefMetrics

/// What the server products cost a seam's call: the same seam called without and with an ``EventLogger`` and a
/// ``SeamMetrics`` reporter running (reading at its default interval of a second, and every millisecond as a stress,
/// into a metrics backend that keeps what it is given), rounds interleaved, best of each. With nothing applied, with
/// counting on (what a serving control server does) and with a behaviour applied. Both run off the hot path, so each
/// ratio's goal is 1 within noise; the stress's reporter also takes a core's share on a small machine.
///
///     swift run -c release mischief-bench --server
enum ServerBenchmarks {
    static let iterations = 20_000_000
    static let rounds = 11

    @inline(never)
    static func calls(_ count: Int, _ seam: Seam<Int, Int, Never>) -> Double {
        var sum = 0
        let start = ContinuousClock.now
        for index in 0..<count { sum &+= seam(index) }
        let elapsed = ContinuousClock.now - start
        blackhole(sum)
        return (Double(elapsed.components.seconds) * 1e18 + Double(elapsed.components.attoseconds)) / 1e9
            / Double(count)
    }

    /// Runs `body` with the event logger and the metrics reporter following `registry` on tasks of their own.
    static func withIntegration(_ registry: Registry, every interval: Duration, _ body: () throws -> Void) rethrows {
        var logger = Logger(label: "bench") { _ in StreamLogHandler.standardError(label: "bench") }
        logger.logLevel = .critical  // the records are made and filtered, as a production level would
        let events = EventLogger(registry: registry, logger: logger)
        let metrics = SeamMetrics(registry: registry, interval: interval, factory: KeepingMetrics())
        metrics.report()
        let tasks = [Task.detached { await events.run() }, Task.detached { await metrics.run() }]
        defer {
            for task in tasks { task.cancel() }
        }
        // The tasks start on the pool's threads meanwhile; measuring waits for that, which is not the hot path's cost.
        Thread.sleep(forTimeInterval: 0.02)
        try body()
    }

    static func report() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Never>("bench.server", title: "Trivial", category: "Bench", summary: "x + 1") {
            trivial($0)
        }
        try registry.register(seam)
        let states: [(String, () throws -> Observation?)] = [
            ("nothing applied", { nil }),
            ("counting (a control server serving)", { registry.observe() }),
            (
                "return(7) applied",
                {
                    try registry.apply(spec: "return(7)", to: "bench.server")
                    return nil
                }
            ),
        ]
        var best: [String: Double] = [:]
        func keep(_ name: String, _ value: Double) { best[name] = min(best[name] ?? .infinity, value) }
        for round in 0..<rounds {
            for (state, setUp) in states {
                var observation = try setUp()
                // Without first in even rounds, last in odd ones, so neither side has the order's advantage.
                if round % 2 == 0 { keep("\(state), without", calls(iterations, seam)) }
                try withIntegration(registry, every: .seconds(1)) { keep("\(state), with", calls(iterations, seam)) }
                try withIntegration(registry, every: .milliseconds(1)) {
                    keep("\(state), stress", calls(iterations, seam))
                }
                if round % 2 == 1 { keep("\(state), without", calls(iterations, seam)) }
                observation?.cancel()
                observation = nil
                registry.revertAll()
            }
        }
        print("server products (best of \(rounds) interleaved rounds of \(iterations) calls)")
        print("                                           without ns   with ns   ratio   1 ms poll ns   ratio")
        for (state, _) in states {
            let without = best["\(state), without"]!
            let with = best["\(state), with"]!
            let stress = best["\(state), stress"]!
            print(
                state.padding(toLength: 40, withPad: " ", startingAt: 0)
                    + String(
                        format: "%13.2f %9.2f %7.3f %14.2f %7.3f", without, with, with / without, stress,
                        stress / without))
        }
        print("goal: every ratio 1 within noise (the logger and the reporter never run on a seam's call)")
    }
}

/// A metrics backend that keeps the last value of each metric, as a real one would.
final class KeepingMetrics: MetricsFactory, @unchecked Sendable {
    private final class Handler: CounterHandler, MeterHandler, RecorderHandler, TimerHandler, @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0.0
        func increment(by amount: Int64) { lock.withLock { value += Double(amount) } }
        func reset() { lock.withLock { value = 0 } }
        func set(_ value: Int64) { lock.withLock { self.value = Double(value) } }
        func set(_ value: Double) { lock.withLock { self.value = value } }
        func increment(by amount: Double) { lock.withLock { value += amount } }
        func decrement(by amount: Double) { lock.withLock { value -= amount } }
        func record(_ value: Int64) { set(value) }
        func record(_ value: Double) { set(value) }
        func recordNanoseconds(_ duration: Int64) { set(duration) }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { Handler() }
    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { Handler() }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        Handler()
    }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { Handler() }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}
