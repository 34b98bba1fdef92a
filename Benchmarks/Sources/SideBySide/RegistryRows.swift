import Foundation
import Mischief

/// Issue 47's structural rows, each with its goal and verdict, measured as users write the code: from this module,
/// through `Registry.shared`, with the README's spelling (`Seam(…)`, `register`, `apply`, `snapshot()`).
///
///     SIDE_BY_SIDE_SECTIONS=registry Benchmarks/run.sh
enum RegistryRows {
    /// A row: its name, the figure, the goal and whether it is met.
    struct Row {
        let name: String
        let value: String
        let goal: String
        let met: Bool
    }

    /// Every row, in an order that keeps them apart: the applies and the merge layers on a registry of a few seams,
    /// then memory and snapshots with 100,000 more.
    static func measure(calls: Int, rounds: Int) -> [Row] {
        let many = manySeams(100_000)  // first, so that its memory is new memory, not what earlier rows freed
        return [many.memory, many.snapshot, applies(10_000), mergeLayers(calls: calls, rounds: rounds)]
    }

    /// 10,000 applies left active on one (replacing) seam: microseconds an apply over the last 1,000, and over all.
    static func applies(_ count: Int) -> Row {
        let seam = Seam<Int, Int, Never>(
            "bench47.applies", title: "Applies", category: "Bench", summary: "x + 1"
        ) { $0 &+ 1 }
        try! Registry.shared.register(seam)
        let clock = ContinuousClock()
        var all = Duration.zero
        var last = Duration.zero
        var handles: [Applied] = []
        handles.reserveCapacity(count)
        for index in 0..<count {
            let began = clock.now
            handles.append(try! Registry.shared.apply(seam, .constant(index)))
            let took = clock.now - began
            all += took
            if index >= count - 1_000 { last += took }
        }
        precondition(seam(1) == count - 1, "the newest layer answers")
        Registry.shared.revert(seam: seam.info.id)
        let lastMicroseconds = microseconds(last) / 1_000
        return Row(
            name: "\(count) applies left active on one seam, an apply (last 1,000)",
            value: String(format: "%.1f µs (all: %.1f µs)", lastMicroseconds, microseconds(all) / Double(count)),
            goal: "≤ 20 µs", met: lastMicroseconds <= 20)
    }

    /// Calls through 10 stacked `merge` layers against calls through one, interleaved, medians.
    static func mergeLayers(calls: Int, rounds: Int) -> Row {
        var one: [Double] = []
        var ten: [Double] = []
        for _ in 0..<rounds {
            one.append(mergeNanoseconds(layers: 1, calls: calls))
            ten.append(mergeNanoseconds(layers: 10, calls: calls))
        }
        let ratio = Measure.median(ten) / Measure.median(one)
        return Row(
            name: "10 merge layers on one seam (no rule matches), a call",
            value: String(
                format: "%.1f ns, %.2f× one layer's %.1f ns", Measure.median(ten), ratio, Measure.median(one)),
            goal: "≤ 2×", met: ratio <= 2)
    }

    static let rules = Seam<Int, Int, Never>(
        "bench47.rules", title: "Rules", category: "Bench", summary: "merging rules", stacking: .merge
    ) { $0 &+ 1 }

    static func mergeNanoseconds(layers: Int, calls: Int) -> Double {
        try! Registry.shared.register(rules)
        for index in 0..<layers { try! Registry.shared.apply(rules, .match([.when(-1 - index, .constant(0))])) }
        defer { Registry.shared.revert(seam: rules.info.id) }
        return Measure.nanosecondsPerCall(calls) { n in
            var sum = 0
            for index in 0..<n { sum &+= rules(index) }
            blackhole(sum)
        }
    }

    /// Memory a registered seam takes (the seam included: what a program that declares and registers it pays), and
    /// `snapshot()` of them all while a console observes (counting every seam).
    static func manySeams(_ count: Int) -> (memory: Row, snapshot: Row) {
        let residentBefore = Measure.residentMiB()
        var seams: [Seam<Int, Int, Never>] = []
        seams.reserveCapacity(count)
        for index in 0..<count {
            let seam = Seam<Int, Int, Never>(
                try! SeamID("bench47.many.s\(index)"), title: "Seam \(index)", category: "Bench", summary: "x + 1"
            ) { $0 &+ 1 }
            try! Registry.shared.register(seam)
            seams.append(seam)
        }
        let perSeam = (Measure.residentMiB() - residentBefore) * 1024 / Double(count)
        let memory = Row(
            name: "memory per registered seam (\(count) seams, the seams included; resident)",
            value: String(format: "%.2f KiB", perSeam), goal: "≤ 1 KiB", met: perSeam <= 1)
        let observation = Registry.shared.observe()
        for seam in seams.prefix(10) { _ = seam(1) }
        try! Registry.shared.apply(seams[count / 2], .constant(7))
        var times: [Double] = []
        for _ in 0..<7 {
            _ = seams[times.count](2)  // a seam called between reads, as a running target's are
            times.append(Measure.seconds { blackhole(Registry.shared.snapshot()) } * 1e3)
        }
        observation.cancel()
        Registry.shared.revert(seam: seams[count / 2].info.id)
        let median = Measure.median(times)
        let snapshot = Row(
            name: "snapshot() of \(count) seams, observed", value: String(format: "%.1f ms", median),
            goal: "≤ 60 ms", met: median <= 60)
        withExtendedLifetime(seams) {}
        return (memory, snapshot)
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) * 1e-12
    }
}
