// Hot-path costs of seams, as ns per call and as ratios to a direct call measured in the same run.
//
//     swift run -c release mischief-bench                 # the table
//     swift run -c release mischief-bench --scenario int.constant --iterations 1000000
//                                                         # one scenario, for valgrind --tool=callgrind
//     swift run -c release mischief-bench --control       # only the control socket's section
//     swift run -c release mischief-bench --registry      # only the registry's scale section
//     swift run -c release mischief-bench --system        # only what system.clock costs Date(), beside libfaketime
//     swift run -c release mischief-bench --probability   # only per-call and keyed probabilities
//     swift run -c release mischief-bench --server        # only the seam's cost with MischiefLogging/-Metrics running
//     Scripts/control-attack.sh                           # the HTTP attack suite against a pinned target
//
// `Benchmarks/run.sh` (a package of its own) measures these side by side with Date(), swift-dependencies and
// libfaketime, and counts instructions per call under callgrind.
import Dispatch
import Foundation
import Mischief
import MischiefCatalog
import MischiefSystem
import Synchronization

/// The trivial integer function; not optimised, so the loop cannot be folded away and it costs one real call.
@inline(never) @_optimize(none)
func trivial(_ x: Int) -> Int { x &+ 1 }

@inline(never)
func blackhole<T>(_ value: T) { withExtendedLifetime(value) {} }

let intSeam = Seam<Int, Int, Never>("bench.int", title: "Trivial", category: "Bench", summary: "x + 1") {
    trivial($0)
}
let dateSeam = Seam<Void, Date, Never>("bench.date", title: "Date", category: "Bench", summary: "Date()") { Date() }
let registry = Registry(sessionSeed: 1)
try registry.register(intSeam, dateSeam)

/// A `Date` seam of a user's own with a `shift` action declared as its documentation declares one (a
/// `SeamAction.transform`), in `Registry.shared`, changed by a spec as a console or the CLI would: issue 47's row.
let shiftedDateSeam = Seam<Void, Date, Never>(
    "bench.date.actions", title: "Date", category: "Bench", summary: "Date(), with a shift action",
    actions: [
        .transform(
            ActionSignature(
                "shift", summary: "moves the clock",
                parameters: [.init("by", .duration, summary: "how far")], composes: true)
        ) { action, _ in
            let seconds = Double(action.duration("by")!.components.seconds)
            return { $0.addingTimeInterval(seconds) }
        }
    ]
) { Date() }
try Registry.shared.register(shiftedDateSeam, ChaosClock.shared.seam)

/// A way of calling: returns the ns per call of `iterations` calls.
struct Scenario {
    let name: String
    let setUp: () throws -> Void
    let run: (Int) -> Void
}

func runInt(_ iterations: Int, _ body: (Int) -> Int) {
    var sum = 0
    for index in 0..<iterations { sum &+= body(index) }
    blackhole(sum)
}

func runDate(_ iterations: Int, _ body: () -> Date) {
    var sum = 0.0
    for _ in 0..<iterations { sum += body().timeIntervalSinceReferenceDate }
    blackhole(sum)
}

nonisolated(unsafe) var observation: Observation?  // touched by the main thread only
nonisolated(unsafe) var recorder: Recorder?  // touched by the main thread only
func reset() {
    registry.revertAll()
    Registry.shared.revertAll()
    observation?.cancel()
    observation = nil
    recorder?.stop()
    recorder = nil
    _ = SystemSeams.uninstall()
}
let fixed = Date(timeIntervalSince1970: 0)

