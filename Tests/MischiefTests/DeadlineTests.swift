import Foundation
import MischiefTestSupport
import Testing

/// The tests' deadline for awaits that cannot be polled: a value passes through, an await that never ends fails
/// naming what was awaited, and cancelling the waiter cancels the wait.
@Suite struct DeadlineTests {
    @Test func aValuePassesThrough() async throws {
        #expect(try await Deadline.value(of: "a number") { 42 } == 42)
    }

    @Test func anAwaitThatNeverEndsFailsNamingWhatWasAwaited() async {
        let (never, _) = AsyncStream<Void>.makeStream()
        await #expect {
            try await Deadline.wait(for: "a message that never comes", within: .milliseconds(50)) {
                for await _ in never {}
                try Task.checkCancellation()
            }
        } throws: { error in
            "\(error)".contains("timed out after") && "\(error)".contains("waiting for a message that never comes")
        }
    }

    @Test func cancellingTheWaiterCancelsTheWait() async {
        let waiter = Task {
            try await Deadline.wait(for: "an hour", within: .seconds(3_600)) {
                try await Task.sleep(for: .seconds(3_600))
            }
        }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }
}
