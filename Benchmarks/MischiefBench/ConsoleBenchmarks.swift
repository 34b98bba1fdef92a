import Foundation
import Mischief
import MischiefConsole
import Synchronization

/// What the paced caller thread and the measuring task share.
final class CallerState: Sendable {
    let stop = Atomic<Bool>(false)
    let cpu = Atomic<Int>(0)
    let calls = Atomic<Int>(0)
}

/// The console's costs: render time per frame, and its CPU while the target idles or calls a seam 1M times/s.
enum ConsoleBenchmarks {
    /// Milliseconds per `Console.render` of `seams` synthetic seams at 200×60, fresh data every frame.
    static func renderMilliseconds(seams: Int, frames: Int = 300) -> Double {
        let size = ScreenSize(rows: 60, columns: 200)
        var state = ConsoleState(size: size)
        let data = (0..<8).map { ConsoleData.synthetic(seams: seams, frame: $0) }
        let clock = ContinuousClock()
        var total = Duration.zero
        for frame in 0..<frames {
            state.show(data[frame % data.count])
            total += clock.measure { blackhole(Console.render(state, size: size, theme: .standard)) }
        }
        return total.seconds * 1000 / Double(frames)
    }

    /// The share of one core the console used over `duration` (process CPU minus the calling thread's CPU).
    static func consoleCPU(callsPerSecond: Int, duration: Duration = .seconds(5)) async throws -> (
        console: Double, calls: Double
    ) {
        let registry = Registry(sessionSeed: 1)
        let seams = (0..<6).map { index in
            Seam<Int, Int, Never>(
                SeamID(stringLiteral: "bench.console.s\(index)"), title: "Seam \(index)",
                category: "Bench", summary: "x + 1"
            ) { $0 &+ 1 }
        }
        try registry.register(seams)
        let observation = registry.observe()
        defer { observation.cancel() }
        let terminal = MemoryTerminal(size: ScreenSize(rows: 60, columns: 200))
        let controller = LocalController(
            registry: registry, name: "bench", saveDirectory: URL(fileURLWithPath: NSTemporaryDirectory()))
        let runner = ConsoleRunner(terminal: terminal, controller: controller)
        let console = Task { try await runner.run() }
        _ = await terminal.frame(containing: "Seam 0")

        let shared = CallerState()
        let caller = Thread {
            guard callsPerSecond > 0 else { return }
            let start = DispatchTime.now().uptimeNanoseconds
            var calls = 0
            var sum = 0
            while !shared.stop.load(ordering: .relaxed) {
                // Pace to the rate: call in batches, spin until the next batch is due.
                let due = Int(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 * Double(callsPerSecond))
                while calls < due {
                    for seam in seams { sum &+= seam(calls) }
                    calls += seams.count
                }
            }
            blackhole(sum)
            shared.calls.store(calls, ordering: .relaxed)
            shared.cpu.store(threadCPUNanoseconds(), ordering: .relaxed)
        }
        let before = processCPUNanoseconds()
        let began = ContinuousClock.now
        caller.start()
        try await Task.sleep(for: duration)
        shared.stop.store(true, ordering: .relaxed)
        while callsPerSecond > 0 && shared.cpu.load(ordering: .relaxed) == 0 { await Task.yield() }
        let wall = (ContinuousClock.now - began).seconds
        let used = Double(processCPUNanoseconds() - before - shared.cpu.load(ordering: .relaxed)) / 1e9
        terminal.push(.character("q"))
        _ = try await console.value
        return (used / wall, Double(shared.calls.load(ordering: .relaxed)) / wall)
    }

    static func processCPUNanoseconds() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let user = Int(usage.ru_utime.tv_sec) * 1_000_000_000 + Int(usage.ru_utime.tv_usec) * 1000
        let system = Int(usage.ru_stime.tv_sec) * 1_000_000_000 + Int(usage.ru_stime.tv_usec) * 1000
        return user + system
    }

    static func threadCPUNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
    }
}
