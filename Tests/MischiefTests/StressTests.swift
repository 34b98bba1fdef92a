import Dispatch
import Foundation
import Mischief
import MischiefTestSupport
import Synchronization
import Testing

/// Callers on 8 threads against 2 threads that apply, stack, toggle and revert the same profiles, and a reader
/// taking snapshots: afterwards every count adds up exactly, everything is reverted and freed, and memory is flat.
@Suite struct StressTests {
    static let callers = 8
    static let callsPerCaller = 4_000  // per round, at least
    static let maxCallsPerCaller = 25_000  // per round, so that a round stays short on a busy machine
    static let profileOperations = 5_000  // per round, shared by the two churners

    /// What the callers saw, tallied per seam, to check the registry's counters against.
    struct Seen {
        var calls = [0, 0, 0]  // double, parse, fetch
        var doubleChaos = 0
        var parseChaos = 0
        var parseErrors = 0
        var fetchChaos = 0
    }

    /// One round: the churners run to their end while the callers keep calling. Returns what the callers saw.
    ///
    /// It waits for its threads on threads of their own: blocking the task pool (two threads here) while the fetch
    /// callers' tasks need it starved them under a loaded machine until waitFor's deadline.
    static func round(_ f: Fixture) async throws -> Seen {
        let seen = Mutex(Seen())
        let failure = Mutex<(any Error)?>(nil)
        let stop = Atomic<Bool>(false)
        let churning = Atomic<Bool>(true)
        let snapshots = Atomic<Int>(0)
        let churners = onThreads(2) { churner in
            for step in 0..<(profileOperations / 2) {
                let name = (step + churner) % 3 == 0 ? "B" : "A"
                switch (step / 3 + churner) % 4 {
                case 0: _ = try? f.registry.toggle(profile: name)
                case 1: _ = try? f.registry.apply(profile: name)
                case 2: f.registry.revert(profile: name)
                default: _ = try? f.registry.apply(profile: "A"); _ = try? f.registry.apply(profile: "B")  // stack
                }
            }
        }
        let reader = onThreads(1) { _ in
            while !stop.load(ordering: .relaxed) {
                let snapshot = f.registry.snapshot()
                precondition(snapshot.seams.allSatisfy { $0.counters.inFlight >= 0 })
                snapshots.wrappingAdd(1, ordering: .relaxed)
            }
        }
        // Each caller makes at least `callsPerCaller` calls and keeps calling while the churners run (up to a cap),
        // yielding now and then so the churners get the cores too.
        let more = { @Sendable (calls: Int) -> Bool in
            if calls % 8 == 7 { sched_yield() }
            return calls < callsPerCaller || (calls < maxCallsPerCaller && churning.load(ordering: .relaxed))
        }
        let callers = onThreads(callers) { caller in
            var local = Seen()
            var index = 0
            switch caller % 3 {
            case 0:
                while more(index) {
                    if f.double(index) < 0 { local.doubleChaos += 1 }
                    index += 1
                }
            case 1:
                while more(index) {
                    do {
                        if try f.parse("\(index)") < 0 { local.parseChaos += 1 }
                    } catch {
                        local.parseChaos += 1
                        local.parseErrors += 1
                    }
                    index += 1
                }
            default:
                // Async calls from a task; this thread only waits for it.
                do {
                    let (calls, chaos) = try waitFor {
                        var (calls, chaos) = (0, 0)
                        while more(calls) {
                            if try await f.fetch(calls) == "chaos" { chaos += 1 }
                            calls += 1
                        }
                        return (calls, chaos)
                    }
                    index = calls
                    local.fetchChaos = chaos
                } catch {
                    failure.withLock { $0 = error }
                }
            }
            seen.withLock { total in
                total.calls[caller % 3] += index
                total.doubleChaos += local.doubleChaos
                total.parseChaos += local.parseChaos
                total.parseErrors += local.parseErrors
                total.fetchChaos += local.fetchChaos
            }
        }
        await wait(for: churners)
        churning.store(false, ordering: .relaxed)
        await wait(for: callers)
        stop.store(true, ordering: .relaxed)
        await wait(for: reader)
        if let error = failure.withLock({ $0 }) { throw error }
        #expect(snapshots.load(ordering: .relaxed) > 0)
        return seen.withLock { $0 }
    }

