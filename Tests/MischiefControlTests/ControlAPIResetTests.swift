import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// `POST /v1/seams/{id}/reset` and `POST /v1/reset`: counters back to zero, answered with what they were.
@Suite(.timeLimit(.minutes(1))) struct ControlAPIResetTests {
    @Test func aSeamsCountersAreResetAndTheAnswerHasThemAsTheyWere() async throws {
        try await withAPI { target in
            for _ in 0..<3 { _ = target.count() }
            let raw = try await target.raw.request("POST", "/v1/seams/t.count/reset")
            #expect(raw.status == 200)
            let result = try JSONDecoder().decode(ResetResult.self, from: raw.body)
            #expect(result.seam == "t.count")
            #expect(result.before.calls == 3)
            let seams = try await target.client().seams()
            #expect(seams.first { $0.id == "t.count" }?.counters == SeamCounters())
            let again = try await target.client().resetCounters("t.count")
            #expect(again == ResetResult(seam: "t.count", before: .init()))
            #expect(target.registry.events().last?.message.hasPrefix("counters reset") == true)
        }
    }

    @Test func everySeamsCountersAreReset() async throws {
        try await withAPI { target in
            _ = target.count()
            _ = target.name()
            let result = try await target.client().resetAllCounters()
            #expect(result == ResetAllResult(reset: 2))
            #expect(target.registry.snapshot().seams.allSatisfy { $0.counters.calls == 0 })
        }
    }

    @Test func anUnknownSeamIs404AndAWrongMethod405() async throws {
        try await withAPI { target in
            let unknown = try await target.raw.request("POST", "/v1/seams/t.nothing/reset")
            #expect(unknown.status == 404)
            #expect(unknown.error?.error == "unknown seam")
            let wrongMethod = try await target.raw.request("GET", "/v1/seams/t.count/reset")
            #expect(wrongMethod.status == 405)
            let wrongAll = try await target.raw.request("GET", "/v1/reset")
            #expect(wrongAll.status == 405)
        }
    }
}
