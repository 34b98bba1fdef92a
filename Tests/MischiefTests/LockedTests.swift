import Dispatch
import Foundation
import Testing

@testable import Mischief

/// `Locked` serialises access, and ThreadSanitizer (Scripts/sanitize-thread.sh) sees that it does.
@Suite struct LockedTests {
    /// A counter behind `Locked`, incremented from two threads: exact, and no report under ThreadSanitizer
    /// (a bare `Synchronization.Mutex` is reported there, as the probe below shows).
    @Test func twoThreadsIncrementingALockedCounterAreExactAndRaceFree() {
        let counter = Locked(0)
        let table = Locked<[String: Int]>([:])
        let increments = 20_000
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 0..<increments {
                counter.withLock { $0 += 1 }
                table.withLock { $0["key \(index % 8)", default: 0] += thread + 1 }
            }
        }
        #expect(counter.withLock { $0 } == 2 * increments)
        #expect(table.withLock { $0.values.reduce(0, +) } == 3 * increments)
    }

    /// A deliberate data race. Scripts/sanitize-thread.sh runs it with MISCHIEF_TSAN_PROBE=1 under ThreadSanitizer
    /// and fails unless it is reported: proof that the pass still catches real races.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["MISCHIEF_TSAN_PROBE"] == "1",
            "a deliberate race, only for Scripts/sanitize-thread.sh (MISCHIEF_TSAN_PROBE=1)"))
    func aDeliberateRaceIsReported() {
        final class Unguarded: @unchecked Sendable { var count = 0 }  // @unchecked: the point of the probe
        let shared = Unguarded()
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<2 {
            done.enter()
            Thread {
                start.wait()
                for _ in 0..<1_000 { shared.count += 1 }
                done.leave()
            }.start()
        }
        start.signal()
        start.signal()
        done.wait()
        #expect(shared.count > 0)
        print("MISCHIEF_TSAN_PROBE ran; built with ThreadSanitizer: \(isThreadSanitized)")
    }
}
