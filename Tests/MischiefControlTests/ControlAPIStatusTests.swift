import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// `GET /v1/status`: what an orchestrator gates on.
@Suite(.timeLimit(.minutes(1))) struct ControlAPIStatusTests {
    @Test func anIdleTargetReportsNothingActive() async throws {
        try await withAPI { target in
            let raw = try await target.raw.request("GET", "/v1/status")
            #expect(raw.status == 200)
            let status = try JSONDecoder().decode(TargetStatus.self, from: raw.body)
            #expect(status.target.name == "test")
            #expect(status.target.pid == getpid())
            #expect(status.target.instance == target.handler.instance)
            #expect(status.chaosAllowed)
            #expect(status.disabledReason == nil)
            #expect(!status.crashAllowed)
            #expect(status.activeLayers.isEmpty)
            #expect(status.seams.isEmpty)
            #expect(
                status.summary
                    == StatusSummary(
                        activeLayers: 0, seamsChanged: 0, calls: 0, chaosCalls: 0, errors: 0, inFlight: 0, held: 0))
        }
    }

    /// The Swift names say *layer*; the JSON keeps the names /v1 clients read (`active`, `summary.activeChanges`).
    @Test func theStatusJSONKeepsItsV1Names() async throws {
        try await withAPI { target in
            let raw = try await target.raw.request("GET", "/v1/status")
            let json = try #require(try JSONSerialization.jsonObject(with: raw.body) as? [String: Any])
            #expect(json["active"] is [Any] && json["activeLayers"] == nil)
            let summary = try #require(json["summary"] as? [String: Any])
            #expect(summary["activeChanges"] as? Int == 0 && summary["activeLayers"] == nil)
        }
    }

    @Test func activeChangesHeldCallsAndCountersShow() async throws {
        try await withAPI(configure: { $0.allowCrash = true }) { target in
            let session = try await target.client().openSession(SessionRequest(name: "chaos run"))
            _ = try await target.client(session: session.id).apply("return(7)", to: "t.count")
            for _ in 0..<3 { _ = target.count() }
            let status = try await target.client().status()
            #expect(status.crashAllowed)
            #expect(status.activeLayers.count == 1)
            let change = try #require(status.activeLayers.first)
            #expect(change.seam == "t.count")
            #expect(change.spec == "return(7)")
            #expect(change.source.hasPrefix("chaos run"))
            #expect(change.session == session.id)
            #expect(change.appliedAt <= status.target.uptime)
            // Only the seam with activity; t.name was never called nor changed.
            #expect(
                status.seams == [
                    SeamStatus(seam: "t.count", spec: "return(7)", counters: .init(calls: 3, chaosCalls: 3))
                ])
            #expect(status.summary.activeLayers == 1)
            #expect(status.summary.seamsChanged == 1)
            #expect(status.summary.calls == 3)
            #expect(status.summary.chaosCalls == 3)
            #expect(status.summary.held == 0)
        }
    }

    @Test func onlyGetIsAllowed() async throws {
        try await withAPI { target in
            let wrong = try await target.raw.request("POST", "/v1/status")
            #expect(wrong.status == 405)
        }
    }
}
