import Foundation
import Mischief

/// Registry costs as it grows: registering, snapshots, one apply and one revert among many seams, memory; and calls
/// through stacked `merge` layers.
enum Scale {
    struct Row {
        let label: String
        let value: String
    }

    static func seams(_ count: Int, prefix: String) -> [Seam<Int, Int, Never>] {
        (0..<count).map { index in
            Seam<Int, Int, Never>(
                try! SeamID("\(prefix).s\(index)"), title: "Seam \(index)", category: "Scale", summary: "x + 1"
            ) { $0 &+ 1 }
        }
    }

    /// Microseconds per seam of one `register` of `count` seams.
    static func registerMicrosecondsPerSeam(_ count: Int) -> Double {
        let registry = Registry(sessionSeed: 1)
        let batch = seams(count, prefix: "reg")
        let seconds = Measure.seconds { try! registry.register(batch) }
        return seconds * 1e6 / Double(count)
    }

    /// Rows for a registry of `count` seams: snapshot, apply one, revert one (medians of `repeats`), and memory.
    static func registry(of count: Int, repeats: Int) -> [Row] {
        let before = Measure.residentMiB()
        let registry = Registry(sessionSeed: 1)
        let all = seams(count, prefix: "scale")
        try! registry.register(all)
        let middle = all[count / 2]
        var snapshot: [Double] = []
        var apply: [Double] = []
        var revert: [Double] = []
        for _ in 0..<repeats {
            snapshot.append(Measure.seconds { blackhole(registry.snapshot()) })
            apply.append(Measure.seconds { try! registry.apply(middle, .constant(1)) })
            revert.append(Measure.seconds { registry.revert(seam: middle.info.id) })
        }
        let after = Measure.residentMiB()
        let name = count.formatted()
        return [
            Row(label: "snapshot(), \(name) seams", value: Table.time(Measure.median(snapshot))),
            Row(label: "apply one seam, \(name) registered", value: Table.time(Measure.median(apply))),
            Row(label: "revert one seam, \(name) registered", value: Table.time(Measure.median(revert))),
            Row(label: "memory for \(name) seams", value: String(format: "%.1f MiB", after - before)),
        ]
    }

    /// Nanoseconds per call through `layers` stacked `merge` layers, each a `.match` rule that never matches.
    static func stackedNanoseconds(layers: Int, calls: Int) -> Double {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Never>(
            "bench.rules", title: "Rules", category: "Bench", summary: "merging rules", stacking: .merge
        ) { trivial($0) }
        try! registry.register(seam)
        for _ in 0..<layers { try! registry.apply(seam, .match([.when(-1, .constant(0))])) }
        defer { registry.revertAll() }
        return Measure.nanosecondsPerCall(calls) { n in PerCall.ints(n) { seam($0) } }
    }

    /// Milliseconds per apply and the memory grown by `count` applies of a spec on one seam, never reverted.
    static func repeatedApplies(_ count: Int) -> Row {
        let registry = Registry(sessionSeed: 1)
        let seam = seams(1, prefix: "again")[0]
        try! registry.register(seam)
        let before = Measure.residentMiB()
        let seconds = Measure.seconds {
            for index in 0..<count { try! registry.apply(spec: "return(\(index % 7))", to: seam.info.id) }
        }
        let grown = Measure.residentMiB() - before
        return Row(
            label: "\(count.formatted()) applies on one seam, never reverted",
            value: String(format: "%@ an apply, +%.1f MiB", Table.time(seconds / Double(count)), grown))
    }
}
