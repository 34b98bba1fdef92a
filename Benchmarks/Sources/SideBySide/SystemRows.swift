import Foundation
import Mischief
import MischiefSystem

/// Issue 47's `system.clock` rows: a plain `Date()` in code not written for Mischief while `system.clock` is installed
/// (the process's own `clock_gettime` rebound to Mischief's hook), with nothing applied, `shift(+1d)` and `freeze`,
/// against `Date()` before installing, and `shift(+1d)` against `Date()` under libfaketime `FAKETIME=+1d` in a child
/// process, all in the same interleaved rounds, each row with its goal and verdict.
///
///     SIDE_BY_SIDE_SECTIONS=system Benchmarks/run.sh
enum SystemRows {
    static func run(calls: Int, rounds: Int) throws {
        var samples: [String: [Double]] = [:]
        let date = PerCall.cases.first { $0.id == "date.direct" }!
        let faketime = Faketime.library()
        func measure(_ key: String) { samples[key, default: []].append(Measure.nanosecondsPerCall(calls, date.run)) }
        for _ in 0..<rounds {
            measure("date")
            _ = try SystemSeams.install([.clock], in: Registry.shared)
            measure("installed")
            try Registry.shared.apply(spec: "shift(+1d)", to: SystemSeams.clockID)
            measure("shifted")
            try Registry.shared.apply(spec: "freeze(2030-01-01T00:00:00Z)", to: SystemSeams.clockID)
            measure("frozen")
            _ = SystemSeams.uninstall()
            if let faketime {
                samples["faketime", default: []].append(Faketime.childNanoseconds(calls: calls, library: faketime))
                samples["child", default: []].append(Faketime.childNanoseconds(calls: calls, library: nil))
            }
        }
        let medians = samples.mapValues(Measure.median)
        let base = medians["date"]!
        Table.row("Date() (system rows)", String(format: "%.1f ns", base), "1.00×")
        for (key, label, goal) in [
            ("installed", "Date(), system.clock installed, nothing applied", 1.05),
            ("shifted", "Date(), system.clock shift(+1d)", 1.1), ("frozen", "Date(), system.clock freeze", 0.5),
        ] {
            let value = medians[key]!
            Table.row(
                label, String(format: "%.1f ns", value),
                String(format: "%.2f× (min %.2f×)", value / base, samples[key]!.min()! / samples["date"]!.min()!)
                    + Goal.ratio(goal).verdict(value, base))
        }
        if let faked = medians["faketime"], let child = medians["child"] {
            Table.row(
                "Date() under libfaketime FAKETIME=+1d (child)", String(format: "%.1f ns", faked),
                String(format: "%.2f× the child's Date()", faked / child))
            Table.row(
                "system.clock shift(+1d) vs libfaketime +1d", "",
                String(format: "%.2f×", medians["shifted"]! / faked)
                    + Goal.ratio(0.5).verdict(medians["shifted"]!, faked))
        } else {
            Table.row("Date() under libfaketime", "not measured: \(Faketime.missing)", "")
        }
    }
}
