import Dispatch
import Foundation
import Mischief
import MischiefTestSupport
import Testing

@testable import MischiefControl

/// A pause as a breakpoint through the control API: held calls with their input in the seam, answered by
/// `POST /v1/seams/{id}/release` with `{"answer": …}`, the pause reverted with `"holdNext": false`; and
/// `DELETE /v1/layers/{id}`, which an attached console's undo uses.
@Suite(.timeLimit(.minutes(1))) struct ControlAPIBreakpointTests {
    /// Calls `target.count` on a thread of its own; its result is stored when it returns and the semaphore signalled.
    static func callOnThread(_ target: APITarget, into result: Locked<Int>) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            let value = target.count()
            result.withLock { $0 = value }
            done.signal()
        }.start()
        return done
    }

    @Test func aHeldCallShowsItsInputAndReturnsTheAnswer() async throws {
        try await withAPI { target in
            let client = target.client()
            try await client.apply("pause(1h)", to: "t.count")
            let result = Locked<Int>(-1)
            let call = Self.callOnThread(target, into: result)
            try await target.registry.held("t.count")
            #expect(try await client.seams().first { $0.id == "t.count" }?.heldCalls == [HeldCall(input: "()")])
            // A bad answer releases nothing, and says where.
            let bad = try await target.raw.request(
                "POST", "/v1/seams/t.count/release", headers: ["Content-Type": "application/json"],
                body: Data(#"{"answer": "return(\"x\")"}"#.utf8))
            #expect(bad.status == 400)
            #expect(bad.error?.error == "invalid spec")
            #expect(target.registry.counters("t.count")?.held == 1)
            #expect(
                try await client.release("t.count", answer: "return(42)") == ReleaseResult(seam: "t.count", released: 1)
            )
            await ControlAPIPauseTests.wait(call)
            #expect(result.withLock { $0 } == 42)
            // Held again; released unchanged, and the pause reverted: the rest run.
            let next = Self.callOnThread(target, into: result)
            try await target.registry.held("t.count")
            #expect(try await client.release("t.count", answer: nil, holdNext: false).released == 1)
            await ControlAPIPauseTests.wait(next)
            #expect(result.withLock { $0 } == 0)
            #expect(try await client.seam("t.count").seam.behaviourText == nil)
        }
    }

    @Test func deletingALayerRevertsOnlyIt() async throws {
        try await withAPI { target in
            let client = target.client()
            try target.registry.apply(spec: "return(1)", to: "t.count", source: "profile P")
            let mine = try await client.apply("return(2)", to: "t.count")
            let layer = try #require(mine.layers.last { $0.status == .active })
            let after = try await client.revert(layer: layer.id)
            #expect(after.seam.behaviourText == "return(1)")
            let again = try await target.raw.request("DELETE", "/v1/layers/\(layer.id.rawValue)")
            #expect(again.status == 404)
            #expect(try await target.raw.request("DELETE", "/v1/layers/x").status == 400)
        }
    }
}
