import Dispatch
import Foundation
import Mischief
import Synchronization
import Testing

@testable import MischiefControl

/// Requests with long bodies (specs, profiles and guards to parse) are answered on the server's worker thread, so the
/// event loop keeps answering other clients meanwhile (issue #28: a 64 KiB spec kept `GET /v1/target` waiting).
@Suite(.timeLimit(.minutes(1))) struct ControlServerWorkerTests {
    /// Whether `stream` yields within `limit` (which only keeps a broken build from hanging the suite).
    static func arrives(_ stream: AsyncStream<Void>, within limit: Duration = .seconds(60)) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in stream { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test func whileALongSpecIsBeingAnsweredOtherClientsAreAnswered() async throws {
        try await withTarget { target in
            let (entered, release) = target.holdWorkers()
            let spec = "seq(" + Array(repeating: "return(1)", count: 150).joined(separator: ", ") + ")"
            #expect(spec.utf8.count >= HTTPConnection.workerBytes)
            let put = Task { try await target.client().apply(spec, to: "t.count") }
            let held = await Self.arrives(entered)
            #expect(held, "the long spec did not reach the worker")

            // The spec is held on the worker: the event loop answers, and nothing is applied yet.
            try await ControlServerHTTPTests.expectAnswers(target)
            #expect(try await target.client().seam("t.count").seam.behaviourText == nil)
            release.signal()
            let detail = try await put.value
            #expect(detail.seam.behaviourText?.hasPrefix("seq(return(1), return(1)") == true)
            #expect(target.count() == 1)
        }
    }

    /// A short request is answered on the event loop as before, without a trip to the worker.
    @Test func aShortSpecIsAnsweredOnTheEventLoop() async throws {
        try await withTarget { target in
            target.server.workerGate.withLock { $0 = { Issue.record("a short spec went to the worker") } }
            try await target.client().apply("return(3)", to: "t.count")
            #expect(target.count() == 3)
        }
    }
}
