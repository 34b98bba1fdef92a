import Foundation
import Mischief

/// What recording each chaos call's decision adds to a chaos call: `50%return(7)` on the int seam, recorded (to
/// /dev/null, so counting is on in both) with decisions and without, in bursts of 2,048 calls (half a seam's buffer) with the
/// buffer read between bursts, untimed, as the registry's thread does every 100 ms in a program that calls a seam
/// less often than a tight loop.
enum Decisions {
    static let burst = 2_048

    /// Nanoseconds per chaos call over `calls` calls, timing the bursts only.
    static func nanoseconds(calls: Int, decisions: Bool) throws -> Double {
        let registry = PerCall.registry
        PerCall.reset()
        try registry.apply(spec: "50%return(7)", to: "bench.int")
        defer { registry.revertAll() }
        let recorder = try registry.startRecording(toFile: "/dev/null", decisions: decisions ? .max : 0)
        defer { recorder.stop() }
        let clock = ContinuousClock()
        var elapsed = Duration.zero
        var done = 0
        var sum = 0
        while done < calls {
            let count = min(burst, calls - done)
            let start = clock.now
            for index in 0..<count { sum &+= PerCall.intSeam(index) }
            elapsed += clock.now - start
            recorder.flush()
            done += count
        }
        blackhole(sum)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return seconds * 1e9 / Double(calls)
    }

    /// Both, interleaved over `rounds`, medians, and the difference against its goal (≤ +10 ns).
    static func run(calls: Int, rounds: Int) throws {
        _ = PerCall.cases  // registers the seams
        var without: [Double] = []
        var with: [Double] = []
        for _ in 0..<rounds {
            without.append(try nanoseconds(calls: calls, decisions: false))
            with.append(try nanoseconds(calls: calls, decisions: true))
        }
        let base = Measure.median(without)
        let value = Measure.median(with)
        Table.row("seam, 50%return(7), recorded without decisions", String(format: "%.1f ns", base), "1.00×")
        Table.row(
            "seam, 50%return(7), recorded with each decision", String(format: "%.1f ns", value),
            String(format: "%.2f× (%+.1f ns)", value / base, value - base) + Goal.over(10).verdict(value, base))
    }
}
