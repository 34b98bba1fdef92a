import Foundation
import Mischief
import MischiefCatalog
import MischiefSystem

/// What `system.clock` costs a plain `Date()`, against plain `Date()` measured in the same run, rounds interleaved:
/// installed with nothing applied, shifted, frozen; the catalogue clock's `date`, which reads the real clock through
/// Mischief's own path (`RealClock`) since system seams exist; and, beside them, the same `Date()` loop in a child
/// process run with libfaketime preloaded (`LD_PRELOAD=libfaketime.so.1 FAKETIME=+1d`), and in a child without it,
/// each round. Without libfaketime (Debian: `apt-get install libfaketime`, or `MISCHIEF_BENCH_FAKETIME=<path>`) its
/// rows say so and the rest is measured as ever.
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

    /// The environment variable that makes the bench a child measuring plain `Date()`: under libfaketime
    /// `CommandLine.arguments` can be empty, so the child is told by its environment.
    static let childVariable = "MISCHIEF_BENCH_CHILD"

    /// The child's work: the ns per call of one `Date()` loop of `iterations`, and what `Date()` says then (so the
    /// parent can tell libfaketime did shift it), printed.
    static func child() {
        print(dates(iterations) { Date() }, Date().timeIntervalSince1970)
    }

    /// libfaketime's library: `MISCHIEF_BENCH_FAKETIME` when set, else Debian's; nil when it is not there.
    static func faketime() -> String? {
        let candidates =
            ProcessInfo.processInfo.environment["MISCHIEF_BENCH_FAKETIME"].map { [$0] } ?? [
                "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
                "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
            ]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The ns per `Date()` call one child measures, with `faketime` preloaded and `FAKETIME=+1d`, or neither; nil
    /// when it could not run, said nothing, or its `Date()` was not a day ahead under libfaketime.
    static func childNanoseconds(faketime: String?) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var environment = ProcessInfo.processInfo.environment
        environment[childVariable] = "date"
        if let faketime {
            environment["LD_PRELOAD"] = faketime
            environment["FAKETIME"] = "+1d"
        }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let words = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap {
            Double($0)
        }
        guard words.count == 2 else { return nil }
        let ahead = words[1] - Date().timeIntervalSince1970
        return abs(ahead - (faketime == nil ? 0 : 86_400)) < 60 ? words[0] : nil
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
            if let faketime = faketime() {
                if let value = childNanoseconds(faketime: nil) { keep("Date(), in a child process", value) }
                if let value = childNanoseconds(faketime: faketime) {
                    keep("Date(), in a child process, libfaketime FAKETIME=+1d", value)
                }
            }
        }
        let base = best["Date()"]!
        print("system seams (best of \(rounds) interleaved rounds of \(iterations) calls)      ns/call   × Date()")
        for name in [
            "Date()", "Date(), system.clock installed, nothing applied", "Date(), system.clock shift(+1d)",
            "Date(), system.clock freeze", "ChaosClock.date, nothing applied", "Date(), in a child process",
            "Date(), in a child process, libfaketime FAKETIME=+1d",
        ] {
            let label = name.padding(toLength: 62, withPad: " ", startingAt: 0)
            guard let value = best[name] else {
                print(
                    label
                        + (faketime() == nil
                            ? "skipped: libfaketime not found (Debian: apt-get install libfaketime, or MISCHIEF_BENCH_FAKETIME=<path>)"
                            : "skipped: the child did not answer, or its Date() was not shifted as asked"))
                continue
            }
            print(label + String(format: "%8.2f   %6.3f", value, value / base))
        }
        if let shifted = best["Date(), system.clock shift(+1d)"],
            let faked = best["Date(), in a child process, libfaketime FAKETIME=+1d"]
        {
            print(
                String(
                    format: "system.clock shift(+1d) / libfaketime FAKETIME=+1d: %.3f (at most 1 is the goal)",
                    shifted / faked))
        }
        if let installed = best["Date(), system.clock installed, nothing applied"] {
            print(
                String(format: "installed, nothing applied / Date(): %.3f (at most 1.05 is the goal)", installed / base)
            )
        }
    }
}