let scenarios: [Scenario] = [
    Scenario(name: "int.direct", setUp: reset, run: { n in runInt(n) { trivial($0) } }),
    Scenario(name: "int.off", setUp: reset, run: { n in runInt(n) { intSeam($0) } }),
    Scenario(
        name: "int.counting",
        setUp: {
            reset(); observation = registry.observe()
        },
        run: { n in
            runInt(n) { intSeam($0) }
        }),
    // What a control server's or a console's in-memory recording costs a seam with nothing applied: its calls are
    // numbered (CallNumbering), so they take the chaos path and a compare-and-swap.
    Scenario(
        name: "int.recorded",
        setUp: {
            reset(); recorder = registry.startRecording()
        },
        run: { n in
            runInt(n) { intSeam($0) }
        }),
    Scenario(
        name: "int.constant",
        setUp: {
            reset(); try registry.apply(intSeam, .constant(7))
        },
        run: { n in
            runInt(n) { intSeam($0) }
        }),
    Scenario(
        name: "int.constant-counting",
        setUp: {
            reset(); observation = registry.observe(); try registry.apply(intSeam, .constant(7))
        }, run: { n in runInt(n) { intSeam($0) } }),
    // `log` on a hot seam: ten calls a second reach the event log, the rest are counted and skipped.
    Scenario(
        name: "int.log",
        setUp: {
            reset(); try registry.apply(intSeam, .log("hot"))
        }, run: { n in runInt(n) { intSeam($0) } }),
    Scenario(
        name: "int.log-counting",
        setUp: {
            reset(); observation = registry.observe(); try registry.apply(intSeam, .log("hot"))
        }, run: { n in runInt(n) { intSeam($0) } }),
    // Probabilities: per call (a counter and a draw) and per key (a task-local read, a hash of the key and a draw).
    Scenario(
        name: "int.probability",
        setUp: {
            reset(); try registry.apply(intSeam, .probability(50, .constant(7)))
        }, run: { n in runInt(n) { intSeam($0) } }),
    Scenario(
        name: "int.keyed",
        setUp: {
            reset(); try registry.apply(intSeam, .probability(50, per: .key, .constant(7)))
        }, run: { n in ChaosKey.$current.withValue("user-4217") { runInt(n) { intSeam($0) } } }),
    Scenario(
        name: "int.keyed-no-key",
        setUp: {
            reset(); try registry.apply(intSeam, .probability(50, per: .key, .constant(7)))
        }, run: { n in runInt(n) { intSeam($0) } }),
    Scenario(name: "date.direct", setUp: reset, run: { n in runDate(n) { Date() } }),
    Scenario(name: "date.off", setUp: reset, run: { n in runDate(n) { dateSeam() } }),
    Scenario(
        name: "date.counting",
        setUp: {
            reset(); observation = registry.observe()
        },
        run: { n in
            runDate(n) { dateSeam() }
        }),
    Scenario(
        name: "date.constant",
        setUp: {
            reset(); try registry.apply(dateSeam, .constant(fixed))
        },
        run: { n in
            runDate(n) { dateSeam() }
        }),
    // Issue 47's date rows: `.transform` applied in code, a spec-bound transform action through `Registry.shared`,
    // and the catalogue clock as the README spells it (`ChaosClock.shared.date`, changed by its id).
    Scenario(
        name: "date.shifted",
        setUp: {
            reset(); try registry.apply(dateSeam, .transform { $0.addingTimeInterval(86_400) })
        },
        run: { n in
            runDate(n) { dateSeam() }
        }),
    Scenario(
        name: "date.spec-shifted",
        setUp: {
            reset(); try Registry.shared.apply(spec: "shift(+1d)", to: "bench.date.actions")
        },
        run: { n in
            runDate(n) { shiftedDateSeam() }
        }),
    Scenario(name: "date.shared-off", setUp: reset, run: { n in runDate(n) { ChaosClock.shared.date } }),
    Scenario(
        name: "date.shared-shifted",
        setUp: {
            reset(); try Registry.shared.apply(spec: "shift(+1d)", to: "clock.now")
        },
        run: { n in
            runDate(n) { ChaosClock.shared.date }
        }),
    // `Date()` itself under `system.clock` (its C hook in Foundation's global offset table), as `--system` times it.
    Scenario(
        name: "date.system-installed",
        setUp: {
            reset(); _ = try SystemSeams.install([.clock], in: registry)
        },
        run: { n in
            runDate(n) { Date() }
        }),
    Scenario(
        name: "date.system-shifted",
        setUp: {
            reset(); _ = try SystemSeams.install([.clock], in: registry)
            try registry.apply(spec: "shift(+1d)", to: SystemSeams.clockID)
        },
        run: { n in
            runDate(n) { Date() }
        }),
    Scenario(
        name: "date.system-frozen",
        setUp: {
            reset(); _ = try SystemSeams.install([.clock], in: registry)
            try registry.apply(spec: "freeze(2030-01-01T00:00:00Z)", to: SystemSeams.clockID)
        },
        run: { n in
            runDate(n) { Date() }
        }),
]

