import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// Time to live, in process: `"ttl"` in an apply, `?ttl=` beside a text spec, `POST /v1/seams/{id}/ttl`, and
/// a profile applied for a while. Expiry itself is tested on a manual clock in `ExpiryTests`.
@Suite(.timeLimit(.minutes(1))) struct ControlAPITTLTests {
    @Test func anApplyWithATTLShowsItAndTheTimeLeft() async throws {
        try await withAPI { target in
            let detail = try await target.client().apply("return(5)", to: "t.count", ttl: .seconds(30))
            let layer = try #require(detail.layers.last)
            #expect(layer.ttl == .seconds(30))
            let left = try #require(layer.expiresIn)
            #expect(left > .zero && left <= .seconds(30))
            #expect(layer.expiresAt != nil)

            // As JSON, in seconds, beside the layer's other fields; and in `GET /v1/seams` (what `list` reads).
            let raw = try await target.raw.request("GET", "/v1/seams")
            let text = String(decoding: raw.body, as: UTF8.self)
            #expect(text.contains(#""ttl":30"#))
            #expect(text.contains(#""expiresIn":"#))
        }
    }

    @Test(arguments: [
        (#"{"spec": "return(1)", "ttl": 2.5}"#, Duration.milliseconds(2_500)),
        (#"{"spec": "return(1)", "ttl": "10m"}"#, Duration.seconds(600)),
    ])
    func aJSONTTLIsSecondsOrADuration(_ body: String, _ ttl: Duration) async throws {
        try await withAPI { target in
            let answer = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(answer.status == 200)
            let detail = try JSONDecoder().decode(SeamDetail.self, from: answer.body)
            #expect(detail.layers.last?.ttl == ttl)
        }
    }

    @Test func aTextSpecTakesItsTTLFromTheQuery() async throws {
        try await withAPI { target in
            let answer = try await target.raw.request(
                "PUT", "/v1/seams/t.count?ttl=45s", headers: ["Content-Type": "text/plain"],
                body: Data("return(2)".utf8))
            #expect(answer.status == 200)
            #expect(target.registry.snapshot().seam("t.count")?.layers.last?.ttl == .seconds(45))
        }
    }

    @Test(arguments: [
        (#"{"spec": "return(1)", "ttl": 0}"#, "ttl must be a number more than 0 and at most 86400, not 0.0"),
        (#"{"spec": "return(1)", "ttl": -5}"#, "ttl must be a number more than 0 and at most 86400, not -5.0"),
        (#"{"spec": "return(1)", "ttl": 1e300}"#, "at most 86400"),
        (#"{"spec": "return(1)", "ttl": "2d"}"#, "a ttl must be more than 0s and at most 1d, not 2d"),
        (#"{"spec": "return(1)", "ttl": "soon"}"#, "expected a duration such as 30s, 10m or 1h, not 'soon'"),
        (#"{"spec": "return(1)", "ttl": true}"#, "'ttl' should be"),
    ])
    func aBadTTLIsA400AndNothingIsApplied(_ body: String, _ message: String) async throws {
        try await withAPI { target in
            let answer = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            #expect(answer.status == 400)
            let error = try JSONDecoder().decode(ErrorBody.self, from: answer.body)
            #expect(error.detail.contains(message), "\(error.detail)")
            #expect(target.registry.snapshot().layers.isEmpty)
        }
    }

    @Test func setTTLGivesTheSeamsChangesADeadlineOrTakesItAway() async throws {
        try await withAPI { target in
            let client = target.client()
            try await client.apply("return(5)", to: "t.count")
            let timed = try await client.setTTL(.seconds(20), on: "t.count")
            #expect(timed.layers.last?.ttl == .seconds(20))
            let untimed = try await client.setTTL(nil, on: "t.count")
            #expect(untimed.layers.last?.ttl == nil)
            #expect(untimed.layers.last?.expiresIn == nil)

            let nothing = await refusal { try await client.setTTL(.seconds(5), on: "t.name") }
            #expect(nothing?.status == 409)
            let empty = try await target.raw.request(
                "POST", "/v1/seams/t.count/ttl", headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
            #expect(empty.status == 400)  // {} is not a way to clear it: say null
            let bad = try await target.raw.request(
                "POST", "/v1/seams/t.count/ttl", headers: ["Content-Type": "application/json"],
                body: Data(#"{"ttl": 0}"#.utf8))
            #expect(bad.status == 400)
        }
    }

    @Test func aProfileAppliedWithATTLGivesItToEveryEntry() async throws {
        try await withAPI { target in
            let client = target.client()
            try await client.define(
                profiles: "name: P\nttl: 1h\nentries:\n  t.count: return(3)\n  t.name: return(\"Bo\")\n")
            try await client.profile("P", .apply, ttl: .seconds(90))
            #expect(target.registry.snapshot().layers.map(\.ttl) == [.seconds(90), .seconds(90)])
            try await client.profile("P", .revert)
            try await client.profile("P", .apply)  // the file's own
            #expect(
                target.registry.snapshot().layers.filter { $0.status == .active }.map(\.ttl)
                    == [.seconds(3_600), .seconds(3_600)])
        }
    }
}
