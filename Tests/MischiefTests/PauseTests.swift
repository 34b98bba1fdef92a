import Dispatch
import Foundation
import Mischief
import MischiefTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `pause`: holding calls until a test, a console or the registry lets them go; never by sleeping.
@Suite struct PauseTests {
    /// An async seam in front of a cache: the second request for a key is held until the first has filled it.
    @Test func holdingTheSecondRequestMakesARaceDeterministic() async throws {
        let registry = Registry(sessionSeed: 1)
        let cache = Locked<[String: String]>([:])
        let log = Recorder<String>()
        let load = AsyncSeam<Int, String, Never>("test.load", title: "Load", category: "Test", summary: "") { id in
            if let hit = cache.withLock({ $0["key"] }) {
                log.append("request \(id) hit \(hit)")
                return hit
            }
            cache.withLock { $0["key"] = "from \(id)" }
            log.append("request \(id) filled")
            return "from \(id)"
        }
        try registry.register(load)
        let gate = PauseGate()
        try registry.apply(load, .match([.when(2, .pause(gate, max: .seconds(3_600)))]))

        async let second = load(2)
        try await gate.held(1)
        #expect(gate.heldCount == 1)
        #expect(log.items.isEmpty)  // the second request is held, not run
        let first = await load(1)
        #expect(gate.release() == 1)
        #expect(await second == "from 1")
        #expect(first == "from 1")
        #expect(log.items == ["request 1 filled", "request 2 hit from 1"])
        #expect(gate.heldCount == 0)
    }