func nanosecondsPerCall(_ scenario: Scenario, iterations: Int, repetitions: Int = 7) -> Double {
    let clock = ContinuousClock()
    scenario.run(iterations / 10)  // warm up
    var best = Double.infinity
    for _ in 0..<repetitions {
        let elapsed = clock.measure { scenario.run(iterations) }
        best = min(best, elapsed.seconds * 1e9 / Double(iterations))
    }
    return best
}

/// Calls per second of `threads` threads each calling the int seam (or, with `direct`, the trivial function:
/// the control, which shares nothing between threads).
func throughput(threads: Int, iterations: Int, direct: Bool = false) -> Double {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for _ in 0..<threads {
        group.enter()
        Thread.detachNewThread {
            start.wait()
            if direct { runInt(iterations) { trivial($0) } } else { runInt(iterations) { intSeam($0) } }
            group.leave()
        }
    }
    let clock = ContinuousClock()
    let began = clock.now
    for _ in 0..<threads { start.signal() }
    group.wait()
    return Double(threads * iterations) / (clock.now - began).seconds
}

if ProcessInfo.processInfo.environment[SystemBenchmarks.childVariable] == "date" {
    SystemBenchmarks.child()  // `--system`'s child process, perhaps under libfaketime
    exit(0)
}

let arguments = CommandLine.arguments
if let index = arguments.firstIndex(of: "--scenario") {
    let name = arguments[index + 1]
    let iterations = arguments.firstIndex(of: "--iterations").map { Int(arguments[$0 + 1])! } ?? 1_000_000
    guard let scenario = scenarios.first(where: { $0.name == name }) else {
        print("unknown scenario '\(name)'; one of: \(scenarios.map(\.name).joined(separator: ", "))")
        exit(64)
    }
    try scenario.setUp()
    scenario.run(iterations)
    exit(0)
}

if let index = arguments.firstIndex(of: "--attack-target") {
    let share = arguments.firstIndex(of: "--cpu-share").flatMap { Double(arguments[$0 + 1]) }
    try AttackTarget.run(socket: arguments[index + 1], cpuShare: share)
}
if let index = arguments.firstIndex(of: "--attack") {
    let pid = arguments.firstIndex(of: "--pid").flatMap { Int32(arguments[$0 + 1]) } ?? 0
    let seconds = arguments.firstIndex(of: "--seconds").flatMap { Double(arguments[$0 + 1]) } ?? 3
    let pace = arguments.firstIndex(of: "--pace").flatMap { UInt32(arguments[$0 + 1]) } ?? 0
    try AttackBenchmarks.run(socket: arguments[index + 1], pid: pid, seconds: seconds, pace: pace)
    exit(0)
}
if arguments.contains("--paste") {
    PasteBenchmarks.report()
    exit(0)
}
if arguments.contains("--server") {
    try ServerBenchmarks.report()
    exit(0)
}
if arguments.contains("--system") {
    try SystemBenchmarks.report()
    exit(0)
}
if arguments.contains("--registry") {
    try RegistryBenchmarks.report()
    exit(0)
}
if arguments.contains("--latency") {
    try await LatencyBenchmarks.report()
    exit(0)
}
if arguments.contains("--control") {
    try await ControlBenchmarks.report()
    exit(0)
}

let iterations = 20_000_000
nonisolated(unsafe) var results: [String: Double] = [:]  // main thread only
/// `--probability`: only the probability rows, against a direct call and a constant.
let probabilityRows = ["int.direct", "int.constant", "int.probability", "int.keyed", "int.keyed-no-key"]
let onlyProbability = arguments.contains("--probability")
for scenario in scenarios where !onlyProbability || probabilityRows.contains(scenario.name) {
    try scenario.setUp()
    results[scenario.name] = nanosecondsPerCall(
        scenario, iterations: scenario.name.hasPrefix("date") ? 2_000_000 : iterations)
}
reset()

