// `mischief-system-probe`: installs the system seams in this process, drives `system.clock` through its actions and
// checks what code written without Mischief (SystemClockCallers) sees, and what must never change (monotonic clocks,
// Dispatch and Task timeouts, Mischief's own clock). A process of its own, because the rebinding is process-wide: the
// test suite's other tests must not see its chaos. Prints `ok …` or `FAIL …` per check and the report; exits with the
// number of failures. `--stress N [--install-every K]`: eight threads read the clock and connect to a loopback listener
// while the main thread runs N rounds of applying and reverting system.clock and system.net, installing and
// uninstalling both every K rounds (10 by default; Stress.swift); every reading and connection must be one the seams could give, and every slot must end as it
// began. A test
// tool, not part of the shipping `mischief`. `--net`: installs system.clock and system.net and checks, on loopback
// only, what a plain socket client and URLSession (through libcurl) see under system.net's actions (Net.swift).
// `--limits`: no latency or shift too long kills, wedges or wraps the process (Limits.swift).
// `--static-runtime`: for a build with `-static-stdlib` (Scripts/static-stdlib.sh), what system.clock covers when the
// Swift runtime, Foundation and libdispatch are linked into the executable (StaticRuntime.swift).
import Dispatch
import Foundation
import Mischief
import MischiefCatalog
import MischiefSystem
import SystemClockCallers

nonisolated(unsafe) var failures = 0

func check(_ passed: Bool, _ what: String) {
    print(passed ? "ok \(what)" : "FAIL \(what)")
    if !passed { failures += 1 }
}

/// Every third-party reading, each compared with `expected` seconds since 1970 within `slack`.
func checkReadings(near expected: Double, slack: Double = 5, _ when: String) {
    for (name, reading) in [
        ("Date()", ThirdParty.date()), ("time()", ThirdParty.time()), ("gettimeofday", ThirdParty.timeOfDay()),
        ("clock_gettime(CLOCK_REALTIME)", ThirdParty.realtime()),
    ] {
        check(abs(reading - expected) <= slack, "\(when): \(name) is \(reading), expected \(expected) ± \(slack)")
    }
}

/// The real time now, in seconds since 1970, as Mischief reads it (never rebound).
func real() -> Double { RealClock.seconds() }

/// How long `body` took, in seconds of the monotonic clock.
func elapsed(_ body: () async -> Void) async -> Double {
    let start = ContinuousClock.now
    await body()
    let duration = ContinuousClock.now - start
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Timeouts and sleeps that must stay exact whatever the wall clock says.
func checkTimeoutsStayExact(_ when: String) async {
    let after = await elapsed {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) { continuation.resume() }
        }
    }
    check(after >= 0.19 && after < 10, "\(when): asyncAfter(deadline:) of 0.2 s took \(after) s")
    let wall = await elapsed {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(wallDeadline: .now() + .milliseconds(200)) { continuation.resume() }
        }
    }
    check(wall >= 0.19 && wall < 10, "\(when): asyncAfter(wallDeadline:) of 0.2 s took \(wall) s")
    let semaphore = DispatchSemaphore(value: 0)
    let waited = await elapsed { _ = semaphore.wait(timeout: .now() + .milliseconds(200)) }
    check(waited >= 0.19 && waited < 10, "\(when): DispatchSemaphore.wait(timeout:) of 0.2 s took \(waited) s")
    let slept = await elapsed { try? await Task.sleep(for: .milliseconds(200)) }
    check(slept >= 0.19 && slept < 10, "\(when): Task.sleep of 0.2 s took \(slept) s")
    let monotonic = ThirdParty.monotonic()
    let continuous = ContinuousClock.now
    _ = await elapsed { try? await Task.sleep(for: .milliseconds(50)) }
    let moved = ThirdParty.monotonic() - monotonic
    let movedContinuous = ContinuousClock.now - continuous
    check(moved > 0.04 && moved < 10, "\(when): CLOCK_MONOTONIC moved \(moved) s in a 50 ms sleep")
    check(
        movedContinuous > .milliseconds(40) && movedContinuous < .seconds(10),
        "\(when): ContinuousClock moved \(movedContinuous) in a 50 ms sleep")
}

