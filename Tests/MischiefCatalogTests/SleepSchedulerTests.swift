import Foundation
import Mischief
import MischiefCatalog
import MischiefTestSupport
import Testing

/// Sleeping on the chaos clock: virtual-time ordering, sleeps started during an advance, freeze, dilate,
/// revert and cancellation. Nothing here waits for real time to pass, beyond a few milliseconds.
@Suite struct SleepSchedulerTests {
    let start = ChaosClock.Instant("2030-01-01T00:00:00Z")

    @Test func advanceResumesManySleepersByDeadlineThenSleepOrder() async throws {
        let f = try ClockFixture()
        try f.apply("virtual(2030-01-01)")
        let log = Log()
        // Offsets in seconds, in the order the sleeps start; equal deadlines must wake in that order.
        let offsets = [50, 10, 30, 10, 70, 30, 10, 90, 20, 50, 60, 5]
        var tasks: [Task<Void, any Error>] = []
        for (index, offset) in offsets.enumerated() {
            let task = try await f.sleeper { [start] clock in
                try await clock.sleep(until: start.advanced(by: .seconds(offset)))
                log.append("\(index)@\(clock.now)")
                try await clock.sleep(until: .parked)
            }
            tasks.append(task)
        }
        #expect(await f.clock.advance(by: .seconds(60)))
        let expected = offsets.enumerated().filter { $0.element <= 60 }
            .sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
            .map { "\($0.offset)@\(start.advanced(by: .seconds($0.element)))" }
        #expect(log.all == expected)
        #expect(f.clock.now == start.advanced(by: .seconds(60)))
        #expect(f.clock.sleeperCount == offsets.count)  // 10 parked, 2 still waiting for 70 s and 90 s
        await f.clock.advance(by: .seconds(30))
        #expect(log.all.suffix(2) == ["4@2030-01-01T00:01:10Z", "7@2030-01-01T00:01:30Z"])
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: CancellationError.self) { try await task.value } }
    }

    @Test func sleepsStartedDuringAnAdvanceWakeInTheSameAdvance() async throws {
        let f = try ClockFixture()
        try f.apply("virtual(2030-01-01)")
        let log = Log()
        let ticker = try await f.sleeper { clock in
            for tick in 1...5 {
                try await clock.sleep(for: .seconds(10))
                log.append("a\(tick)@\(clock.now)")
            }
            try await clock.sleep(until: .parked)
        }
        let slow = try await f.sleeper { clock in
            for tick in 1...2 {
                try await clock.sleep(for: .seconds(25))
                log.append("b\(tick)@\(clock.now)")
            }
            try await clock.sleep(until: .parked)
        }
        await f.clock.advance(by: .seconds(60))
        // At 50 s both are due; b's sleep started at 25 s, a's at 40 s, so b wakes first.
        let expected = [
            "a1@2030-01-01T00:00:10Z", "a2@2030-01-01T00:00:20Z", "b1@2030-01-01T00:00:25Z",
            "a3@2030-01-01T00:00:30Z", "a4@2030-01-01T00:00:40Z", "b2@2030-01-01T00:00:50Z",
            "a5@2030-01-01T00:00:50Z",
        ]
        #expect(log.all == expected)
        #expect(f.clock.now == start.advanced(by: .seconds(60)))
        ticker.cancel()
        slow.cancel()
    }

    @Test func advanceMovesOnWhenAResumedSleeperFinishes() async throws {
        let f = try ClockFixture()
        try f.apply("virtual(2030-01-01)")
        let first = try await f.sleeper { clock in
            try await Task.sleep(for: .seconds(5), clock: clock)
            return clock.now
        }
        let second = try await f.sleeper { clock in
            try await clock.sleep(for: .seconds(8))
            return clock.now
        }
        await f.clock.advance(by: .seconds(10))
        #expect(try await first.value == start.advanced(by: .seconds(5)))
        #expect(try await second.value == start.advanced(by: .seconds(8)))
        #expect(f.clock.sleeperCount == 0)
    }

    @Test func frozenSleepersWakeOnlyWhenTimeIsAdvancedFarEnough() async throws {
        let f = try ClockFixture()
        try f.apply("freeze(2030-01-01)")
        let sleeper = try await f.sleeper { clock in try await clock.sleep(for: .seconds(3_600)) }
        await f.clock.advance(by: .seconds(1_800))
        #expect(f.clock.sleeperCount == 1)
        await f.clock.advance(by: .seconds(1_800))
        try await sleeper.value
        #expect(f.clock.sleeperCount == 0)
        #expect(f.clock.date == Date(iso: "2030-01-01T01:00:00Z"))
    }

    @Test func movingAFrozenDateWakesTheSleepersItPasses() async throws {
        let f = try ClockFixture()
        try f.apply("freeze(2030-01-01)")
        let soon = try await f.sleeper { clock in try await clock.sleep(for: .seconds(3_600)) }
        let later = try await f.sleeper { clock in try await clock.sleep(for: .seconds(3 * 86_400)) }
        try f.apply("freeze(2030-01-02)")
        try await soon.value
        #expect(f.clock.sleeperCount == 1)
        later.cancel()
        await #expect(throws: CancellationError.self) { try await later.value }
    }

    @Test func revertWakesSleepersAtTheirRealDeadlines() async throws {
        let f = try ClockFixture()
        let frozen = try f.apply("freeze(2000-01-01)")
        // One day later in chaos time: long past in real time.
        let past = try await f.sleeper { clock in try await clock.sleep(until: .init("2000-01-02T00:00:00Z")) }
        let future = try await f.sleeper { clock in try await clock.sleep(until: .parked) }
        f.registry.revert(frozen)
        try await past.value
        #expect(f.clock.sleeperCount == 1)
        future.cancel()
        await #expect(throws: CancellationError.self) { try await future.value }
    }

    /// An hour on a clock a million times faster is about 3.6 ms of real time. A minute of real time is the deadline:
    /// if `dilate` stopped shortening sleeps, the test fails then, saying so, instead of sleeping an hour.
    @Test func dilatedSleepsEndAfterAFractionOfTheirLength() async throws {
        let f = try ClockFixture()
        try f.apply("dilate(1000000)")
        let before = f.clock.now
        try await Deadline.wait(for: "an hour's sleep under dilate(1000000) (about 3.6 ms of real time) to end") {
            [clock = f.clock] in try await Task.sleep(for: .seconds(3_600), clock: clock)
        }
        #expect(f.clock.now >= before.advanced(by: .seconds(3_600)))
    }

    @Test func applyingDilateReschedulesARealSleeper() async throws {
        let f = try ClockFixture()
        let sleeper = try await f.sleeper { clock in try await clock.sleep(for: .seconds(3_600)) }
        try f.apply("dilate(1000000)")
        try await Deadline.wait(for: "an hour's sleep begun in real time to end once dilate(1000000) applied") {
            try await sleeper.value
        }
    }

    @Test func shiftedSleepsLastAsLongAsWithoutTheShift() async throws {
        let f = try ClockFixture()
        try f.apply("shift(-10y)")
        let before = Date()
        try await Task.sleep(for: .milliseconds(20), clock: f.clock)
        #expect(Date().timeIntervalSince(before) >= 0.02)
    }

    @Test func taskSleepWorksWithTheClock() async throws {
        let f = try ClockFixture()
        try f.apply("virtual(2030-01-01)")
        let sleeper = try await f.sleeper { clock in
            try await Task.sleep(for: .seconds(5), clock: clock)
            return clock.date
        }
        await f.clock.advance(by: .seconds(5))
        #expect(try await sleeper.value == Date(iso: "2030-01-01T00:00:05Z"))
    }

    @Test func passedDeadlinesReturnAtOnce() async throws {
        let f = try ClockFixture()
        try f.apply("freeze(2030-01-01)")
        try await f.clock.sleep(until: start)
        try await f.clock.sleep(until: start.advanced(by: .seconds(-1)))
        try await f.clock.sleep(for: .zero)
        #expect(f.clock.sleeperCount == 0)
    }

    @Test func cancellationThrowsAndRemovesTheSleeper() async throws {
        let f = try ClockFixture()
        try f.apply("virtual(2030-01-01)")
        let sleeper = try await f.sleeper { clock in try await clock.sleep(for: .seconds(10)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(f.clock.sleeperCount == 0)
        let early = Task { [clock = f.clock] in
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(10))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(await f.clock.advance(by: .seconds(10)))
    }

    @Test func concurrentAdvancesRunOneAfterTheOther() async throws {
        let f = try ClockFixture()
        try f.apply("virtual(2030-01-01)")
        let sleeper = try await f.sleeper { clock in
            try await clock.sleep(for: .seconds(15))
            return clock.now
        }
        async let one = f.clock.advance(by: .seconds(10))
        async let two = f.clock.advance(by: .seconds(10))
        #expect(await [one, two] == [true, true])
        #expect(try await sleeper.value == start.advanced(by: .seconds(15)))
        #expect(f.clock.now == start.advanced(by: .seconds(20)))
    }
}
