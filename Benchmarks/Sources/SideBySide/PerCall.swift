import Dependencies
import Foundation
import Mischief
import MischiefCatalog

/// The trivial integer function; not optimised, so the loop cannot be folded away and it costs one real call.
@inline(never) @_optimize(none)
func trivial(_ x: Int) -> Int { x &+ 1 }

/// What a swift-dependencies user writes to read the date.
struct DateReader {
    @Dependency(\.date.now) var now
}

/// One way of calling, measured per call: its family's baseline is the first case of the family.
struct PerCall {
    let id: String
    let label: String
    /// The row the ratio is taken against (measured in the same round).
    let baseline: String
    let setUp: () throws -> Void
    let run: (Int) -> Void

    /// The registry the README's examples use: every row is measured as users write the code.
    static var registry: Registry { .shared }
    static let intSeam = Seam<Int, Int, Never>("bench.int", title: "Trivial", category: "Bench", summary: "x + 1") {
        trivial($0)
    }
    static let dateSeam = Seam<Void, Date, Never>("bench.date", title: "Date", category: "Bench", summary: "Date()") {
        Date()
    }
    /// A `Date` seam of a user's own with a `shift` action declared as `SeamAction`'s documentation declares one (a
    /// transform), changed by a spec as a console or the CLI would (issue 47).
    static let actionDateSeam = Seam<Void, Date, Never>(
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
    static let clock = ChaosClock(id: "bench.clock")
    nonisolated(unsafe) static var observation: Observation?  // the main thread only
    static let fixed = Date(timeIntervalSince1970: 1_800_000_000)

    /// Holds a test scope open on another thread while set, as a test running beside the measured code would.
    nonisolated(unsafe) static var scopeElsewhere: (release: DispatchSemaphore, ended: DispatchSemaphore)?

    static func reset() {
        registry.revertAll()
        Registry.shared.revertAll()
        observation?.cancel()
        observation = nil
        if let scope = scopeElsewhere {
            scope.release.signal()
            scope.ended.wait()  // so the next case does not run while the scope is still active
        }
        scopeElsewhere = nil
    }

    /// Activates a scope on another thread and returns once it is active.
    static func openScopeElsewhere() {
        let release = DispatchSemaphore(value: 0)
        let active = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            ChaosScope("elsewhere", registry: registry).run {
                active.signal()
                release.wait()
            }
            ended.signal()
        }
        active.wait()
        scopeElsewhere = (release, ended)
    }

    /// A scope of its own with `.constant(7)` on the int seam, recording every call or not.
    static func constantScope(recording: Bool) -> ChaosScope {
        let scope = ChaosScope("bench", registry: registry, recording: recording)
        try! scope.apply(intSeam, .constant(7))
        return scope
    }

    static func ints(_ calls: Int, _ body: (Int) -> Int) {
        var sum = 0
        for index in 0..<calls { sum &+= body(index) }
        blackhole(sum)
    }

    static func dates(_ calls: Int, _ body: () -> Date) {
        var sum = 0.0
        for _ in 0..<calls { sum += body().timeIntervalSinceReferenceDate }
        blackhole(sum)
    }

