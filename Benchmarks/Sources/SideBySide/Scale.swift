import Foundation
import Mischief

/// Seams to measure with, and calls through stacked `merge` layers. The registry's costs as it grows (register,
/// snapshot, apply and revert among 100,000 seams, memory) are `mischief-bench`'s registry section, in one place.
enum Scale {
    static func seams(_ count: Int, prefix: String) -> [Seam<Int, Int, Never>] {
        (0..<count).map { index in
            Seam<Int, Int, Never>(
                try! SeamID("\(prefix).s\(index)"), title: "Seam \(index)", category: "Scale", summary: "x + 1"
            ) { $0 &+ 1 }
        }
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
}
