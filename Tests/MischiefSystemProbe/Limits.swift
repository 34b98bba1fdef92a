import Foundation
import Mischief
import MischiefSystem
import Synchronization
import SystemClockCallers

/// `--limits`: what no spec may do to the process through the system seams. A latency too long for the hooks'
/// nanoseconds, a latency a connect is sleeping through when its layer is reverted or the seams uninstalled, a shift
/// past the latest instant the clock's nanoseconds hold: the process lives, the connect returns, the clock does not
/// wrap to the past. Loopback only.
enum LimitsProbe {
    static func check(_ passed: Bool, _ what: String) { NetProbe.check(passed, what) }

    final class Finished: Sendable {
        let value = Mutex<(NetProbe.Outcome, Double)?>(nil)
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A blocking connect to 127.0.0.1:`port` on a thread of its own, `action` 300 ms later: whether the connect
    /// was still waiting then, and what it gave and after how long, or nil if it had not returned within `limit` s.
    static func connect(
        port: Int, within limit: Double, after action: () -> Void
    ) -> (waited: Bool, outcome: NetProbe.Outcome, took: Double)? {
        let finished = Finished()
        let start = ContinuousClock.now
        Thread {
            let outcome = NetProbe.connectToLoopback(port: port)
            let took = seconds(since: start)
            finished.value.withLock { $0 = (outcome, took) }
        }.start()
        usleep(300_000)
        let waited = finished.value.withLock { $0 == nil }
        action()
        while seconds(since: start) < limit {
            if let (outcome, took) = finished.value.withLock({ $0 }) { return (waited, outcome, took) }
            usleep(10_000)
        }
        return nil
    }

    static func run() async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let responder = NetProbe.Responder()
        let port = responder.port
        let registry = Registry(sessionSeed: 3)
        do {
            _ = try SystemSeams.install([.clock, .net], in: registry)
        } catch {
            print("FAIL install: \(error)")
            return 1
        }
        func apply(_ spec: String, to seam: SeamID = SystemSeams.netID) {
            do {
                try registry.apply(spec: spec, to: seam)
            } catch {
                check(false, "apply \(spec): \(error)")
            }
        }

        apply("latency(by: 1h)")
        let reverted = connect(port: port, within: 10) { registry.revert(seam: SystemSeams.netID) }
        check(
            reverted.map { $0.waited && $0.outcome == .connected } == true,
            "latency(by: 1h) reverted while a connect sleeps: it connects at once: \(String(describing: reverted))")

        apply("latency(by: 200y) + latency(by: 200y)")
        let endless = connect(port: port, within: 10) { registry.revert(seam: SystemSeams.netID) }
        check(
            endless.map { $0.waited && $0.outcome == .connected } == true,
            "latency(by: 200y) + latency(by: 200y): the process lives, and the revert ends the wait: "
                + "\(String(describing: endless))")

        let year = 365.0 * 86_400
        apply("shift(+250y)", to: SystemSeams.clockID)
        let shifted = ThirdParty.date()
        check(
            shifted > real() + 200 * year,
            "shift(+250y): Date() is \(shifted), past 2226, not wrapped to the past (the latest instant is 2262)")
        let seconds = ThirdParty.time()
        check(seconds > real() + 200 * year, "shift(+250y): time() is \(seconds), not wrapped to the past")
        registry.revert(seam: SystemSeams.clockID)
        check(abs(ThirdParty.date() - real()) < 5, "shift(+250y) reverted: Date() is real")

        apply("latency(by: 1h)")
        let uninstalled = connect(port: port, within: 10) { _ = SystemSeams.uninstall() }
        check(
            uninstalled.map { $0.waited && $0.outcome == .connected } == true,
            "latency(by: 1h) and the seams uninstalled while a connect sleeps: it connects at once: "
                + "\(String(describing: uninstalled))")
        print("failures: \(NetProbe.failures)")
        return NetProbe.failures
    }
}
