import Synchronization
import Testing

@testable import MischiefControl

/// The server thread's CPU budget, on injected clocks (nanoseconds): no timing involved.
@Suite struct CPUBudgetTests {
    /// A CPU clock and a wall clock the test moves by hand.
    final class Clocks: Sendable {
        let cpu = Atomic<Int64>(0)
        let wall = Atomic<Int64>(0)

        func run(_ cpuMs: Int64, over wallMs: Int64) {
            cpu.add(cpuMs * 1_000_000, ordering: .relaxed)
            wall.add(wallMs * 1_000_000, ordering: .relaxed)
        }

        func budget(share: Double = 0.1, burst: Duration = .milliseconds(5)) -> CPUBudget {
            let budget = CPUBudget(
                share: share, burst: burst, cpu: { self.cpu.load(ordering: .relaxed) },
                wall: { self.wall.load(ordering: .relaxed) })
            #expect(budget.pause() == .zero)  // starts the clocks
            return budget
        }
    }

    @Test func anIdleServerSpendsItsBurstAtOnce() {
        let clocks = Clocks()
        let budget = clocks.budget()
        clocks.run(4, over: 4)
        #expect(budget.pause() == .zero)
    }

    @Test func overTheBurstItPausesLongEnoughToPayBackAtItsShare() {
        let clocks = Clocks()
        let budget = clocks.budget()
        clocks.run(6, over: 6)  // a full bucket (5 ms) paid 6 ms: 1 ms in debt, paid back at 10% in 10 ms
        #expect(budget.pause() == .milliseconds(10))
    }

    @Test func aFloodIsHeldToItsShareOfTheWallClock() {
        let clocks = Clocks()
        let budget = clocks.budget()
        var busy: Int64 = 0
        for _ in 0..<1_000 {
            clocks.run(1, over: 1)  // a millisecond of work for each read
            busy += 1
            let pause = budget.pause()
            clocks.wall.add(CPUBudget.nanoseconds(pause), ordering: .relaxed)
        }
        let share = Double(busy * 1_000_000) / Double(clocks.wall.load(ordering: .relaxed))
        #expect(share > 0.095 && share < 0.105, "the server took \(share) of the core")
    }

    @Test func aBusyServerEarnsBackOnlyUpToItsBurst() {
        let clocks = Clocks()
        let budget = clocks.budget(burst: .milliseconds(2))
        clocks.run(0, over: 60_000)  // a minute idle
        clocks.run(3, over: 3)
        #expect(budget.pause() > .zero, "a long idle must not bank more than the burst")
    }

    @Test func oneExpensivePieceOfWorkPausesAtMostTheLongestPause() {
        let clocks = Clocks()
        let budget = clocks.budget()
        clocks.run(500, over: 500)
        #expect(budget.pause() == .milliseconds(50))
        clocks.run(0, over: 50)
        #expect(budget.pause() > .zero, "the rest of the debt is paid in later pauses")
    }

    @Test func theThreadClockCountsThisThreadsWork() {
        let before = CPUBudget.threadCPUTime()
        var sum = 0
        for index in 0..<2_000_000 { sum &+= index &* index }
        #expect(sum != 1 && CPUBudget.threadCPUTime() > before)
    }
}