    @Test func aSynchronousSeamBlocksItsThreadUntilReleasedFromAnother() async throws {
        let f = try Fixture()
        let gate = PauseGate()
        try f.registry.apply(f.double, .constant(7).paused(gate, max: .seconds(3_600)))
        let result = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.store(f.double(1), ordering: .relaxed)
            done.signal()
        }.start()
        try await gate.held(1)
        #expect(result.load(ordering: .relaxed) == 0)  // still blocked inside the pause
        #expect(f.registry.counters("test.double")?.held == 1)
        #expect(f.registry.counters("test.double")?.inFlight == 1)
        Thread { _ = gate.release() }.start()
        await waitOnThread(done)
        #expect(result.load(ordering: .relaxed) == 7)  // then what follows the pause ran
        #expect(f.registry.counters("test.double")?.held == 0)
        #expect(!f.registry.events().contains { $0.message.contains("went on after its maximum") })  // released
    }

    @Test func releaseTakesTheOldestCallsFirst() async throws {
        let f = try Fixture()
        let gate = PauseGate()
        try f.registry.apply(f.fetch, .pause(gate, max: .seconds(3_600)))
        let order = Recorder<Int>()
        let first = Task {
            _ = try await f.fetch(1)
            order.append(1)
        }
        try await gate.held(1)
        let second = Task {
            _ = try await f.fetch(2)
            order.append(2)
        }
        try await gate.held(2)
        #expect(gate.release(1) == 1)
        try await first.value
        #expect(order.items == [1])
        #expect(gate.heldCount == 1)
        #expect(gate.release(5) == 1)
        try await second.value
        #expect(order.items == [1, 2])
    }

    @Test func aHoldEndsWhenItsMaximumPasses() async throws {
        let f = try Fixture()
        try f.registry.apply(f.fetch, .pause(max: .milliseconds(50)))
        #expect(try await f.fetch(3) == "item 3")  // no one releases it: it goes on by itself
        try f.registry.apply(f.double, .constant(5).paused(max: .milliseconds(50)))
        #expect(await callOnThread { f.double(1) } == 5)
        let reports = f.registry.events().filter { $0.kind == .report }.map(\.message)
        #expect(reports.filter { $0.contains("went on after its maximum of 50ms") }.count == 2)
    }

    @Test func aCancelledTaskStopsWaiting() async throws {
        let f = try Fixture()
        let gate = PauseGate()
        try f.registry.apply(f.fetch, .pause(gate, max: .seconds(3_600)))
        let call = Task { try await f.fetch(4) }
        try await gate.held(1)
        call.cancel()
        #expect(try await call.value == "item 4")  // the call goes on: its Failure need not carry cancellation
        #expect(gate.heldCount == 0)
    }

    @Test func theRegistryReleasesOneSeamsCallsAndSaysHowMany() async throws {
        let f = try Fixture()
        let gate = PauseGate()
        try f.registry.apply(f.fetch, .pause(gate, max: .seconds(3_600)))
        // The same gate on another seam: releasing test.fetch leaves that call held.
        try f.registry.apply(f.double, .pause(gate, max: .seconds(3_600)))
        #expect(try f.registry.release("test.fetch") == 0)
        let calls = (1...2).map { id in Task { try await f.fetch(id) } }
        try await gate.held(2)
        let other = DispatchSemaphore(value: 0)
        Thread {
            _ = f.double(1)
            other.signal()
        }.start()
        try await gate.held(3)
        let seam = f.registry.snapshot().seam("test.fetch")
        #expect(seam?.counters.held == 2 && seam?.counters.inFlight == 2)
        #expect(try f.registry.release("test.fetch") == 2)
        for call in calls { _ = try await call.value }
        #expect(f.registry.snapshot().seam("test.fetch")?.counters.held == 0)
        #expect(f.registry.snapshot().seam("test.double")?.counters.held == 1)
        #expect(f.registry.events().last?.message == "released 2 held calls")
        #expect(throws: MischiefError.unknownSeam("test.nothing")) { try f.registry.release("test.nothing") }
        #expect(f.registry.releaseAll() == 1)
        await waitOnThread(other)
    }

    @Test func aTestCanWaitForCallsHeldByASpecsPause() async throws {
        let f = try Fixture()
        await #expect(throws: MischiefError.self) { try await f.registry.waitUntilHeld("test.fetch") }
        try f.registry.apply(spec: "pause(1h) + return(\"late\")", to: "test.fetch")
        let calls = (1...2).map { id in Task { try await f.fetch(id) } }
        try await f.registry.held("test.fetch", 2)
        #expect(f.registry.counters("test.fetch")?.held == 2)
        #expect(try f.registry.release("test.fetch") == 2)
        for call in calls { #expect(try await call.value == "late") }
    }

    @Test func revertingReleasesTheCallsItsPauseHolds() async throws {
        let f = try Fixture()
        let gate = PauseGate()
        let applied = try f.registry.apply(f.fetch, .constant("held").paused(gate, max: .seconds(3_600)))
        let call = Task { try await f.fetch(1) }
        try await gate.held(1)
        f.registry.revert(applied)
        #expect(try await call.value == "held")  // it goes on inside the behaviour it was held in
        #expect(gate.heldCount == 0)
        // The same on a synchronous seam: the blocked thread goes on.
        let sync = try f.registry.apply(f.double, .pause(gate, max: .seconds(3_600)))
        let blocked = DispatchSemaphore(value: 0)
        Thread {
            _ = f.double(2)
            blocked.signal()
        }.start()
        try await gate.held(1)
        f.registry.revert(sync)
        await waitOnThread(blocked)
        #expect(f.registry.snapshot().seam("test.double")?.status == .reverted)
    }

    @Test func replacingASpecReleasesTheCallsTheOldOneHeld() async throws {
        let f = try Fixture()
        let gate = PauseGate()
        try f.registry.apply([Change(f.fetch, .pause(gate, max: .seconds(3_600)))], source: "console")
        let call = Task { try await f.fetch(1) }
        try await gate.held(1)
        try f.registry.apply(spec: "return(\"new\")", to: "test.fetch", source: "console")
        #expect(try await call.value == "item 1")
        #expect(f.registry.snapshot().seam("test.fetch")?.spec == "return(\"new\")")
    }

    @Test func theRegistryGoingAwayReleasesItsHeldCalls() async throws {
        let gate = PauseGate()
        let fetch = AsyncSeam<Int, String, Never>("test.fetch", title: "F", category: "T", summary: "") { "item \($0)" }
        var registry: Registry? = Registry(sessionSeed: 1)
        try registry!.register(fetch)
        try registry!.apply(fetch, .pause(gate, max: .seconds(3_600)))
        let call = Task { await fetch(1) }
        try await gate.held(1)
        registry = nil
        #expect(await call.value == "item 1")
    }

    @Test func waitingForHeldCallsEndsWhenCancelled() async throws {
        let gate = PauseGate()
        let waiter = Task { try await gate.waitUntilHeld(3) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func theKillSwitchReleasesHeldCalls() async {
        await #expect(processExitsWith: .success) {
            let f = try Fixture()
            let gate = PauseGate()
            try f.registry.apply(f.double, .constant(1).paused(gate, max: .seconds(3_600)))
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = f.double(2)
                done.signal()
            }.start()
            try await gate.held(1)
            KillSwitch.engage(reason: "test")
            guard done.wait(timeout: .now() + 60) == .success else { exit(1) }
            guard gate.heldCount == 0, f.registry.counters("test.double")?.held == 0 else { exit(2) }
        }
    }

    @Test(arguments: [
        ("pause", "pause", "pause"),
        ("pause(30s)", "pause", "pause"),
        ("pause(max: 30s)", "pause", "pause"),
        ("pause(max: 50ms)", "pause(50ms)", "pause(50ms)"),
        ("pause(2m) + return(3)", "pause(2m) + return(3)", "pause(2m) + return(3)"),
        ("2*pause -> off", "2*pause -> off", "2*pause -> off"),
    ])
    func specsRoundTripThroughTheirCanonicalText(spec: String, canonical: String, again: String) throws {
        let f = try Fixture()
        #expect(try f.registry.canonical(spec: spec, for: "test.double") == canonical)
        #expect(try f.registry.canonical(spec: canonical, for: "test.double") == again)
        try f.registry.apply(spec: spec, to: "test.double")
        #expect(f.registry.snapshot().seam("test.double")?.spec == canonical)
    }

    @Test(arguments: [("pause(0s)", 7), ("pause(-1s)", 7), ("pause(2d)", 7), ("pause(max: \"x\")", 7)])
    func outOfRangeMaximumsAreRefusedAtTheirColumn(spec: String, column: Int) throws {
        let f = try Fixture()
        #expect {
            try f.registry.apply(spec: spec, to: "test.double")
        } throws: { error in
            guard case .invalidSpec(_, let specError) = error as? MischiefError else { return false }
            return specError.column == column
        }
    }

    @Test func behavioursDescribeThemselvesAsSpecs() {
        typealias B = Behaviour<Int, Int, Never>
        #expect(B.pause().description == "pause")
        #expect(B.pause(max: .milliseconds(50)).description == "pause(50ms)")
        #expect(B.constant(1).paused(max: .seconds(60)).description == "pause(1m) + return(1)")
    }

    @Test func heldSurvivesTheWireAndOlderJSONWithoutItDecodes() throws {
        let counters = SeamCounters(calls: 3, chaosCalls: 1, errors: 0, inFlight: 2, held: 2)
        let json = try JSONEncoder().encode(counters)
        #expect(try JSONDecoder().decode(SeamCounters.self, from: json) == counters)
        let older = Data(#"{"calls": 3, "chaosCalls": 1, "errors": 0, "inFlight": 2}"#.utf8)
        #expect(try JSONDecoder().decode(SeamCounters.self, from: older).held == 0)
        let update = SeamUpdate(seam: "a.b", counters: counters, status: .active)
        #expect(try JSONDecoder().decode(SeamUpdate.self, from: JSONEncoder().encode(update)) == update)
    }

    @Test func heldCallsShowInTheChangesAConsoleFollows() async throws {
        let f = try Fixture()
        let gate = PauseGate()
        try f.registry.apply(f.fetch, .pause(gate, max: .seconds(3_600)))
        var copy = TargetState.following(f.registry)
        let call = Task { try await f.fetch(1) }
        try await gate.held(1)
        copy.follow(f.registry)
        #expect(copy.seam("test.fetch")?.counters.held == 1)
        gate.release()
        _ = try await call.value
        copy.follow(f.registry)
        #expect(copy.seam("test.fetch")?.counters.held == 0)
    }
}

