import Foundation
import Mischief

/// Registry costs that grow with its size: snapshot, revert, bulk register, repeated applies on one seam.
///
///     swift run -c release mischief-bench --registry
enum RegistryBenchmarks {
    static func seams(_ count: Int, prefix: String) -> [Seam<Int, Int, Never>] {
        (0..<count).map { index in
            Seam<Int, Int, Never>(
                SeamID(stringLiteral: "\(prefix).s\(index)"), title: "Seam \(index)",
                category: "Bench", summary: "x + 1"
            ) { $0 &+ 1 }
        }
    }

    /// The median of `repetitions` timings of `body`, in microseconds.
    static func median(_ repetitions: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<repetitions {
            var failure: (any Error)?
            let elapsed = clock.measure { do { try body() } catch { failure = error } }
            if let failure { throw failure }
            times.append(elapsed.seconds * 1e6)
        }
        return times.sorted()[times.count / 2]
    }

    static func report() throws {
        print("registry                                   figure        target")
        for count in [1_000, 100_000] {
            let rssBefore = residentMiB()
            let registry = Registry(sessionSeed: 1)
            let all = seams(count, prefix: "bench.snap\(count)")
            for seam in all { try registry.register(seam) }
            line("memory for \(count) seams", residentMiB() - rssBefore, "MiB", target: "(linear)")
            let observation = registry.observe()
            for seam in all.prefix(10) { _ = seam(1) }
            try registry.apply(spec: "return(7)", to: all[count / 2].info.id, source: "bench")
            let snapshot = try median(count > 1_000 ? 5 : 21) { blackhole(registry.snapshot()) }
            line("snapshot(), \(count) seams", snapshot / 1000, "ms", target: count > 1_000 ? "≤ 100 ms" : "≤ 1 ms")
            let generation = registry.delta(since: 0).generation
            _ = all[3](1)
            let changes = try median(count > 1_000 ? 5 : 21) { blackhole(registry.delta(since: generation)) }
            line("delta(since:), \(count) seams, 1 called", changes / 1000, "ms", target: "(counters scanned)")
            let target = all[count / 3]
            var applies: [Double] = []
            var reverts: [Double] = []
            let clock = ContinuousClock()
            for _ in 0..<21 {
                var began = clock.now
                let applied = try registry.apply(target, .constant(3), source: "bench")
                applies.append((clock.now - began).seconds * 1e6)
                began = clock.now
                registry.revert(applied)
                reverts.append((clock.now - began).seconds * 1e6)
            }
            line("apply one seam, \(count) registered", applies.sorted()[10], "µs", target: "≤ 50 µs")
            line("revert one seam, \(count) registered", reverts.sorted()[10], "µs", target: "≤ 50 µs")
            observation.cancel()
        }
        var perSeam: [Int: Double] = [:]
        for count in [1_000, 8_000] {
            let batch = seams(count, prefix: "bench.reg\(count)")
            let registry = Registry(sessionSeed: 1)
            let time = try median(1) { try registry.register(batch) }
            perSeam[count] = time / Double(count)
            line("register([…]) of \(count), per seam", time / Double(count), "µs", target: "≤ 5 µs")
        }
        line(
            "register: 8,000's cost a seam / 1,000's", perSeam[8_000]! / perSeam[1_000]!, "×", target: "1.00 is linear")
        let registry = Registry(sessionSeed: 1)
        let one = seams(1, prefix: "bench.applies")[0]
        try registry.register(one)
        let rssBefore = residentMiB()
        let clock = ContinuousClock()
        var last = Duration.zero
        for index in 0..<10_000 {
            let began = clock.now
            try registry.apply(spec: "return(\(index))", to: one.info.id, source: "console")
            if index >= 9_000 { last += clock.now - began }
        }
        line("10,000 applies, per apply (last 1,000)", last.seconds * 1e6 / 1000, "µs", target: "O(1)")
        line("10,000 applies, RSS growth", residentMiB() - rssBefore, "MiB", target: "bounded")
    }

    static func line(_ name: String, _ value: Double, _ unit: String, target: String) {
        print(
            name.padding(toLength: 42, withPad: " ", startingAt: 0)
                + String(format: "%10.3f ", value) + unit.padding(toLength: 5, withPad: " ", startingAt: 0) + target)
    }

    static func residentMiB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
