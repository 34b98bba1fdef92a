import Foundation
import Mischief
import Synchronization
import Testing

@testable import MischiefControl

/// Guards, in process: `GET`/`POST /v1/guards`, `DELETE /v1/guards/{id}`, `POST /v1/guards/{id}/rearm`,
/// guards in profile definitions, in `GET /v1/status` and in sessions. Trips themselves are tested on a manual clock
/// in `GuardTests`; here `checkGuards()` runs a round at once, as the target's housekeeping thread would.
@Suite(.timeLimit(.minutes(1))) struct ControlAPIGuardTests {
    @Test func aGuardIsAddedListedAndRemoved() async throws {
        try await withAPI { target in
            let client = target.client()
            let added = try await client.addGuard("errors( t.count ) > 50% over 10s")
            #expect(added.id == 1)
            #expect(added.definition.condition.description == "errors(t.count) > 50% over 10s")
            #expect(added.definition.reverts == .everything)
            #expect(added.source == "api")
            #expect(added.state == .armed)
            #expect(try await client.guards() == [added])
            #expect(try await client.status().guards == [added])
            let raw = try await target.raw.request("GET", "/v1/guards")
            #expect(String(decoding: raw.body, as: UTF8.self).contains(#""when":"errors(t.count) > 50% over 10s""#))
            #expect(try await client.removeGuard(1) == added)
            #expect(try await client.guards().isEmpty)
            #expect(await refusal { try await client.removeGuard(1) }?.status == 404)
        }
    }

    @Test func aBadGuardIsRefusedWithItsColumn() async throws {
        try await withAPI { target in
            let client = target.client()
            let syntax = await refusal { try await client.addGuard("errors(t.count) > 50% for 10s") }
            #expect(syntax?.status == 400)
            #expect(syntax?.body.error == "invalid guard")
            #expect(syntax?.body.column == 23)
            #expect(syntax?.body.detail.contains("expected 'over', found 'for'") == true)
            let unknown = await refusal { try await client.addGuard("no-success(no.such) for 5s") }
            #expect(unknown?.status == 404)
            #expect(unknown?.body.error == "unknown seam")
            let noProfile = await refusal { try await client.addGuard("no-success(t.count) for 5s", profile: "Nope") }
            #expect(noProfile?.status == 404)
            #expect(noProfile?.body.error == "unknown profile")
            let empty = try await target.raw.request("POST", "/v1/guards", body: Data("  ".utf8))
            #expect(empty.status == 400)
            let badScope = try await target.raw.request(
                "POST", "/v1/guards", headers: ["Content-Type": "application/json"],
                body: Data(#"{"when": "check(t.count)", "reverts": "all"}"#.utf8))
            #expect(badScope.status == 400)
            #expect(String(decoding: badScope.body, as: UTF8.self).contains("'everything' or 'profile', not 'all'"))
            let notBool = await refusal { try await client.addGuard("check(t.count)") }
            #expect(notBool?.status == 400)
            #expect(notBool?.body.detail.contains("returns Bool") == true)
            let guards = try await client.guards()
            #expect(guards.isEmpty)
        }
    }

    @Test func aFailingHealthCheckTripsRevertsAndIsReportedUntilRearmed() async throws {
        try await withAPI { target in
            // Healthy until the guard is in place: the housekeeping thread checks guards too, and would trip a
            // failing check before the answer to the add was written.
            let healthy = Healthy()
            let health = Seam<Void, Bool, Never>("t.health", title: "Health", category: "Test", summary: "") {
                healthy.value.load(ordering: .relaxed)
            }
            try target.registry.register(health)
            let client = target.client()
            let events = target.registry.eventStream()
            try await client.apply("return(5)", to: "t.count")
            let added = try await client.addGuard("check(t.health)")
            #expect(added.isWatching)
            healthy.value.store(false, ordering: .relaxed)
            target.registry.checkGuards()
            let trip = await firstEvent(in: events) { $0.kind == .guardTripped }
            #expect(trip?.message.contains("t.health returned false; reverted everything (1 layer)") == true)
            #expect(target.count() == 0)
            let status = try #require(try await client.guards().first)
            #expect(status.isTripped)
            #expect(try await client.status().guards.first?.isTripped == true)
            #expect(try await client.rearmGuard(1).state == .armed)
            #expect(await refusal { try await client.rearmGuard(9) }?.status == 404)
            #expect(try await target.raw.request("POST", "/v1/guards/one/rearm").status == 404)
            #expect(try await target.raw.request("DELETE", "/v1/guards/0").status == 404)
            #expect(try await target.raw.request("GET", "/v1/guards/1").status == 405)
        }
    }

    @Test func aConditionSentAsTextGuardsTheProfileTheQueryNames() async throws {
        try await withAPI { target in
            try await target.client().define(profiles: "name: Counted\nentries:\n  t.count: return(1)\n")
            let response = try await target.raw.request(
                "POST", "/v1/guards?profile=Counted", body: Data("no-success(t.count) for 30s".utf8))
            #expect(response.status == 201)
            let guards = try await target.client().guards()
            #expect(guards.map(\.definition.reverts) == [.profile("Counted")])
        }
    }

    @Test func aGuardAddedInASessionIsRemovedWhenTheSessionEnds() async throws {
        try await withAPI { target in
            let session = try await target.client().openSession(SessionRequest(name: "alice"))
            let client = target.client(session: session.id)
            try await client.apply("return(5)", to: "t.count")
            let owned = try await client.addGuard("errors(t.count) > 50% over 10s")
            #expect(owned.source == "alice (s1)")
            let lasting = try await target.client().addGuard("no-success(t.count) for 30s")
            let events = target.registry.eventStream()
            try await target.client().endSession(session.id)
            let ended = await firstEvent(in: events) { $0.message.contains("ended") }
            #expect(ended?.message == "alice (s1) ended: it was closed; reverted 1 change; removed guard 1")
            #expect(try await target.client().guards().map(\.id) == [lasting.id])
        }
    }

    @Test func aProfileDefinedOverTheSocketBringsItsGuards() async throws {
        try await withAPI { target in
            let client = target.client()
            try await client.define(
                profiles: """
                    name: Counted
                    guards:
                      - no-success(t.count) for 30s
                    entries:
                      t.count: return(1)
                    """)
            let guards = try await client.guards()
            #expect(guards.map(\.source) == ["profile Counted"])
            #expect(guards.first?.definition.reverts == .profile("Counted"))
            let bad = await refusal {
                try await client.define(profiles: "name: Bad\nguards:\n  - check(t.count) fails twice\nentries: {}\n")
            }
            #expect(bad?.status == 400)
            #expect(bad?.body.detail.contains("request body:3:") == true, "\(bad?.body.detail ?? "accepted")")
        }
    }
}

/// Whether a test's health check passes.
private final class Healthy: Sendable {
    let value = Atomic(true)

    @Test func aGuardPastTheLimitIsRefusedWithHowToMakeRoom() async throws {
        try await withAPI { target in
            target.registry.guardCapacity = 2
            let client = target.client()
            for _ in 0..<2 { _ = try await client.addGuard("no-success(t.count) for 5s") }
            let full = await refusal { try await client.addGuard("no-success(t.count) for 5s") }
            #expect(full?.status == 409)
            #expect(full?.body.error == "too many guards")
            #expect(full?.body.detail.contains("already has 2 guards") == true)
            #expect(full?.body.detail.contains("mischief guard remove ID") == true)
            #expect(try await client.guards().count == 2)
            _ = try await client.removeGuard(1)
            #expect(try await client.addGuard("no-success(t.count) for 5s").id == 3)
        }
    }
}