    @Test func countsAddUpAndEverythingIsFreedUnderLoad() async throws {
        let f = try Fixture()
        try f.registry.define(
            Profile(
                name: "A",
                entries: [
                    .init(seam: "test.double", spec: "return(-1)"), .init(seam: "test.parse", spec: #"throw("A")"#),
                ]))
        try f.registry.define(
            Profile(
                name: "B",
                entries: [
                    .init(seam: "test.double", spec: "return(-2)"), .init(seam: "test.parse", spec: "return(-7)"),
                    .init(seam: "test.fetch", spec: #"return("chaos")"#),
                ]))
        let observation = f.registry.observe()
        defer { observation.cancel() }

        var totals = Seen()
        var rss: [Int] = []
        let rounds = 3
        for _ in 0..<rounds {
            let seen = try await Self.round(f)
            for seam in 0..<3 { totals.calls[seam] += seen.calls[seam] }
            totals.doubleChaos += seen.doubleChaos
            totals.parseChaos += seen.parseChaos
            totals.parseErrors += seen.parseErrors
            totals.fetchChaos += seen.fetchChaos
            f.registry.revert(profile: "A")
            f.registry.revert(profile: "B")
            f.registry.finishReverting()
            rss.append(residentBytes())
        }

        // Exact accounting: every call counted once, every chaos answer and error the callers saw, nothing inside.
        let counters = try ["test.double", "test.parse", "test.fetch"].map { try #require(f.registry.counters($0)) }
        #expect(counters.map(\.calls) == totals.calls)
        // Callers 0, 3, 6 call double, 1, 4, 7 parse, 2, 5 fetch; each at least callsPerCaller times a round.
        #expect(zip(totals.calls, [3, 3, 2]).allSatisfy { $0 >= $1 * rounds * Self.callsPerCaller })
        #expect(counters[0].chaosCalls == totals.doubleChaos)
        #expect(counters[1].chaosCalls == totals.parseChaos)
        #expect(counters[1].errors == totals.parseErrors)
        #expect(counters[2].chaosCalls == totals.fetchChaos)
        #expect(counters.allSatisfy { $0.inFlight == 0 })
        #expect(totals.doubleChaos > 0 && totals.parseErrors > 0, "the churners never changed anything")

        // Everything reverted and freed; no layer left behind; every seam is its original again.
        let snapshot = f.registry.snapshot()
        #expect(snapshot.layers.allSatisfy { $0.status == .reverted })
        #expect(snapshot.seams.allSatisfy { $0.layers.isEmpty && $0.status != .reverting && $0.status != .active })
        #expect(f.registry.profiles.allSatisfy { !$0.isActive })
        #expect(f.double(21) == 42)
        #expect(try f.parse("7") == 7)
        #expect(try f.rules("x") == "original x")
        let fetched = try await f.fetch(3)
        #expect(fetched == "item 3")

        // Memory is flat: a later round does not grow the process by more than a little slack. The whole suite runs
        // in this process at once and its other tests allocate meanwhile (8 MiB of slack failed once, 16 MiB once
        // under a loaded machine), so the smaller growth of rounds 2 and 3 is taken: a leak grows both, another
        // test's allocations seldom land in both. A leak per operation here (200,000 calls, 5,000 profile
        // operations a round) of even 64 bytes a call would exceed 16 MiB in each.
        let growth = min(rss[1] - rss[0], rss[2] - rss[1])
        #expect(
            growth < 16 << 20, "RSS grew by \(growth >> 10) KiB in rounds 2 and 3 (\(rss.map { $0 >> 10 }) KiB)")
        print(
            "stress: \(Self.callers) threads, \(totals.calls) calls (double, parse, fetch) in \(rounds) rounds,",
            "\(Self.profileOperations * rounds) profile operations; chaos served \(counters.map(\.chaosCalls)),",
            "errors \(counters[1].errors); RSS \(rss[0] >> 10) -> \(rss[1] >> 10) KiB")
    }
}

/// Runs `body(index)` on `count` threads of their own (not the cooperative pool), released together; the
/// returned group is done when all have returned.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for index in 0..<count {
        group.enter()
        Thread {
            gate.wait()
            body(index)
            group.leave()
        }.start()
    }
    for _ in 0..<count { gate.signal() }
    return group
}

/// Waits for `group` on a thread of its own, so the task pool stays free meanwhile.
func wait(for group: DispatchGroup) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            group.wait()
            continuation.resume()
        }.start()
    }
}

/// Runs an async body from synchronous code on a thread of its own (never the task pool's), waiting on that thread.
///
/// - Throws: what `body` throws, or `Poll.Failure` when it has not ended within a minute.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Result<T, any Error>?>(nil)
    // On a queue of its own, not the task pool: other tests running meanwhile may hold both of the pool's threads
    // (under a loaded machine the fetch callers' task waited past the deadline for one).
    let task = Task(executorPreference: QueueExecutor("StressTests.waitFor")) {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    guard done.wait(timeout: .now() + 60) == .success else {
        task.cancel()
        throw Poll.Failure(description: "timed out after 60 s waiting for an async body run from synchronous code")
    }
    return try result.withLock { $0! }.get()
}

/// The process's resident set size, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
