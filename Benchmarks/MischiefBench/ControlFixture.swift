import Foundation
import Mischief
import MischiefControl
import Synchronization

/// A control server on a private socket, serving a registry of two seams: one the benchmarks apply specs to, one
/// the target thread calls.
final class ControlFixture: Sendable {
    let registry = Registry(sessionSeed: 2)
    let applied = Seam<Int, Int, Never>(
        "bench.control.apply", title: "Applied", category: "Bench", summary: "x + 1"
    ) { trivial($0) }
    let called = Seam<Int, Int, Never>(
        "bench.control.calls", title: "Called", category: "Bench", summary: "x + 1"
    ) { trivial($0) }
    /// A `mkdtemp` directory under /tmp, so the socket path fits `sun_path` (107 bytes).
    let directory: String
    let server: ControlServer

    var socketPath: String { server.socketPath }

    init() throws {
        var template = Array("/tmp/mischief-bench.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ControlBenchError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        try registry.register(applied, called)
        var options = ControlServer.Options(name: "bench", socketPath: directory + "/control.sock")
        options.countsWhileServing = true
        // `MISCHIEF_BENCH_CPU_SHARE=1 mischief-bench --control`: the same figures without the server's CPU budget
        // (8% of a core by default), to tell its pacing from the cost of the road.
        if let share = ProcessInfo.processInfo.environment["MISCHIEF_BENCH_CPU_SHARE"].flatMap(Double.init) {
            options.limits.cpuShare = share
        }
        server = ControlServer(registry: registry, options: options)
    }

    func start() async throws { try await server.start() }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Waits (polling, up to `timeout`) until the server's sessions satisfy `condition`.
    func waitForSessions(
        timeout: Duration = .seconds(5), _ condition: @Sendable ([SessionInfo]) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(server.sessions) {
            guard ContinuousClock.now < deadline else {
                throw ControlBenchError("sessions did not settle: \(server.sessions)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// What a plain thread calling a seam as fast as it can reports.
struct CallRate: Sendable {
    /// Calls per second over the run, measured by the calling thread.
    var callsPerSecond: Double
    /// The share of one core the rest of the process used meanwhile (server, client, console polling).
    var otherCPU: Double
}

extension ControlFixture {
    /// Calls the counted seam from a new plain thread (not the Swift task pool) for `duration` of wall time.
    func callRate(for duration: Duration) async -> CallRate {
        let seam = called
        let nanoseconds =
            UInt64(duration.components.seconds) * 1_000_000_000
            + UInt64(duration.components.attoseconds / 1_000_000_000)
        let processBefore = ConsoleBenchmarks.processCPUNanoseconds()
        let (calls, elapsed, threadCPU) = await withCheckedContinuation { continuation in
            let thread = Thread {
                let start = DispatchTime.now().uptimeNanoseconds
                let cpuBefore = ConsoleBenchmarks.threadCPUNanoseconds()
                var calls = 0
                var sum = 0
                var now = start
                while now - start < nanoseconds {
                    for index in 0..<10_000 { sum &+= seam(index) }
                    calls += 10_000
                    now = DispatchTime.now().uptimeNanoseconds
                }
                blackhole(sum)
                let cpu = ConsoleBenchmarks.threadCPUNanoseconds() - cpuBefore
                continuation.resume(returning: (calls, now - start, cpu))
            }
            thread.start()
        }
        let processCPU = ConsoleBenchmarks.processCPUNanoseconds() - processBefore
        let wall = Double(elapsed)
        return CallRate(
            callsPerSecond: Double(calls) / wall * 1e9, otherCPU: Double(processCPU - threadCPU) / wall)
    }
}

/// A benchmark that could not run as set up.
struct ControlBenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
