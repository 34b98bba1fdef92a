import Foundation
import Mischief
import MischiefAttach
import MischiefConsole
import MischiefControl
import Synchronization

/// Latencies in milliseconds of one kind of request.
struct Latencies {
    let p50: Double
    let p99: Double
    let max: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        p50 = sorted[sorted.count / 2]
        p99 = sorted[Int((Double(sorted.count) * 0.99).rounded(.up)) - 1]
        max = sorted[sorted.count - 1]
    }
}

/// The control socket's costs: request latency and rate, and what an attached console costs the target's calls.
///
/// Client and server run in this process, on the same two cores as the target thread, as they would on a
/// developer's machine with the console in another terminal.
enum ControlBenchmarks {
    /// `PUT /v1/seams/{id}` alternating two specs, each answered with the seam's new state and checked. The seam
    /// is reverted in process (untimed) between requests, so every apply lands on a seam with nothing applied, as
    /// when a console toggles a behaviour on (applies stack: without it the seam would hold hundreds of layers).
    static func applyLatency(_ fixture: ControlFixture, requests: Int = 500, warmUp: Int = 50) async throws -> Latencies
    {
        let client = ControlClient(socketPath: fixture.socketPath)
        let specs = ["return(1)", "return(2)"]
        let clock = ContinuousClock()
        var samples: [Double] = []
        for index in 0..<(warmUp + requests) {
            let spec = specs[index % 2]
            let began = clock.now
            let detail = try await client.apply(spec, to: fixture.applied.info.id)
            let elapsed = clock.now - began
            guard detail.seam.behaviourText == spec else {
                throw ControlBenchError(
                    "applied \(spec), the target answered \(detail.seam.behaviourText ?? "nothing")")
            }
            fixture.registry.revert(seam: fixture.applied.info.id)
            if index >= warmUp { samples.append(elapsed.seconds * 1000) }
        }
        return Latencies(samples)
    }

    /// `GET /v1/seams/{id}`.
    static func readLatency(_ fixture: ControlFixture, requests: Int = 500, warmUp: Int = 50) async throws -> Latencies
    {
        let client = ControlClient(socketPath: fixture.socketPath)
        let clock = ContinuousClock()
        var samples: [Double] = []
        for index in 0..<(warmUp + requests) {
            let began = clock.now
            let detail = try await client.seam(fixture.applied.info.id)
            let elapsed = clock.now - began
            blackhole(detail)
            if index >= warmUp { samples.append(elapsed.seconds * 1000) }
        }
        return Latencies(samples)
    }

    /// Seconds for `requests` sequential `GET /v1/target`, each on its own connection as the client makes them,
    /// and the process's CPU seconds meanwhile (client and server).
    static func sequential(
        _ fixture: ControlFixture, requests: Int = 1_000
    ) async throws -> (seconds: Double, cpu: Double) {
        let client = ControlClient(socketPath: fixture.socketPath)
        let cpuBefore = ConsoleBenchmarks.processCPUNanoseconds()
        let elapsed = try await ContinuousClock().measure {
            for _ in 0..<requests { blackhole(try await client.target()) }
        }
        let cpu = Double(ConsoleBenchmarks.processCPUNanoseconds() - cpuBefore) / 1e9
        return (elapsed.seconds, cpu)
    }

    /// The target thread's call rate with nobody attached and with a console attached, alternated `rounds` times.
    /// The latency runs before it filled the event log, so every load carries 200 events, as a busy target's do.
    static func watchedRates(
        _ fixture: ControlFixture, rounds: Int = 5, run: Duration = .milliseconds(1200)
    ) async throws -> (alone: [CallRate], watched: [CallRate]) {
        _ = await fixture.callRate(for: .milliseconds(300))  // warm up
        var alone: [CallRate] = []
        var watched: [CallRate] = []
        for _ in 0..<rounds {
            try await fixture.waitForSessions { $0.isEmpty }
            alone.append(await fixture.callRate(for: run))
            watched.append(try await watchedRate(fixture, run: run))
        }
        return (alone, watched)
    }

    /// One run with a `RemoteController` attached: it holds its session's events stream and takes every update the
    /// target pushes, as the console's runner does.
    static func watchedRate(_ fixture: ControlFixture, run: Duration) async throws -> CallRate {
        let controller = RemoteController(
            socketPath: fixture.socketPath, sessionName: "bench", saveDirectory: URL(fileURLWithPath: "/tmp"))
        let updates = controller.updates()
        let received = Atomic<Int>(0)
        let reader = Task {
            for await update in updates {
                if case .lost(let reason) = update { throw ControlBenchError("the console lost the target: \(reason)") }
                received.add(1, ordering: .relaxed)
            }
        }
        try await fixture.waitForSessions { $0.count == 1 && $0[0].streams == 1 }
        let rate = await fixture.callRate(for: run)
        await controller.close()
        try await reader.value
        guard received.load(ordering: .relaxed) >= 1 else {
            throw ControlBenchError("the console was sent nothing while attached")
        }
        return rate
    }