extension PauseTests {
    /// A pause in a scope holds only the scope's calls, and the scope can release and wait for them.
    @Test func aScopesPauseHoldsOnlyItsOwnCalls() async throws {
        let f = try Fixture()
        let scope = ChaosScope("pausing", registry: f.registry)
        try scope.apply(spec: "pause(1h) + return(\"held\")", to: "test.fetch")
        #expect(try await f.fetch(1) == "item 1")  // outside the scope: not held
        let held = try await scope.run {
            async let call = f.fetch(2)
            try await scope.held(f.fetch)
            #expect(scope.heldCount(of: f.fetch) == 1)
            // A detached task does not inherit the scope, so its call goes on while the scope's is held.
            #expect(try await Task.detached { try await f.fetch(3) }.value == "item 3")
            #expect(scope.release(f.fetch) == 1)
            return try await call
        }
        #expect(held == "held")
        #expect(scope.heldCount(of: f.fetch) == 0)
        #expect(f.registry.counters("test.fetch")?.held == 0)  // the registry holds nothing of the scope's
    }

    /// A `Task {}` started in a scope outlives it; dropping the scope's changes lets its held call go.
    @Test func revertingAScopeReleasesWhatItsPauseHolds() async throws {
        let f = try Fixture()
        let scope = ChaosScope("pausing", registry: f.registry)
        try scope.apply(f.fetch, .pause(max: .seconds(3_600)))
        let escaped = scope.run { Task { try await f.fetch(4) } }
        try await scope.held(f.fetch)
        scope.revertAll()
        #expect(try await escaped.value == "item 4")
        #expect(scope.releaseAll() == 0)
        await #expect(throws: MischiefError.self) { try await scope.waitUntilHeld(f.fetch) }
    }

    @Test func theKillSwitchReleasesWhatAScopesPauseHolds() async {
        await #expect(processExitsWith: .success) {
            let f = try Fixture()
            let scope = ChaosScope("pausing", registry: f.registry)
            try scope.apply(f.double, .constant(1).paused(max: .seconds(3_600)))
            let done = DispatchSemaphore(value: 0)
            Thread {
                scope.run { _ = f.double(2) }
                done.signal()
            }.start()
            try await scope.held(f.double)
            KillSwitch.engage(reason: "test")
            guard done.wait(timeout: .now() + 60) == .success else { exit(1) }
            guard scope.heldCount(of: f.double) == 0 else { exit(2) }
        }
    }
}

/// A list several tasks append to.
final class Recorder<Item: Sendable>: Sendable {
    private let list = Locked<[Item]>([])

    func append(_ item: Item) { list.withLock { $0.append(item) } }

    var items: [Item] { list.withLock { $0 } }
}

/// Waits for `semaphore` on a thread of its own, so the cooperative pool is never blocked.
func waitOnThread(_ semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            semaphore.wait()
            continuation.resume()
        }.start()
    }
}

/// Runs `body` on a thread of its own and returns its result.
func callOnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
