import Foundation

/// The whole run: every section measured, printed as one Markdown table.
enum Table {
    static func run(calls: Int, rounds: Int) throws {
        print("| measure | value | ratio |")
        print("|---|---|---|")
        let sections = Set(
            (environment["SIDE_BY_SIDE_SECTIONS"] ?? "per-call,decisions,stacked,control,system,registry")
                .split(separator: ",").map(String.init))
        if sections.contains("per-call") { perCall(calls: calls, rounds: rounds) }
        if sections.contains("decisions") { try Decisions.run(calls: calls / 10, rounds: rounds) }
        if sections.contains("stacked") { stacked(calls: calls / 4, rounds: rounds) }
        if sections.contains("control") { try control() }
        if sections.contains("system") { try SystemRows.run(calls: calls / 4, rounds: rounds) }
        // Last: it leaves 100,000 seams registered in `Registry.shared`.
        if sections.contains("registry") { registry(calls: calls / 4, rounds: rounds) }
    }

    /// Issue 47's structural rows (`RegistryRows`), each with its goal and verdict.
    static func registry(calls: Int, rounds: Int) {
        for entry in RegistryRows.measure(calls: calls, rounds: rounds) {
            row(entry.name, entry.value, "goal \(entry.goal): \(entry.met ? "met" : "missed")")
        }
    }

    static func row(_ label: String, _ value: String, _ ratio: String = "") {
        print("| \(label) | \(value) | \(ratio) |")
    }

    /// `seconds` with a unit that keeps three figures.
    static func time(_ seconds: Double) -> String {
        switch seconds {
        case ..<1e-6: String(format: "%.1f ns", seconds * 1e9)
        case ..<1e-3: String(format: "%.2f µs", seconds * 1e6)
        case ..<1: String(format: "%.2f ms", seconds * 1e3)
        default: String(format: "%.2f s", seconds)
        }
    }

    /// Every per-call case in each round (and the two libfaketime children), medians, ratios to the family's baseline.
    static func perCall(calls: Int, rounds: Int) {
        var samples: [String: [Double]] = [:]
        let faketime = Faketime.library()
        for _ in 0..<rounds {
            for entry in PerCall.cases {
                try! entry.setUp()
                samples[entry.id, default: []].append(Measure.nanosecondsPerCall(calls, entry.run))
            }
            if let faketime {
                samples["faketime.off", default: []].append(Faketime.childNanoseconds(calls: calls, library: nil))
                samples["faketime.shifted", default: []].append(
                    Faketime.childNanoseconds(calls: calls, library: faketime))
            }
        }
        PerCall.reset()
        let medians = samples.mapValues(Measure.median)
        for entry in PerCall.cases {
            let value = medians[entry.id]!
            let base = medians[entry.baseline]!
            let ratio =
                entry.id == entry.baseline ? "1.00×" : String(format: "%.2f× (%+.1f ns)", value / base, value - base)
            row(entry.label, String(format: "%.1f ns", value), ratio + (Goal.of[entry.id]?.verdict(value, base) ?? ""))
        }
        if let off = medians["faketime.off"], let shifted = medians["faketime.shifted"] {
            row("Date() in a child process", String(format: "%.1f ns", off), "1.00×")
            row(
                "Date() under libfaketime FAKETIME=+1d", String(format: "%.1f ns", shifted),
                String(format: "%.2f× the child's Date()", shifted / off))
            if let clock = medians["shared.shifted"] {
                row(
                    "ChaosClock.shared.date shift(+1d) vs libfaketime +1d", "",
                    String(format: "%.2f×", clock / shifted) + Goal.ratio(1).verdict(clock, shifted))
            }
        } else {
            row("Date() under libfaketime", "not measured: \(Faketime.missing)", "")
        }
    }