    /// Command to screen in an attached console (issue 26): from sending a command through a `RemoteController` to a
    /// rendered frame whose data shows it. A reader takes the controller's updates into a console state and renders
    /// each, as the runner does; a command counts as on screen when the frame rendered last is of the generation its
    /// answer carried.
    static func commandToScreen(
        _ fixture: ControlFixture, commands: Int = 1_000, warmUp: Int = 50
    ) async throws -> Latencies {
        let controller = RemoteController(
            socketPath: fixture.socketPath, sessionName: "bench", saveDirectory: URL(fileURLWithPath: "/tmp"))
        let updates = controller.updates()
        let shown = Atomic<UInt64>(0)
        let reader = Task {
            var state = ConsoleState(size: ScreenSize(rows: 40, columns: 120))
            for await update in updates {
                if case .lost(let reason) = update { throw ControlBenchError("the console lost the target: \(reason)") }
                _ = Console.update(&state, .update(update))
                blackhole(Console.render(state, size: state.size, theme: .standard))
                shown.store(state.data?.generation ?? 0, ordering: .releasing)
            }
        }
        defer { reader.cancel() }
        try await fixture.waitForSessions { $0.count == 1 && $0[0].streams == 1 }
        let clock = ContinuousClock()
        var samples: [Double] = []
        for index in 0..<(warmUp + commands) {
            let began = clock.now
            let generation = try await controller.apply(
                index % 2 == 0 ? "return(1)" : "return(2)", to: fixture.applied.info.id)
            let deadline = began + .seconds(5)
            while shown.load(ordering: .acquiring) < generation {
                guard clock.now < deadline else { throw ControlBenchError("generation \(generation) never shown") }
                await Task.yield()
            }
            if index >= warmUp { samples.append((clock.now - began).seconds * 1000) }
        }
        await controller.close()
        return Latencies(samples)
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func verdict(_ passed: Bool) -> String { passed ? "pass" : "FAIL" }

    /// Measures and prints the control socket's section of the report.
    static func report() async throws {
        let fixture = try ControlFixture()
        do {
            try await fixture.start()
            try await report(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    private static func report(_ fixture: ControlFixture) async throws {
        print("")
        print("control socket (SwiftNIO, Unix socket, client in this process, one connection per request)")
        let apply = try await applyLatency(fixture)
        let read = try await readLatency(fixture)
        for (name, value) in [("PUT /v1/seams/{id} apply+confirm", apply), ("GET /v1/seams/{id}", read)] {
            print(
                name.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(format: "p50 %6.3f  p99 %6.3f  max %6.3f ms   ", value.p50, value.p99, value.max)
                    + "target p99 < 5 ms  \(verdict(value.p99 < 5))")
        }
        let screen = try await commandToScreen(fixture)
        print(
            "attached console, command→screen".padding(toLength: 34, withPad: " ", startingAt: 0)
                + String(format: "p50 %6.3f  p99 %6.3f  max %6.3f ms   ", screen.p50, screen.p99, screen.max)
                + "1,000 applies through RemoteController, each rendered")
        let (total, cpu) = try await sequential(fixture)
        print(
            String(
                format: "GET /v1/target × 1,000 sequential  %6.3f s   %6.0f requests/s   CPU %4.0f µs/request",
                total, 1_000 / total, cpu * 1e3))

        let (alone, watched) = try await watchedRates(fixture)
        let aloneRate = median(alone.map(\.callsPerSecond))
        let watchedRate = median(watched.map(\.callsPerSecond))
        let ratio = watchedRate / aloneRate
        let runs = { (rates: [CallRate]) in
            rates.map { String(format: "%.1f", $0.callsPerSecond / 1e6) }.joined(separator: " ")
        }
        let rest = { (rates: [CallRate]) in String(format: "%4.1f%%", median(rates.map(\.otherCPU)) * 100) }
        print(
            String(format: "seam calls (off, counted), nobody attached:  %6.1f M calls/s", aloneRate / 1e6)
                + "   runs \(runs(alone)); rest of process \(rest(alone)) of a core")
        print(
            String(format: "seam calls, console attached (load/250 ms):  %6.1f M calls/s", watchedRate / 1e6)
                + "   runs \(runs(watched)); rest of process \(rest(watched)) of a core")
        print(String(format: "watched / alone:  %.3fx", ratio) + "   target ≥ 0.90x  \(verdict(ratio >= 0.9))")
    }
}
