import Foundation

/// Timing helpers: wall-clock nanoseconds per call over a loop, medians, resident memory.
enum Measure {
    /// Nanoseconds per call of `body(calls)` (after a warm-up of a tenth as many calls).
    static func nanosecondsPerCall(_ calls: Int, _ body: (Int) -> Void) -> Double {
        body(max(1, calls / 10))
        return seconds { body(calls) } * 1e9 / Double(calls)
    }

    /// Seconds `body` took.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let elapsed = try clock.measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The value at `fraction` (0…1) of the sorted values.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    /// The process's resident memory in MiB (Linux: /proc/self/statm).
    static func residentMiB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}

@inline(never)
func blackhole<T>(_ value: T) { withExtendedLifetime(value) {} }
