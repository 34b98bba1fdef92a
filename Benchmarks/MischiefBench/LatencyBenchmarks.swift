import Foundation
import Mischief
import MischiefAttach
import MischiefConsole
import MischiefControl
import Synchronization

/// `mischief-bench --latency`: how long the console takes to show what a key did, measured on the console's own
/// frames (a ``MemoryTerminal``: no terminal in between).
///
/// - Command → screen, in process (``LocalController``) and attached (``RemoteController`` over a ``ControlServer``
///   on a socket in this process): Space switches a seam's spec on and off; the time from the key to the first frame
///   that shows the seam's new status.
/// - Key → frame while a command waits on a stopped target: the first apply never answers (the target is held);
///   meanwhile `?` opens and Esc closes the help screen; the time from each key to the frame that shows it.
///   Goal (issue 45): p99 ≤ 16 ms (a frame at 60 Hz).
enum LatencyBenchmarks {
    static func report(rounds: Int = 200) async throws {
        print("Console latency, \(rounds) keys each (p50 / p99 / max, ms)")
        print("| what | p50 | p99 | max |")
        print("|---|---|---|---|")
        let local = try await commandToScreen(attached: false, rounds: rounds)
        print(row("command → screen, in process (Space on a seam)", local))
        let attached = try await commandToScreen(attached: true, rounds: rounds)
        print(row("command → screen, attached over the socket", attached))
        let stopped = try await keyToFrameWhileStopped(rounds: rounds)
        print(row("key → frame while a command waits on a stopped target", stopped))
    }

    static func row(_ what: String, _ samples: [Duration]) -> String {
        let sorted = samples.map { $0.seconds * 1000 }.sorted()
        func at(_ fraction: Double) -> String {
            String(format: "%.2f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))])
        }
        return "| \(what) | \(at(0.5)) | \(at(0.99)) | \(String(format: "%.2f", sorted.last ?? 0)) |"
    }

    /// A registry with one seam the console lists first.
    static func target() throws -> Registry {
        let registry = Registry(sessionSeed: 3)
        try registry.register(
            Seam<Void, Int, Never>("bench.answer", title: "The answer", category: "Bench", summary: "42") { 42 })
        return registry
    }

    static func commandToScreen(attached: Bool, rounds: Int) async throws -> [Duration] {
        let registry = try target()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latency-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let controller: any ConsoleController
        var server: ControlServer?
        if attached {
            let path = "/tmp/mischief-latency-\(getpid()).sock"
            let serving = ControlServer(registry: registry, options: .init(name: "latency", socketPath: path))
            try await serving.start()
            server = serving
            controller = RemoteController(socketPath: path, saveDirectory: directory)
        } else {
            controller = LocalController(registry: registry, name: "latency", saveDirectory: directory)
        }
        let terminal = MemoryTerminal(size: ScreenSize(rows: 30, columns: 120))
        let run = Task { try await ConsoleRunner(terminal: terminal, controller: controller).run() }
        _ = await terminal.frame(containing: "The answer")
        terminal.push(.character("j"))  // from the category's row to the seam's
        var samples: [Duration] = []
        let clock = ContinuousClock()
        for round in 0..<rounds {
            let on = round % 2 == 0
            let start = clock.now
            terminal.push(.character(" "))
            _ = await terminal.frame { $0.text.contains(" active") == on }  // the seam's status, row and detail
            samples.append(clock.now - start)
        }
        terminal.push([.character("q"), .character("q")])
        _ = try? await run.value
        if let remote = controller as? RemoteController { await remote.close() }
        await server?.stop()
        return samples
    }

    static func keyToFrameWhileStopped(rounds: Int) async throws -> [Duration] {
        let registry = try target()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latency-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let controller = Stopped(LocalController(registry: registry, name: "latency", saveDirectory: directory))
        defer { controller.resume() }
        let terminal = MemoryTerminal(size: ScreenSize(rows: 30, columns: 120))
        let run = Task { try await ConsoleRunner(terminal: terminal, controller: controller).run() }
        _ = await terminal.frame(containing: "The answer")
        terminal.push([.character("j"), .character(" ")])  // an apply the stopped target holds
        _ = await terminal.frame(containing: "waiting for the target")
        var samples: [Duration] = []
        let clock = ContinuousClock()
        for round in 0..<rounds {
            let opens = round % 2 == 0
            let start = clock.now
            terminal.push(opens ? .character("?") : .escape)
            _ = await terminal.frame { $0.text.contains("Keys ·") == opens }
            samples.append(clock.now - start)
        }
        terminal.push([.character("q"), .character("q")])
        _ = try? await run.value
        return samples
    }

    /// A target that stops: its first apply waits until ``resume()``; everything else is the local controller's.
    final class Stopped: ConsoleController {
        let inner: LocalController
        private let held = Mutex<(CheckedContinuation<Void, Never>?, resumed: Bool)>((nil, false))

        init(_ inner: LocalController) { self.inner = inner }

        func resume() {
            let waiting = held.withLock { held in
                held.resumed = true
                defer { held.0 = nil }
                return held.0
            }
            waiting?.resume()
        }

        func updates() -> AsyncStream<ConsoleUpdate> { inner.updates() }
        func apply(_ spec: String, to seam: SeamID) async throws -> UInt64 {
            await withCheckedContinuation { continuation in
                let go = held.withLock { held in
                    if held.resumed { return true }
                    held.0 = continuation
                    return false
                }
                if go { continuation.resume() }
            }
            return try await inner.apply(spec, to: seam)
        }
        func revert(_ seam: SeamID) async throws -> UInt64 { try await inner.revert(seam) }
        func release(_ seam: SeamID) async throws -> (released: Int, generation: UInt64) {
            try await inner.release(seam)
        }
        func setTTL(_ ttl: Duration?, on seam: SeamID) async throws -> UInt64 { try await inner.setTTL(ttl, on: seam) }
        func revertAll() async throws -> UInt64 { try await inner.revertAll() }
        func resetCounters(_ seam: SeamID?) async throws -> UInt64 { try await inner.resetCounters(seam) }
        func toggleProfile(_ name: String) async throws -> (isOn: Bool, generation: UInt64) {
            try await inner.toggleProfile(name)
        }
        func advanceTime(by duration: Duration) async throws -> UInt64 { try await inner.advanceTime(by: duration) }
        func saveProfile(named name: String, overwrite: Bool) async throws -> String {
            try await inner.saveProfile(named: name, overwrite: overwrite)
        }
    }
}
