import Dispatch
import Foundation
import Mischief
import MischiefTestSupport
import Testing

@testable import MischiefControl

/// `pause`, in process: releasing held calls with `POST /v1/seams/{id}/release`, and a session that ends
/// letting its held calls go.
@Suite(.timeLimit(.minutes(1))) struct ControlAPIPauseTests {
    /// Calls `target.count` on a thread of its own; the semaphore is signalled when the call returns.
    static func callOnThread(_ target: APITarget) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = target.count()
            done.signal()
        }.start()
        return done
    }

    /// Waits for `semaphore` on a thread of its own, never on the cooperative pool.
    static func wait(_ semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                semaphore.wait()
                continuation.resume()
            }.start()
        }
    }

    @Test func releaseLetsTheHeldCallsGoAndSaysHowMany() async throws {
        try await withAPI { target in
            let client = target.client()
            let applied = try await client.apply("pause(1h) + return(5)", to: "t.count")
            #expect(applied.seam.spec == "pause(1h) + return(5)")
            let calls = [Self.callOnThread(target), Self.callOnThread(target)]
            try await target.registry.held("t.count", 2)
            #expect(try await client.seam("t.count").seam.held == 2)
            let raw = try await target.raw.request("POST", "/v1/seams/t.count/release")
            #expect(raw.status == 200)
            #expect(
                try JSONDecoder().decode(ReleaseResult.self, from: raw.body)
                    == ReleaseResult(seam: "t.count", released: 2))
            for call in calls { await Self.wait(call) }
            #expect(try await client.seam("t.count").seam.held == 0)
            #expect(try await client.release("t.count") == ReleaseResult(seam: "t.count", released: 0))
        }
    }

    @Test func releasingAnUnknownSeamIsA404() async throws {
        try await withAPI { target in
            let answer = try await target.raw.request("POST", "/v1/seams/t.nothing/release")
            #expect(answer.status == 404)
            let body = try JSONDecoder().decode(ErrorBody.self, from: answer.body)
            #expect(body.error == "unknown seam")
            #expect(body.detail.contains("t.nothing"))
            let wrongMethod = try await target.raw.request("GET", "/v1/seams/t.count/release")
            #expect(wrongMethod.status == 405)
        }
    }

    @Test func aSessionThatEndsReleasesTheCallsItsPauseHolds() async throws {
        try await withAPI { target in
            var client = target.client()
            client.session = try await client.openSession(SessionRequest(name: "racer")).id
            try await client.apply("pause(1h)", to: "t.count")
            let call = Self.callOnThread(target)
            try await target.registry.held("t.count")
            try await client.endSession(try #require(client.session))
            await Self.wait(call)
            #expect(target.registry.counters("t.count")?.held == 0)
            #expect(target.count() == 0)  // reverted: the original again
        }
    }
}
