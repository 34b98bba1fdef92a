import Foundation
import Mischief
import MischiefCatalog
import MischiefTestSupport
import Synchronization
import Testing

/// Virtual time that knows when work is idle: `withIdleTracking` runs the test's structured work on an
/// `IdleTrackingExecutor`, and advances wait for it instead of yielding. Nothing here waits for real time.
/// A broken advance would leave a sleeper asleep for ever: the time limit turns that hang into a failure.
@Suite(.timeLimit(.minutes(1))) struct IdleTrackingTests {
    let start = ChaosClock.Instant("2030-01-01T00:00:00Z")

    /// Awaits that run on the executor: each is a job, so the executor is busy until the last one.
    static func busy(_ awaits: Int) async {
        for _ in 0..<awaits { await Task.yield() }
    }

    @Test func advanceWaitsForWokenWorkWithoutYielding() async throws {
        // No yields at all: an advance that relied on the heuristic would move on before the work was done.
        let f = try ClockFixture(settleYields: 0)
        try f.apply("virtual(2030-01-01)")
        let log = Log()
        try await f.clock.withIdleTracking { _ in
            async let ticker: Void = { [clock = f.clock] in
                for tick in 1...3 {
                    try await clock.sleep(for: .seconds(10))
                    await Self.busy(50)  // more awaits than the default settleYields
                    log.append("tick \(tick) at \(clock.now)")
                }
                try await clock.sleep(for: .seconds(10))
                await Self.busy(50)
                log.append("done at \(clock.now)")  // then it returns: no further sleep to signal the advance
            }()
            // No waitUntilSleeping: the advance first waits until the child is idle, asleep.
            await f.clock.advance(by: .seconds(25))
            #expect(log.all == ["tick 1 at 2030-01-01T00:00:10Z", "tick 2 at 2030-01-01T00:00:20Z"])
            await f.clock.advance(by: .seconds(15))
            #expect(log.all.suffix(2) == ["tick 3 at 2030-01-01T00:00:30Z", "done at 2030-01-01T00:00:40Z"])
            #expect(f.clock.sleeperCount == 0)
            try await ticker
        }
        #expect(f.clock.heuristicSettles == 0)
        #expect(f.clock.now == start.advanced(by: .seconds(40)))
    }

    @Test func taskGroupSleepersAreSettledExactlyInDeadlineOrder() async throws {
        let f = try ClockFixture(settleYields: 0)
        try f.apply("virtual(2030-01-01)")
        let log = Log()
        try await f.clock.withIdleTracking { _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, seconds) in [30, 10, 20].enumerated() {
                    group.addTask { [clock = f.clock] in
                        try await clock.sleep(for: .seconds(seconds))
                        await Self.busy(30)
                        log.append("\(index)@\(clock.now)")
                    }
                }
                await f.clock.advance(by: .seconds(30))
                #expect(
                    log.all == ["1@2030-01-01T00:00:10Z", "2@2030-01-01T00:00:20Z", "0@2030-01-01T00:00:30Z"])
                try await group.waitForAll()
            }
        }
        #expect(f.clock.heuristicSettles == 0)
    }

    @Test func runUntilIdleReturnsAfterAChainOfChildTasks() async throws {
        let f = try ClockFixture(settleYields: 0)
        try f.apply("virtual(2030-01-01)")
        let log = Log()
        /// Each link starts the next as a child task, works, and finishes after it: the first finishes last.
        @Sendable func link(_ depth: Int) async {
            await Self.busy(10)
            if depth < 5 {
                async let next: Void = link(depth + 1)
                await Self.busy(10)
                await next
            }
            log.append("link \(depth)")
        }
        await f.clock.withIdleTracking { _ in
            async let chain: Void = link(1)
            await f.clock.runUntilIdle()
            #expect(log.all == ["link 5", "link 4", "link 3", "link 2", "link 1"])
            await chain
        }
        #expect(f.clock.heuristicSettles == 0)
        #expect(f.clock.now == start)
    }

    @Test func runUntilIdleResumesSleepersAlreadyDueWithoutMovingTime() async throws {
        let f = try ClockFixture(settleYields: 0)
        try f.apply("virtual(2030-01-01)")
        let log = Log()
        try await f.clock.withIdleTracking { _ in
            async let sleeper: Void = { [clock = f.clock] in
                try await clock.sleep(for: .seconds(60))
                await Self.busy(20)
                log.append("woke at \(clock.now)")
            }()
            await f.clock.runUntilIdle()
            #expect(log.all.isEmpty && f.clock.sleeperCount == 1)  // asleep, and not due
            await f.clock.advance(by: .seconds(60))
            #expect(log.all == ["woke at 2030-01-01T00:01:00Z"])
            try await sleeper
        }
        #expect(f.clock.heuristicSettles == 0)
    }

    @Test func unstructuredTasksFallBackToTheYieldHeuristic() async throws {
        let f = try ClockFixture()
        try f.apply("virtual(2030-01-01)")
        try await f.clock.withIdleTracking { executor throws in  // its only `try`s are inside #expect
            // `Task {}` does not inherit the executor preference: its sleeper is settled by yielding.
            let unstructured = Task { [clock = f.clock] in
                try await clock.sleep(for: .seconds(10))
                return clock.now
            }
            try await Deadline.wait(for: "the unstructured task to sleep on the clock") { [clock = f.clock] in
                await clock.waitUntilSleeping(1)
            }
            await f.clock.advance(by: .seconds(10))
            #expect(try await unstructured.value == start.advanced(by: .seconds(10)))
            #expect(f.clock.heuristicSettles == 1)
            // `Task(executorPreference:)` brings an unstructured task onto the executor: no guess.
            let preferring = Task(executorPreference: executor) { [clock = f.clock] in
                try await clock.sleep(for: .seconds(10))
                await Self.busy(50)
                return clock.now
            }
            await f.clock.advance(by: .seconds(10))
            #expect(try await preferring.value == start.advanced(by: .seconds(20)))
            #expect(f.clock.heuristicSettles == 1)
        }
    }

    @Test func whichTasksRunOnTheExecutor() async throws {
        let f = try ClockFixture()
        let used = await f.clock.withIdleTracking { executor in
            /// Whether the calling code runs on the executor's thread, and whether its task prefers the executor.
            @Sendable func place() -> [Bool] {
                [executor.isRunningCurrentCode, executor.isPreferredByCurrentTask]
            }
            #expect(place() == [true, true], "the body")
            async let child = place()
            #expect(await child == [true, true], "async let")
            let grouped = await withTaskGroup(of: [Bool].self) { group in
                group.addTask { place() }
                return await group.next()
            }
            #expect(grouped == [true, true], "task group")
            #expect(await Task { place() }.value == [false, false], "Task {}")
            #expect(await Task.detached { place() }.value == [false, false], "Task.detached")
            #expect(await Task(executorPreference: executor) { place() }.value == [true, true], "executorPreference")
            #expect(await Placed().place(place) == [true, true], "a default actor")
            // The main actor keeps its own executor: the task still prefers this one, but the code runs elsewhere.
            #expect(await onMainActor(place) == [false, true], "@MainActor")
            return executor
        }
        // After the scope the test's code is back where it was.
        #expect(!used.isRunningCurrentCode && !used.isPreferredByCurrentTask)
    }

    @Test func executorCountsJobsAndIsIdleWhenNoneIsLeft() async throws {
        let executor = IdleTrackingExecutor(name: "test.idle")
        #expect(executor.pendingJobs == 0)
        try await Deadline.wait(for: "the executor with no job to be idle") { await executor.waitUntilIdle() }
        let done = Mutex(false)
        let task = Task(executorPreference: executor) {
            await Self.busy(25)
            done.withLock { $0 = true }
        }
        try await Deadline.wait(for: "the executor to be idle after 25 busy jobs") { await executor.waitUntilIdle() }
        #expect(done.withLock { $0 })
        #expect(executor.pendingJobs == 0)
        #expect(executor.jobsRun >= 26)
        await task.value
    }

    @Test func trackingScopesDoNotNestOnOneClockButEachClockHasItsOwn() async throws {
        let one = try ClockFixture()
        let other = ChaosClock(id: "test.other")
        await one.clock.withIdleTracking { first in
            await other.withIdleTracking { second in
                #expect(first !== second)
                #expect(second.isPreferredByCurrentTask && !first.isPreferredByCurrentTask)
            }
            #expect(first.isPreferredByCurrentTask)
        }
    }

    @Test func idleTrackingTypesAreSendable() {
        let values: [any Sendable] = [IdleTrackingExecutor()]
        #expect(values.count == 1)
    }
}

/// A default actor: it runs on the preferred executor of the task that calls it.
private actor Placed {
    func place(_ probe: @Sendable () -> [Bool]) -> [Bool] { probe() }
}

@MainActor private func onMainActor(_ probe: @Sendable () -> [Bool]) -> [Bool] { probe() }
