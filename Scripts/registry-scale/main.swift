// Registry scale: snapshot, changes(since:), revert one seam, bulk register, repeated applies on one seam.
// Compiled with a copy of the core into one module by Scripts/registry-scale.sh (before and after, one table).
import Foundation

@inline(never) func sink<T>(_ value: T) { withExtendedLifetime(value) {} }

func seams(_ count: Int, _ prefix: String) -> [Seam<Int, Int, Never>] {
    (0..<count).map { index in
        Seam<Int, Int, Never>(SeamID(stringLiteral: "\(prefix).s\(index)"), title: "Seam \(index)",
                              category: "Bench", summary: "x + 1") { $0 &+ 1 }
    }
}

let clock = ContinuousClock()
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = clock.now
    try body()
    let d = clock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
func median(_ n: Int, _ body: () throws -> Void) rethrows -> Double {
    var t: [Double] = []
    for _ in 0..<n { t.append(try seconds(body)) }
    return t.sorted()[n / 2]
}
func rssMiB() -> Double {
    let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
    return (Double(text.split(separator: " ")[1]) ?? 0) * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}
func row(_ name: String, _ value: Double, _ unit: String) {
    print(name.padding(toLength: 48, withPad: " ", startingAt: 0) + String(format: "%12.3f %@", value, unit))
}

let env = ProcessInfo.processInfo.environment
let only = env["REGBENCH_CASE"]
func wants(_ name: String) -> Bool { only == nil || only == name }

if wants("snapshot") {
    for count in [1_000, 100_000] {
        let registry = Registry(sessionSeed: 1)
        let all = seams(count, "snap\(count)")
        for seam in all { try registry.register(seam) }
        try registry.apply(spec: "return(7)", to: all[count / 2].info.id, source: "bench")
        let reps = count > 1_000 ? 5 : 21
        row("snapshot(), \(count) seams, 1 entry", median(reps) { sink(registry.snapshot()) } * 1e3, "ms")
        // A console session's worth of history: 250 applies and reverts (the registry keeps the last 200).
        for index in 0..<250 {
            let seam = all[(index * 7919) % count]
            try registry.apply(seam, .constant(index))
            registry.revert(seam: seam.info.id)
        }
        #if HAS_CHANGES
        var quiet = registry.snapshot().generation
        row("changes(since:), \(count) seams, unobserved, 1 apply", median(reps) {
            try! registry.apply(spec: "return(8)", to: all[5].info.id, source: "bench")
            let changes = registry.delta(since: quiet)
            quiet = changes.generation
            sink(changes)
        } * 1e3, "ms")
        #endif
        row("snapshot(), \(count) seams, 200 reverted kept", median(reps) { sink(registry.snapshot()) } * 1e3, "ms")
        let observation = registry.observe()
        for seam in all.prefix(10) { _ = seam(1) }
        row("snapshot(), \(count) seams, observed", median(reps) { sink(registry.snapshot()) } * 1e3, "ms")
        #if HAS_CHANGES
        var generation = registry.snapshot().generation
        row("changes(since:), \(count) seams, observed, 1 called", median(reps) {
            _ = all[3](1)
            let changes = registry.delta(since: generation)
            generation = changes.generation
            sink(changes)
        } * 1e3, "ms")
        #endif
        observation.cancel()
        let target = all[count / 3]
        var reverts: [Double] = []
        for _ in 0..<21 {
            try registry.apply(target, .constant(3))
            reverts.append(seconds { registry.revert(seam: target.info.id) })
        }
        row("revert one seam, \(count) registered", reverts.sorted()[10] * 1e6, "µs")
    }
}
if wants("register") {
    for count in [1_000, 8_000] {
        let batch = seams(count, "reg\(count)")
        let registry = Registry(sessionSeed: 1)
        row("register([…]) of \(count), per seam", try seconds { try registry.register(batch) } * 1e6 / Double(count), "µs")
    }
}
if wants("applies") {
    let registry = Registry(sessionSeed: 1)
    let one = seams(1, "applies")[0]
    try registry.register(one)
    let count = Int(env["REGBENCH_APPLIES"] ?? "") ?? 10_000
    let before = rssMiB()
    var last = 0.0
    let total = try seconds {
        for index in 0..<count {
            let t = try seconds { try registry.apply(spec: "return(\(index % 7))", to: one.info.id) }
            if index >= count - 1_000 { last += t }
        }
    }
    row("\(count) applies on one seam, mean per apply", total / Double(count) * 1e3, "ms")
    row("\(count) applies on one seam, last 1,000, per apply", last / 1_000 * 1e3, "ms")
    row("\(count) applies on one seam, RSS growth", rssMiB() - before, "MiB")
}
