import Foundation
import Mischief
import MischiefCatalog
import MischiefSystem

/// What `system.clock` costs a plain `Date()`, against plain `Date()` measured in the same run, rounds interleaved:
/// installed with nothing applied, shifted, frozen; and the catalogue clock's `date`, which reads the real clock
/// through Mischief's own path (`RealClock`) since system seams exist.
///
///     swift run -c release mischief-bench --system
enum SystemBenchmarks {
    static let iterations = 5_000_000
    static let rounds = 7

    @inline(never)
    static func dates(_ count: Int, _ read: () -> Date) -> Double {
        var sum = 0.0
        let start = ContinuousClock.now
        for _ in 0..<count { sum += read().timeIntervalSinceReferenceDate }
        let elapsed = ContinuousClock.now - start
        blackhole(sum)
        return Double(elapsed.components.attoseconds) / 1e9 / Double(count)
            + Double(elapsed.components.seconds) * 1e9 / Double(count)
    }

    static func report() throws {
        let registry = Registry(sessionSeed: 1)
        let clock = ChaosClock(id: "bench.clock")
        try registry.register(clock.seam)
        var best: [String: Double] = [:]
        func keep(_ name: String, _ value: Double) { best[name] = min(best[name] ?? .infinity, value) }
        for _ in 0..<rounds {
            keep("Date()", dates(iterations) { Date() })
            keep("ChaosClock.date, nothing applied", dates(iterations) { clock.date })
            try SystemSeams.install([.clock], in: registry)
            keep("Date(), system.clock installed, nothing applied", dates(iterations) { Date() })
            try registry.apply(spec: "shift(+1d)", to: SystemSeams.clockID)
            keep("Date(), system.clock shift(+1d)", dates(iterations) { Date() })
            try registry.apply(spec: "freeze(2030-01-01T00:00:00Z)", to: SystemSeams.clockID)
            keep("Date(), system.clock freeze", dates(iterations) { Date() })
            SystemSeams.uninstall()
        }
        let base = best["Date()"]!
        print("system seams (best of \(rounds) interleaved rounds of \(iterations) calls)      ns/call   × Date()")
        for name in [
            "Date()", "Date(), system.clock installed, nothing applied", "Date(), system.clock shift(+1d)",
            "Date(), system.clock freeze", "ChaosClock.date, nothing applied",
        ] {
            let value = best[name]!
            print(
                name.padding(toLength: 62, withPad: " ", startingAt: 0)
                    + String(format: "%8.2f   %6.3f", value, value / base))
        }
    }
}
