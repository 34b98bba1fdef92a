import Dispatch
import Foundation
import Mischief
import MischiefSystem
import SystemClockCallers

/// `--static-runtime`: the probe built with `-static-stdlib` (Scripts/static-stdlib.sh). The Swift runtime,
/// Foundation and libdispatch are then linked into the executable and share its one global offset table, so
/// `system.clock` leaves the executable alone unless it is named: checks that the default install covers nothing there
/// and says why, that `Date()` and libdispatch keep the real time, and that naming `(executable)` shifts `Date()` and,
/// as documented, libdispatch's wall clock with it (a `DispatchSemaphore` timeout then ends at the wrong time).
enum StaticRuntimeProbe {
    nonisolated(unsafe) static var failures: Int32 = 0

    static func check(_ passed: Bool, _ what: String) {
        print(passed ? "ok \(what)" : "FAIL \(what)")
        if !passed { failures += 1 }
    }

    /// Seconds since 1970 as libdispatch reads the wall clock (`DispatchWallTime.now()`, which libdispatch encodes
    /// as the negated nanoseconds).
    static func dispatchWallSeconds() -> Double {
        Double(-Int64(bitPattern: DispatchWallTime.now().rawValue)) / 1e9
    }

    /// How long a `DispatchSemaphore.wait(timeout:)` of `seconds` that nobody signals took, in monotonic seconds.
    static func semaphoreTimeout(_ seconds: Double) -> Double {
        let start = ContinuousClock.now
        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + seconds)
        let took = ContinuousClock.now - start
        return Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
    }

    static func run() -> Int32 {
        let day = 86_400.0
        check(SystemSeams.swiftRuntimeIsStatic, "the Swift runtime is linked statically (no libswiftCore.so loaded)")
        check(
            abs(dispatchWallSeconds() - RealClock.seconds()) < 5,
            "DispatchWallTime.now() reads as \(dispatchWallSeconds()), the real time \(RealClock.seconds())")
        let registry = Registry(sessionSeed: 4)

        // The default: the executable withheld, and the report says why.
        do {
            let report = try SystemSeams.install([.clock], in: registry)
            print("report: \(report)")
            let executable = report.libraries.first { $0.path.isEmpty && $0.family == .clock }
            check(
                executable.map { $0.slots > 0 && $0.rebound == 0 } ?? false,
                "default: the executable has wall-clock slots and none is rebound: \(String(describing: executable))")
            let reason = executable.map(SystemSeamsReport.reason) ?? ""
            check(
                reason.contains("linked statically") && reason.contains("name \"(executable)\""),
                "default: the report says why: \(reason)")
            check(report.rebound.isEmpty, "default: nothing is rebound (Foundation is in the executable)")
            try registry.apply(spec: "shift(+1d)", to: SystemSeams.clockID)
            check(
                abs(ThirdParty.date() - RealClock.seconds()) < 5, "default, shift(+1d): Date() keeps the real time")
            check(
                abs(dispatchWallSeconds() - RealClock.seconds()) < 5,
                "default, shift(+1d): DispatchWallTime.now() keeps the real time")
            try registry.apply(spec: "shift(-1d)", to: SystemSeams.clockID)
            let took = semaphoreTimeout(0.5)
            check(took >= 0.49 && took < 10, "default, shift(-1d): a 0.5 s semaphore timeout took \(took) s")
            registry.revert(seam: SystemSeams.clockID)
            SystemSeams.uninstall()
        } catch {
            check(false, "default install: \(error)")
        }

        // Named: the executable is rebound, with a warning, and libdispatch's wall clock moves with Date().
        let before = Stress.slots(in: [])
        do {
            let report = try SystemSeams.install([.clock], in: registry, libraries: ["(executable)"])
            print("report: \(report)")
            check(
                report.rebound.contains { $0.path.isEmpty }, "named: the executable is rebound")
            check(
                report.warnings.contains { $0.contains("DispatchWallTime") },
                "named: the report warns about libdispatch: \(report.warnings)")
            try registry.apply(spec: "shift(+1d)", to: SystemSeams.clockID)
            let real = RealClock.seconds()
            check(abs(ThirdParty.date() - (real + day)) < 5, "named, shift(+1d): Date() is a day later")
            check(abs(ThirdParty.time() - (real + day)) < 5, "named, shift(+1d): time() is a day later")
            check(
                abs(dispatchWallSeconds() - (real + day)) < 5,
                "named, shift(+1d): DispatchWallTime.now() is a day later too (the documented limit)")
            // A semaphore's timeout becomes an absolute deadline on the shifted wall clock, which the kernel waits for
            // on the real one: a day early here, so it ends at once (under shift(+1d) it would wait a day).
            try registry.apply(spec: "shift(-1d)", to: SystemSeams.clockID)
            let took = semaphoreTimeout(0.5)
            check(
                took < 0.25,
                "named, shift(-1d): a 0.5 s semaphore timeout ends at once, in \(took) s (the documented limit)")
            registry.revert(seam: SystemSeams.clockID)
            check(abs(ThirdParty.date() - RealClock.seconds()) < 5, "named, reverted: Date() is real")
            SystemSeams.uninstall()
        } catch {
            check(false, "install naming (executable): \(error)")
        }
        let after = Stress.slots(in: [])
        check(
            !before.isEmpty && before == after, "uninstalled: the executable's \(before.count) slots are as they were")
        check(abs(ThirdParty.date() - RealClock.seconds()) < 5, "uninstalled: Date() is real")
        print("failures: \(failures)")
        return failures
    }
}
