import Foundation
import Mischief
import MischiefControl

/// `mischief-bench --attack SOCKET --pid PID`: the HTTP attack suite in full against an ``AttackTarget`` in another
/// process. Each phase runs one attack from threads of this process for a few seconds while a second client times
/// `GET /v1/target` and the target's seam-call rate and RSS are read; the table compares each with the unattacked
/// baseline. Loopback Unix socket only; every loop is bounded in count and time.
enum AttackBenchmarks {
    struct Figures {
        var p50 = 0.0, p99 = 0.0, failed = 0, rate = 0.0, rssMB = 0.0
    }

    static func run(socket: String, pid: Int32, seconds: Double, pace: UInt32) throws {
        raiseDescriptorLimit()
        let baseline = try measure(socket: socket, pid: pid, seconds: seconds) {}
        print(
            "phase                          GET /v1/target p50/p99 ms  failed  seam calls (x baseline)  target RSS MB")
        line("baseline (no attack)", baseline, baseline)
        var worst = 1.0
        var worstP99 = 0.0
        print(pace == 0 ? "attackers: 2 threads, back to back (a flood)" : "attackers: 2 threads, \(pace) µs apart")
        // ATTACK_ONLY=TEXT runs only the phases whose names contain it (profiling one attack).
        let only = ProcessInfo.processInfo.environment["ATTACK_ONLY"].flatMap { $0.isEmpty ? nil : $0 }
        for (name, attack) in phases(socket: socket, pace: pace) where only.map(name.contains) ?? true {
            let stop = AttackSwitch()
            let attackers = (0..<2).map { _ in Thread { attack(stop) } }
            for thread in attackers { thread.start() }
            let figures = try measure(socket: socket, pid: pid, seconds: seconds) {}
            stop.flip()
            stop.waitForAttackers(attackers.count)
            line(name, figures, baseline)
            worst = min(worst, figures.rate / baseline.rate)
            worstP99 = max(worstP99, figures.p99)
        }
        let recovery = try exhaustAndRecover(socket: socket)
        print(
            String(
                format: "descriptors: %d held; %@; answered again %.0f ms after they closed", recovery.held,
                recovery.refused ? "new clients refused while held" : "the server kept answering", recovery.ms))
        print(
            String(
                format: "worst p99 %.1f ms (target < 50 ms) %@; worst seam-call rate %.2fx (target >= 0.90x) %@",
                worstP99 * 1000, worstP99 < 0.05 ? "pass" : "FAIL", worst, worst >= 0.9 ? "pass" : "FAIL"))
    }

    private static func line(_ name: String, _ figures: Figures, _ baseline: Figures) {
        print(
            name.padding(toLength: 31, withPad: " ", startingAt: 0)
                + String(
                    format: "%8.2f / %6.2f          %4d    %8.1f M/s (%.2fx)     %7.1f",
                    figures.p50 * 1000, figures.p99 * 1000, figures.failed, figures.rate / 1e6,
                    figures.rate / baseline.rate, figures.rssMB))
    }

    /// Times `GET /v1/target` for `seconds` and reads the call rate and RSS meanwhile.
    private static func measure(socket: String, pid: Int32, seconds: Double, _ during: () -> Void) throws -> Figures {
        let before = try calls(socket: socket)
        let start = ContinuousClock.now
        var times: [Double] = []
        var failed = 0
        while (ContinuousClock.now - start).seconds < seconds {
            let began = ContinuousClock.now
            if let answer = try? Wire.exchange(
                socket, "GET /v1/target HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n"),
                answer.hasPrefix("HTTP/1.1 200")
            {
                times.append((ContinuousClock.now - began).seconds)
            } else {
                failed += 1
            }
            usleep(10_000)
        }
        let elapsed = (ContinuousClock.now - start).seconds
        let after = try calls(socket: socket)
        times.sort()
        let pick = { (fraction: Double) in
            times.isEmpty ? .infinity : times[min(times.count - 1, Int(Double(times.count) * fraction))]
        }
        return Figures(
            p50: pick(0.5), p99: pick(0.99), failed: failed, rate: Double(after - before) / elapsed, rssMB: rss(pid))
    }

    /// The target's seam-call count; retried, since under a flood a connection may be shed before it is read.
    private static func calls(socket: String) throws -> Int {
        var answer = ""
        for _ in 0..<100 {
            answer =
                (try? Wire.exchange(
                    socket, "GET /v1/seams/\(AttackTarget.seamID) HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n"))
                ?? ""
            if let range = answer.range(of: "\"calls\":") {
                return Int(answer[range.upperBound...].prefix { $0.isNumber }) ?? 0
            }
            usleep(20_000)
        }
        throw ControlBenchError("no calls in \(answer.prefix(200))")
    }

    private static func rss(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Double(line.split(separator: " ")[1]) ?? 0) / 1024
    }

    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
