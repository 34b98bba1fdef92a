import Dispatch
import Foundation
import Mischief
import Testing

/// A revert (and the kill switch, a TTL, a guard, which revert) ends a `delay` in progress, as it ends a pause:
/// the call goes on at once instead of staying in flight for as long as the delay said (issue #28).
struct DelayEndTests {
    /// Spins (yielding) until `seam` has a call in flight; fails after 30 s.
    static func waitForCallInFlight(_ registry: Registry, _ seam: SeamID) async {
        let deadline = ContinuousClock.now + .seconds(30)
        while registry.counters(seam)?.inFlight != 1 {
            guard ContinuousClock.now < deadline else {
                Issue.record("no call of \(seam) went in flight within 30 s")
                return
            }
            await Task.yield()
        }
    }

    /// Waits on a thread of its own for `semaphore`; false (and an issue naming `what`) after 30 s.
    static func waitFor(_ semaphore: DispatchSemaphore, _ what: String) async -> Bool {
        let signalled = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread { continuation.resume(returning: semaphore.wait(timeout: .now() + 30) == .success) }.start()
        }
        if !signalled { Issue.record("\(what) did not end within 30 s") }
        return signalled
    }

    /// The value of `call`, or nil (and an issue) when it has not ended within 30 s; the call is then cancelled.
    static func value(of call: Task<String, any Error>) async -> String? {
        let deadline = Task {
            try? await Task.sleep(for: .seconds(30))
            guard !Task.isCancelled else { return false }
            call.cancel()
            return true
        }
        let value = try? await call.value
        deadline.cancel()
        if await deadline.value { Issue.record("the delayed call did not end within 30 s") }
        return value
    }

    @Test func revertingEndsADelayInProgressOnASynchronousSeam() async throws {
        let f = try Fixture()
        let applied = try f.registry.apply(spec: "delay(1d)", to: "test.double")
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = f.double(2)
            done.signal()
        }.start()
        await Self.waitForCallInFlight(f.registry, "test.double")
        f.registry.revert(applied)
        #expect(await Self.waitFor(done, "the delayed call"))
        #expect(f.registry.counters("test.double")?.inFlight == 0)
    }

    @Test func revertingEndsADelayInProgressOnAnAsyncSeam() async throws {
        let f = try Fixture()
        let applied = try f.registry.apply(spec: "delay(1d)", to: "test.fetch")
        let call = Task { try await f.fetch(1) }
        await Self.waitForCallInFlight(f.registry, "test.fetch")
        f.registry.revert(applied)
        #expect(await Self.value(of: call) == "item 1")
    }

    @Test func revertingEverythingEndsADelayInProgress() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: "delay(1d)", to: "test.double")
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = f.double(2)
            done.signal()
        }.start()
        await Self.waitForCallInFlight(f.registry, "test.double")
        f.registry.revertAll()
        #expect(await Self.waitFor(done, "the delayed call"))
    }

    @Test(arguments: ["delay(-1s)", "delay(2d)", "delay(400d)"])
    func aDelayOutsideItsRangeIsRefused(_ spec: String) throws {
        let f = try Fixture()
        let error = #expect(throws: MischiefError.self) { try f.registry.apply(spec: spec, to: "test.double") }
        #expect(error?.description.contains("at most 1d") == true, "\(String(describing: error))")
    }
}
