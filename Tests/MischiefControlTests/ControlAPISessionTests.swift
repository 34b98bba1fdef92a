import Foundation
import Mischief
import MischiefConsole
import Testing

@testable import MischiefControl

/// Sessions, in process: who owns which change, and what ending a session reverts.
@Suite(.timeLimit(.minutes(1))) struct ControlAPISessionTests {
    /// Two clients, each holding a session of its own.
    static func twoSessions(_ target: APITarget) async throws -> (ControlClient, ControlClient) {
        var alice = target.client()
        var bob = target.client()
        alice.session = try await alice.openSession(SessionRequest(name: "alice")).id
        bob.session = try await bob.openSession(SessionRequest(name: "bob")).id
        return (alice, bob)
    }

    @Test func openingASessionNamesItAndListsIt() async throws {
        let defaults = ControlServer.Options(name: "test", socketPath: "/unused")
        try await withAPI(configure: { $0.lease = defaults.lease }) { target in
            let opened = try await target.client().openSession(SessionRequest(name: "alice", lease: 30))
            #expect(opened == SessionInfo(id: "s1", name: "alice (s1)", lease: 30, keep: false, streams: 0, changes: 0))
            let unnamed = try await target.client().openSession(SessionRequest())
            #expect(unnamed.name == "session s2")
            #expect(unnamed.lease == 15)
            #expect(target.handler.sessions.map(\.id) == ["s1", "s2"])
            let listed = try await target.raw.request("GET", "/v1/sessions")
            #expect(listed.status == 200)
            #expect(try JSONDecoder().decode([SessionInfo].self, from: listed.body) == target.handler.sessions)
        }
    }

    @Test func eachSessionOwnsWhatItChangedAndEndingOneRevertsOnlyThat() async throws {
        try await withAPI { target in
            let (alice, bob) = try await Self.twoSessions(target)
            try await alice.apply("return(1)", to: "t.count")
            try await bob.apply("return(\"Bo\")", to: "t.name")
            #expect(target.handler.sessions.map(\.changes) == [1, 1])
            #expect(try await alice.seam("t.name").layers.map(\.session) == [bob.session])

            let ended = try await alice.endSession(try #require(alice.session))
            #expect(ended.name == "alice (s1)")
            #expect(target.count() == 0)
            #expect(target.name() == "Bo")
            #expect(target.handler.sessions.map(\.id) == ["s2"])
            let event = try #require(target.registry.events().last { $0.source == "alice (s1)" })
            #expect(event.kind == .report)
            #expect(event.message == "alice (s1) ended: it was closed; reverted 1 change")
        }
    }

    @Test func theLaterChangeToASeamWinsAndBothSessionsSeeTheLayers() async throws {
        try await withAPI { target in
            let (alice, bob) = try await Self.twoSessions(target)
            try await alice.apply("return(1)", to: "t.count")
            try await bob.apply("return(2)", to: "t.count")
            #expect(target.count() == 2)
            for client in [alice, bob] {
                let detail = try await client.seam("t.count")
                #expect(detail.seam.behaviourText == "return(2)")
                #expect(detail.layers.map(\.behaviourText) == ["return(1)", "return(2)"])
                #expect(detail.layers.map(\.session) == ["s1", "s2"])
                #expect(detail.layers.map(\.source) == ["alice (s1)", "bob (s2)"])
            }

            // Alice's new spec replaces her own layer (one layer per session and seam) and goes on top.
            try await alice.apply("return(3)", to: "t.count")
            #expect(target.count() == 3)
            #expect(try await alice.seam("t.count").layers.map(\.behaviourText) == ["return(2)", "return(3)"])

            // Bob leaving uncovers Alice's change beneath; Alice leaving restores the original.
            try await bob.endSession("s2")
            #expect(target.count() == 3)
            #expect(try await alice.seam("t.count").layers.map(\.behaviourText) == ["return(3)"])
            try await alice.endSession("s1")
            #expect(target.count() == 0)
            #expect(target.registry.events().contains { $0.message.hasPrefix("bob (s2) ended") })
        }
    }

    @Test func aSessionsProfileIsSwitchedOffWhenItEnds() async throws {
        try await withAPI { target in
            let (alice, _) = try await Self.twoSessions(target)
            try await alice.define(profiles: "name: Big\nentries:\n  t.count: return(100)\n")
            try await alice.profile("Big", .apply)
            #expect(target.count() == 100)
            try await alice.endSession("s1")
            #expect(target.count() == 0)
            #expect(try await target.client().profiles().map(\.isActive) == [false])
            #expect(
                target.registry.events().last?.message
                    == "alice (s1) ended: it was closed; reverted 1 change (profile Big)")
        }
    }

    @Test func aChangeMadeWithoutASessionOutlivesEverySession() async throws {
        try await withAPI { target in
            let (alice, _) = try await Self.twoSessions(target)
            try await target.client().apply("return(5)", to: "t.count")
            try await alice.endSession("s1")
            #expect(target.count() == 5)
            #expect(
                target.registry.events().last?.message
                    == "alice (s1) ended: it was closed; nothing of its own was still applied")
        }
    }

    @Test func aKeepSessionLeavesItsChangesWhenItEnds() async throws {
        try await withAPI { target in
            var client = target.client()
            let session = try await client.openSession(SessionRequest(name: "script", keep: true))
            #expect(session.keep)
            client.session = session.id
            try await client.apply("return(4)", to: "t.count")
            try await client.endSession(session.id)
            #expect(target.count() == 4)
            #expect(
                target.registry.events().last?.message == "script (s1) ended: it was closed; its changes stay (keep)")
        }
    }

    @Test func anUnknownOrEndedSessionIsRefused() async throws {
        try await withAPI { target in
            let stranger = target.client(session: "s99")
            let apply = try #require(await refusal { try await stranger.apply("return(1)", to: "t.count") })
            #expect(apply.status == 409)
            #expect(apply.body.error == "no such session")
            #expect(target.count() == 0)

            let session = try await target.client().openSession(SessionRequest())
            try await target.client().endSession(session.id)
            let again = try #require(await refusal { try await target.client().endSession(session.id) })
            #expect(again.status == 409)
            let renew = try #require(await refusal { try await target.client().renew(session.id) })
            #expect(renew.status == 409)
        }
    }

    @Test func anEventsStreamForAnUnknownSessionIsRefused() async throws {
        try await withAPI { target in
            let response = try await target.raw.request("GET", "/v1/events", headers: ["Mischief-Session": "s7"])
            #expect(response.status == 409)
            #expect(response.error?.error == "no such session")
        }
    }
}