    nonisolated(unsafe) static let cases: [PerCall] = {  // read by the main thread only
        try! registry.register(intSeam, dateSeam, actionDateSeam, clock.seam)
        // The catalogue clock as the README spells it: the shared one, registered in the shared registry, read from
        // this module (`ChaosClock.shared.date` in the loop) and changed by its id.
        try! Registry.shared.register(ChaosClock.shared.seam)
        let reader = DateReader()
        return [
            PerCall(id: "int.direct", label: "direct call", baseline: "int.direct", setUp: reset) { n in
                ints(n) { trivial($0) }
            },
            PerCall(id: "int.off", label: "seam, nothing applied", baseline: "int.direct", setUp: reset) { n in
                ints(n) { intSeam($0) }
            },
            PerCall(
                id: "int.counting", label: "seam, counting (observed)", baseline: "int.direct",
                setUp: {
                    reset()
                    observation = registry.observe()
                }
            ) { n in ints(n) { intSeam($0) } },
            PerCall(
                id: "int.constant", label: "seam, .constant", baseline: "int.direct",
                setUp: {
                    reset()
                    try registry.apply(intSeam, .constant(7))
                }
            ) { n in ints(n) { intSeam($0) } },
            PerCall(
                id: "int.scope.elsewhere", label: "seam, nothing applied, a test scope active elsewhere",
                baseline: "int.direct",
                setUp: {
                    reset()
                    openScopeElsewhere()
                }
            ) { n in ints(n) { intSeam($0) } },
            PerCall(
                id: "int.scope.inside", label: "seam, .constant in the caller's scope, not recording",
                baseline: "int.direct", setUp: reset
            ) { n in
                constantScope(recording: false).run { ints(n) { intSeam($0) } }
            },
            PerCall(
                id: "int.scope.recording", label: "seam, .constant in the caller's scope, recording every call",
                baseline: "int.direct", setUp: reset
            ) { n in
                constantScope(recording: true).run { ints(n) { intSeam($0) } }
            },
            PerCall(id: "date.direct", label: "Date()", baseline: "date.direct", setUp: reset) { n in
                dates(n) { Date() }
            },
            PerCall(id: "date.off", label: "raw date seam, nothing applied", baseline: "date.direct", setUp: reset) {
                n in dates(n) { dateSeam() }
            },
            PerCall(
                id: "date.shifted", label: "raw date seam, +1 day (transform)", baseline: "date.direct",
                setUp: {
                    reset()
                    try registry.apply(dateSeam, .transform { $0.addingTimeInterval(86_400) })
                }
            ) { n in dates(n) { dateSeam() } },
            PerCall(
                id: "date.spec-shifted", label: "a date seam of your own, shift(+1d) spec (a transform action)",
                baseline: "date.direct",
                setUp: {
                    reset()
                    try registry.apply(spec: "shift(+1d)", to: "bench.date.actions")
                }
            ) { n in dates(n) { actionDateSeam() } },
            PerCall(
                id: "date.shifted.half", label: "raw date seam, +1 day for 50% of calls (a compiled behaviour)",
                baseline: "date.direct",
                setUp: {
                    reset()
                    try registry.apply(
                        dateSeam, Behaviour.transform { $0.addingTimeInterval(86_400) }.probability(50, seed: 7))
                }
            ) { n in dates(n) { dateSeam() } },
            PerCall(
                id: "clock.off", label: "ChaosClock(id:) of this module, .date, nothing applied",
                baseline: "date.direct", setUp: reset
            ) {
                n in dates(n) { clock.date }
            },
            PerCall(
                id: "clock.shifted", label: "ChaosClock(id:) of this module, .date, shift(+1d)",
                baseline: "date.direct",
                setUp: {
                    reset()
                    try registry.apply(spec: "shift(+1d)", to: "bench.clock")
                }
            ) { n in dates(n) { clock.date } },
            PerCall(
                id: "shared.off", label: "ChaosClock.shared.date, nothing applied", baseline: "date.direct",
                setUp: reset
            ) { n in dates(n) { ChaosClock.shared.date } },
            PerCall(
                id: "shared.hoisted", label: "ChaosClock.shared taken out of the loop, nothing applied",
                baseline: "date.direct", setUp: reset
            ) { n in
                let clock = ChaosClock.shared
                dates(n) { clock.date }
            },
            PerCall(
                id: "shared.shifted", label: "ChaosClock.shared.date, shift(+1d)", baseline: "date.direct",
                setUp: {
                    reset()
                    try Registry.shared.apply(spec: "shift(+1d)", to: "clock.now")
                }
            ) { n in dates(n) { ChaosClock.shared.date } },
            PerCall(
                id: "shared.frozen", label: "ChaosClock.shared.date, freeze(2030-01-01)", baseline: "date.direct",
                setUp: {
                    reset()
                    try Registry.shared.apply(spec: "freeze(2030-01-01)", to: "clock.now")
                }
            ) { n in dates(n) { ChaosClock.shared.date } },
            PerCall(id: "deps.live", label: "@Dependency(\\.date.now), live", baseline: "date.direct", setUp: reset) {
                n in dates(n) { reader.now }
            },
            PerCall(
                id: "deps.overridden", label: "@Dependency(\\.date.now), overridden", baseline: "date.direct",
                setUp: reset
            ) { n in
                withDependencies {
                    $0.date.now = fixed
                } operation: {
                    dates(n) { reader.now }
                }
            },
        ]
    }()
}