func row(_ name: String, _ base: String, target: String) {
    let value = results[name]!
    let baseline = results[base]!
    let line =
        "\(name.padding(toLength: 24, withPad: " ", startingAt: 0))"
        + String(format: "%7.2f ns  %5.2fx  %+6.2f ns   ", value, value / baseline, value - baseline) + target
    print(line)
}
print("scenario                  ns/call  ratio   added      target")
if onlyProbability {
    row("int.direct", "int.direct", target: "(baseline: a trivial @inline(never) function)")
    row("int.constant", "int.direct", target: "≤ 10 ns")
    row("int.probability", "int.constant", target: "(50% per call, ratio to int.constant)")
    row("int.keyed", "int.probability", target: "(50%@key, key set, ratio to int.probability)")
    row("int.keyed-no-key", "int.probability", target: "(50%@key, no key, ratio to int.probability)")
    exit(0)
}
row("int.direct", "int.direct", target: "(baseline: a trivial @inline(never) function)")
row("int.off", "int.direct", target: "≤ 2 ns added")
row("int.counting", "int.direct", target: "≤ 6 ns added")
row("int.constant", "int.direct", target: "≤ 10 ns")
row("int.constant-counting", "int.direct", target: "≤ 10 ns")
row("int.log", "int.direct", target: "(log: 10 events a second, the rest counted)")
row("int.log-counting", "int.direct", target: "(log, counting)")
row("int.probability", "int.direct", target: "(50% per call)")
row("int.keyed", "int.probability", target: "(50%@key, key set; ratio to int.probability)")
row("int.keyed-no-key", "int.probability", target: "(50%@key, no key; ratio to int.probability)")
row("date.direct", "date.direct", target: "(baseline: Date())")
row("date.off", "date.direct", target: "≤ 1.1x")
row("date.counting", "date.direct", target: "≤ 6 ns added")
row("date.constant", "date.direct", target: "≤ 10 ns")
row("date.shifted", "date.direct", target: "≤ 10 ns added (.transform in code)")
row("date.spec-shifted", "date.direct", target: "≤ 10 ns added (a spec-bound transform action)")
row("date.shared-off", "date.direct", target: "≤ 1.05x (ChaosClock.shared.date)")
row("date.shared-shifted", "date.direct", target: "≤ 1.1x (ChaosClock.shared.date, shift(+1d))")
row("date.system-installed", "date.direct", target: "≤ 1.05x (Date(), system.clock installed)")
row("date.system-shifted", "date.direct", target: "≤ 1.1x (Date(), system.clock shift(+1d))")
row("date.system-frozen", "date.direct", target: "≤ 0.5x (Date(), system.clock freeze)")

try registry.apply(intSeam, .constant(7))
// Interleaved with the control, so both see the same machine: on 2 vCPUs the second thread's share varies by run.
let controlOne = throughput(threads: 1, iterations: 20_000_000, direct: true)
let one = throughput(threads: 1, iterations: 20_000_000)
let controlTwo = throughput(threads: 2, iterations: 20_000_000, direct: true)
let two = throughput(threads: 2, iterations: 20_000_000)
registry.revertAll()
print(String(format: "int.constant, 1 thread:  %6.1f M calls/s", one / 1e6))
print(
    String(
        format: "int.constant, 2 threads: %6.1f M calls/s  %.2fx of one thread   target ≥ 1.6x", two / 1e6, two / one))
print(
    String(
        format:
            "control (direct call, nothing shared), 2 threads: %.2fx of one thread; the seam's scaling is %.2fx the control's",
        controlTwo / controlOne, (two / one) / (controlTwo / controlOne)))

print("")
print("console (MemoryTerminal 200×60, LocalController, the runner's default refresh of 250 ms)")
let small = ConsoleBenchmarks.renderMilliseconds(seams: 6)
let large = ConsoleBenchmarks.renderMilliseconds(seams: 1_000)
print(String(format: "render, 6 seams:      %6.3f ms/frame   (baseline)", small))
print(String(format: "render, 1,000 seams:  %6.3f ms/frame   %.1fx of 6 seams   target < 2 ms", large, large / small))
let idle = try await ConsoleBenchmarks.consoleCPU(callsPerSecond: 0)
print(String(format: "console CPU, target idle:             %5.2f%% of a core   target < 1%%", idle.console * 100))
let busy = try await ConsoleBenchmarks.consoleCPU(callsPerSecond: 1_000_000)
print(
    String(
        format: "console CPU, target at %4.2f M calls/s: %5.2f%% of a core   target < 5%%", busy.calls / 1e6,
        busy.console * 100))

try RegistryBenchmarks.report()

try await ControlBenchmarks.report()
