import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// The test scopes' routes (issue 49): `GET /v1/scopes` lists a test process's tests, `POST /v1/scopes/apply|revert|
/// release` change the tests a pattern names and no others, and a session that ends takes its scoped changes with it.
@Suite(.timeLimit(.minutes(1))) struct ControlAPIScopeTests {
    @Test func aChangeGoesToTheNamedTestOnlyAndTheListShowsIt() async throws {
        try await withAPI { target in
            target.registry.publishScopes()
            let apples = ChaosScope("countsApples()", registry: target.registry)
            let pears = ChaosScope("countsPears()", registry: target.registry)
            target.registry.publish(apples)
            target.registry.publish(pears)
            let result = try await target.client().apply("return(5)", to: "t.count", inScopes: "*Apples*")
            #expect(result.count == 1)
            #expect(result.scopes.map(\.name) == ["countsApples()"])
            #expect(apples.run { target.count() } == 5)
            #expect(pears.run { target.count() } == 0)
            #expect(target.count() == 0)
            let listed = try await target.client().scopes()
            #expect(listed.map(\.status) == [.running, .running])
            #expect(listed[0].layers.first?.spec == "return(5)")
            #expect(listed[0].seams.first?.calls == 1)
            let delta = try await target.client().delta(since: 0)
            #expect(delta.registry.scopes?.count == 2)
        }
    }

    @Test func refusalsSayWhy() async throws {
        try await withAPI { target in
            target.registry.publishScopes()
            target.registry.publish(ChaosScope("a()", registry: target.registry))
            let none = try await target.raw.request(
                "POST", "/v1/scopes/apply", body: Data(#"{"scope":"zz","seam":"t.count","spec":"return(1)"}"#.utf8))
            #expect(none.status == 404)
            #expect(none.error?.error == "no such test")
            let bad = try await target.raw.request(
                "POST", "/v1/scopes/apply", body: Data(#"{"scope":"a()","seam":"t.count","spec":"return("}"#.utf8))
            #expect(bad.status == 400)
            #expect(bad.error?.error == "invalid spec")
            let unknown = try await target.raw.request(
                "POST", "/v1/scopes/apply", body: Data(#"{"scope":"a()","seam":"t.nope","spec":"return(1)"}"#.utf8))
            #expect(unknown.status == 404)
            let wrong = try await target.raw.request("GET", "/v1/scopes/apply")
            #expect(wrong.status == 405)
            // Hostile bodies: cut short, not an object, a seed past UInt64, a pattern of controls and bidi marks.
            let hostile = [
                #"{"scope":"a()","seam":"#, "[1,2]",
                #"{"scope":"a()","seam":"t.count","spec":"return(1)","seed":1e400}"#,
                #"{"scope":"a()","seam":"t.count","spec":"return(1)","seed":18446744073709551616}"#,
            ]
            for body in hostile {
                let answer = try await target.raw.request("POST", "/v1/scopes/apply", body: Data(body.utf8))
                #expect(answer.status == 400, "\(body)")
                #expect(answer.error?.detail.isEmpty == false, "\(body): the error says what")
            }
            let marks = try await target.raw.request(
                "POST", "/v1/scopes/revert",
                body: Data(#"{"scope":"\u0000\u202e*\u0007","seam":"t.count"}"#.utf8))
            #expect(marks.status < 500, "a pattern of controls is answered, not a crash")
            #expect(target.registry.scopes.count == 1, "and nothing changed")
        }
    }

    @Test func aSessionThatEndsRevertsWhatItAppliedInTestsAndTheTestsRunOn() async throws {
        try await withAPI { target in
            target.registry.publishScopes()
            let scope = ChaosScope("a()", registry: target.registry)
            target.registry.publish(scope)
            var console = target.client()
            console.session = try await console.openSession(SessionRequest(name: "console")).id
            try await console.apply("return(9)", to: "t.count", inScopes: "a()")
            #expect(scope.run { target.count() } == 9)
            #expect(try await target.client().scopes()[0].layers.first?.source?.hasPrefix("console (") == true)
            _ = try await console.endSession(console.session!)
            #expect(scope.run { target.count() } == 0)
            let row = try await target.client().scopes()[0]
            #expect(row.status == .running)
            #expect(row.layers.isEmpty)
            #expect(row.outside.map(\.isActive) == [false])
            #expect(target.registry.events().contains { $0.message == "reverted 1 change in test a()" })
        }
    }

    @Test func aTestHeldByAPauseIsReleasedThroughTheAPI() async throws {
        try await withAPI { target in
            target.registry.publishScopes()
            let scope = ChaosScope("held()", registry: target.registry)
            target.registry.publish(scope)
            try await target.client().apply("pause", to: "t.count", inScopes: "held()")
            let count = target.count
            // A sync seam's pause blocks its thread: the held call runs on a thread of its own, not the task pool.
            async let waiting: Int = withCheckedContinuation { done in
                Thread.detachNewThread { done.resume(returning: scope.run { count() }) }
            }
            try await scope.waitUntilHeld(target.count)
            #expect(try await target.client().scopes()[0].seams.first?.held == 1)
            let released = try await target.client().release("t.count", inScopes: "held()")
            #expect(released.count == 1)
            #expect(await waiting == 0)
        }
    }
}