if CommandLine.arguments.count >= 3, CommandLine.arguments[1] == "--stress", let rounds = Int(CommandLine.arguments[2])
{
    // `--stress N [--install-every K]`: K is 10 unless given.
    let every = CommandLine.arguments.count == 5 && CommandLine.arguments[3] == "--install-every"
    exit(Stress.run(rounds: rounds, installEvery: every ? max(1, Int(CommandLine.arguments[4]) ?? 10) : 10))
}
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--static-runtime" {
    exit(StaticRuntimeProbe.run())
}
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--limits" {
    exit(await LimitsProbe.run())
}
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--net" {
    exit(await NetProbe.run())
}

let registry = Registry(sessionSeed: 1)
let ownClock = ChaosClock(id: "probe.clock")
try registry.register(ownClock.seam)
let day = 86_400.0

let report: SystemSeamsReport
do {
    report = try SystemSeams.install([.clock], in: registry)
} catch {
    print("FAIL install: \(error)")
    exit(1)
}
print("report: \(report)")
check(report.rebound.contains { $0.name.hasPrefix("libFoundationEssentials.so") }, "FoundationEssentials is rebound")
check(report.rebound.contains { $0.name == "(executable)" }, "the executable is rebound")
check(!SystemSeams.swiftRuntimeIsStatic, "the Swift runtime is linked dynamically (libswiftCore.so is loaded)")
check(
    !report.rebound.contains { SystemSeams.excludedLibraries.contains(where: $0.name.hasPrefix) },
    "no excluded library is rebound")
check(registry.snapshot().seams.contains { $0.id == SystemSeams.clockID }, "system.clock is registered")

checkReadings(near: real(), "installed, nothing applied")

try registry.apply(spec: "shift(+1d)", to: SystemSeams.clockID)
checkReadings(near: real() + day, "shift(+1d)")
check(abs(ownClock.date.timeIntervalSince1970 - real()) < 5, "shift(+1d): Mischief's own clock is not shifted")
check(
    abs(StaticRuntimeProbe.dispatchWallSeconds() - real()) < 5,
    "shift(+1d): DispatchWallTime.now() is not shifted (libdispatch is not rebound)")
check(
    abs(Date(timeIntervalSince1970: real()).timeIntervalSince1970 - real()) < 5,
    "shift(+1d): the real clock is real")
await checkTimeoutsStayExact("shift(+1d)")
try registry.apply(spec: "shift(+1d)", to: "probe.clock")
check(abs(ownClock.date.timeIntervalSince1970 - (real() + day)) < 5, "clock.now and system.clock do not stack")
registry.revert(seam: "probe.clock")
let counted = registry.snapshot().seams.first { $0.id == SystemSeams.clockID }?.counters
check(
    (counted?.chaosCalls ?? 0) > 0,
    "system.clock counts the calls that met its behaviour: \(String(describing: counted))")

try registry.apply(spec: "freeze(2030-01-01T00:00:00Z)", to: SystemSeams.clockID)
checkReadings(near: 1_893_456_000, slack: 0.001, "freeze(2030-01-01)")
await checkTimeoutsStayExact("freeze(2030-01-01)")
checkReadings(near: 1_893_456_000, slack: 0.001, "freeze(2030-01-01), later")

try registry.apply(spec: "dilate(60)", to: SystemSeams.clockID)
let before = ThirdParty.date()
let took = await elapsed { try? await Task.sleep(for: .milliseconds(200)) }
let passed = ThirdParty.date() - before
check(passed > took * 30 && passed < took * 120, "dilate(60): \(passed) s passed in \(took) s")
await checkTimeoutsStayExact("dilate(60)")

registry.revert(seam: SystemSeams.clockID)
checkReadings(near: real(), "reverted")

let restored = SystemSeams.uninstall()
let rebound = report.rebound.reduce(0) { $0 + $1.rebound }
check(restored == rebound, "uninstall restored \(restored) slots of the \(rebound) rebound")
check(SystemSeams.report == nil, "nothing is installed after uninstall")
check(!registry.snapshot().seams.contains { $0.id == SystemSeams.clockID }, "system.clock is unregistered")
checkReadings(near: real(), "uninstalled")

do {
    let again = try SystemSeams.install([.clock], in: registry)
    try registry.apply(spec: "shift(-1d)", to: SystemSeams.clockID)
    checkReadings(near: real() - day, "installed again, shift(-1d)")
    check(SystemSeams.uninstall() == again.rebound.reduce(0) { $0 + $1.rebound }, "uninstalled again")
    checkReadings(near: real(), "uninstalled again")
} catch {
    check(false, "install again: \(error)")
}

print("failures: \(failures)")
exit(Int32(min(failures, 100)))