    /// Calls through 1, 10 and 100 stacked merge layers, against a direct call and one layer measured in the same
    /// rounds.
    static func stacked(calls: Int, rounds: Int) {
        var samples: [Int: [Double]] = [:]
        for _ in 0..<rounds {
            samples[0, default: []].append(Measure.nanosecondsPerCall(calls) { n in PerCall.ints(n) { trivial($0) } })
            for layers in [1, 10, 100] {
                samples[layers, default: []].append(Scale.stackedNanoseconds(layers: layers, calls: calls))
            }
        }
        let direct = Measure.median(samples[0]!)
        let one = Measure.median(samples[1]!)
        row("direct call (stacked rounds)", String(format: "%.1f ns", direct), "1.00×")
        for layers in [1, 10, 100] {
            let value = Measure.median(samples[layers]!)
            row(
                "\(layers) stacked merge layers (no rule matches)", String(format: "%.1f ns", value),
                String(format: "%.1f× direct, %.2f× one layer", value / direct, value / one))
        }
    }

    static func control() throws {
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<(p50: Double, p99: Double), any Error> = .failure(CancellationError())
        Task {
            do { result = .success(try await ControlSocketLatency.socketLatency(requests: 2_000)) } catch {
                result = .failure(error)
            }
            semaphore.signal()
        }
        semaphore.wait()
        let (p50, p99) = try result.get()
        row("control socket GET /v1/seams, 50 seams", String(format: "p50 %.2f ms · p99 %.2f ms", p50, p99))
    }
}

/// libfaketime, run in child processes of this executable (it must be preloaded at start).
enum Faketime {
    static let missing = "libfaketime not found (Debian: apt-get install faketime, or set SIDE_BY_SIDE_FAKETIME)"

    static func library() -> String? {
        let candidates = [
            environment["SIDE_BY_SIDE_FAKETIME"], "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
            "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The median ns per `Date()` call a child measures (over 3 rounds), with `library` preloaded or not.
    static func childNanoseconds(calls: Int, library: String?) -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var childEnvironment = environment
        childEnvironment["SIDE_BY_SIDE_MODE"] = "date-loop"
        childEnvironment["SIDE_BY_SIDE_CALLS"] = "\(calls)"
        childEnvironment["SIDE_BY_SIDE_ROUNDS"] = "3"
        if let library {
            childEnvironment["LD_PRELOAD"] = library
            childEnvironment["FAKETIME"] = "+1d"
            childEnvironment["FAKETIME_NO_CACHE"] = "0"
        }
        process.environment = childEnvironment
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return .nan }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }
}

/// The goals issue 32 set for the per-call rows, checked on every run and printed beside the ratio.
enum Goal {
    /// At most this ratio to the baseline.
    case ratio(Double)
    /// At most this many nanoseconds over the baseline.
    case over(Double)
    /// At least this ratio to the baseline (for what Mischief is compared with).
    case atLeast(Double)

    /// Issue 32's goals, and issue 47's: `int.off`, `int.counting`, `int.constant`, `shared.shifted`,
    /// `date.spec-shifted`.
    static let of: [String: Goal] = [
        "shared.off": .ratio(1.05), "shared.shifted": .ratio(1.1), "shared.frozen": .ratio(0.5),
        "date.shifted": .over(10), "date.spec-shifted": .over(10), "int.off": .over(1), "int.counting": .over(3),
        "int.constant": .over(8),
        "deps.live": .atLeast(20),
    ]

    /// ` · goal ≤ 1.05×: met` (or `missed`).
    func verdict(_ value: Double, _ base: Double) -> String {
        let (text, met) =
            switch self {
            case .ratio(let limit): (String(format: "≤ %.2f×", limit), value / base <= limit)
            case .over(let limit): (String(format: "≤ +%.0f ns", limit), value - base <= limit)
            case .atLeast(let limit): (String(format: "≥ %.0f×", limit), value / base >= limit)
            }
        return " · goal \(text): \(met ? "met" : "missed")"
    }
}
