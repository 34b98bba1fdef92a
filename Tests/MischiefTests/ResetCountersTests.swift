import Dispatch
import Foundation
import Mischief
import MischiefTestSupport
import Testing

/// `resetCounters`: calls, chaos calls and errors back to zero, in snapshots and in `delta(since:)`; in-flight and
/// held calls are live and stay.
@Suite struct ResetCountersTests {
    @Test func oneSeamsCountersGoBackToZeroAndCountOnFromThere() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        defer { observation.cancel() }
        try f.registry.apply(spec: "50%throw(\"flaky\") -> off", to: "test.parse")
        for _ in 0..<10 { _ = try? f.parse("1") }
        for _ in 0..<3 { _ = f.double(1) }
        let before = try #require(f.registry.counters("test.parse"))
        #expect(before.calls == 10)
        #expect(before.errors > 0)

        #expect(try f.registry.resetCounters("test.parse", source: "test") == before)
        #expect(f.registry.counters("test.parse") == SeamCounters())
        #expect(f.registry.snapshot().seam("test.parse")?.counters == SeamCounters())
        #expect(f.registry.counters("test.double")?.calls == 3)  // only the seam named

        _ = try? f.parse("1")
        #expect(f.registry.counters("test.parse")?.calls == 1)
        let event = try #require(f.registry.events().last { $0.message.hasPrefix("counters reset") })
        #expect(event.seam == "test.parse")
        #expect(event.source == "test")
        #expect(event.message.contains("calls 10"))
    }

    @Test func aFollowerOfChangesSeesTheZeros() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        defer { observation.cancel() }
        for _ in 0..<5 { _ = f.double(1) }
        let copy = TargetState.following(f.registry)
        #expect(copy.seam("test.double")?.counters.calls == 5)
        try f.registry.resetCounters("test.double")
        let changes = f.registry.delta(since: copy.generation, eventsAfter: copy.events.last?.id ?? 0)
        #expect(changes.seams.map(\.id) == ["test.double"])
        #expect(changes.events.contains { $0.message.hasPrefix("counters reset") })
        #expect(copy.applying(changes)?.seam("test.double")?.counters.calls == 0)
        // Nothing moved since: nothing more to report.
        #expect(f.registry.delta(since: changes.generation).seams.isEmpty)
    }

    @Test func resettingEverySeamZerosThemAllAndSaysHowManyHadCounts() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        defer { observation.cancel() }
        _ = f.double(1)
        _ = try? f.parse("x")
        #expect(f.registry.resetCounters() == 2)
        #expect(f.registry.snapshot().seams.allSatisfy { $0.counters == SeamCounters() })
        #expect(f.registry.events().last?.message == "counters reset on every seam (2 had counts)")
    }

    @Test func anUnknownSeamIsRefused() throws {
        let f = try Fixture()
        #expect(throws: MischiefError.unknownSeam("test.nothing")) { try f.registry.resetCounters("test.nothing") }
    }

    @Test func heldAndInFlightCallsStay() async throws {
        let f = try Fixture()
        let gate = PauseGate()
        try f.registry.apply(f.double, .constant(7).paused(gate, max: .seconds(3_600)))
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = f.double(1)
            done.signal()
        }.start()
        try await gate.held(1)
        try f.registry.resetCounters("test.double")
        let counters = try #require(f.registry.counters("test.double"))
        #expect(counters.calls == 0)
        #expect(counters.held == 1)
        #expect(counters.inFlight == 1)
        gate.release()
        await withCheckedContinuation { continuation in
            Thread {
                done.wait()
                continuation.resume()
            }.start()
        }
        #expect(f.registry.counters("test.double")?.inFlight == 0)
    }
}
