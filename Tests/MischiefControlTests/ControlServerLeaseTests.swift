import Foundation
import Mischief
import MischiefControl
import Testing

/// Leases on an injected clock: a session nobody renews ends and its changes are reverted.
@Suite(.timeLimit(.minutes(1))) struct ControlServerLeaseTests {
    /// Runs `body` on a target whose leases are measured on `clock`.
    static func withLeaseTarget(_ body: (TestTarget, ManualClock) async throws -> Void) async throws {
        let clock = ManualClock()
        try await withTarget(configure: { $0.now = { clock.now } }) { target in
            try await body(target, clock)
        }
    }

    @Test func aLapsedLeaseEndsTheSessionAndRevertsItsChanges() async throws {
        try await Self.withLeaseTarget { target, clock in
            var client = target.client()
            client.session = try await client.openSession(SessionRequest(name: "ci", lease: 10)).id
            try await client.apply("return(8)", to: "t.count")
            let reports = target.registry.eventStream()

            clock.advance(by: .seconds(9))
            #expect(target.server.reapExpiredSessions() == 0)
            #expect(target.count() == 8)

            clock.advance(by: .seconds(2))
            target.server.reapExpiredSessions()
            // The server's own reaper may have got there first; either way the session ends once.
            let ended = await firstEvent(in: reports) { $0.kind == .report && $0.source == "ci (s1)" }
            #expect(ended?.message == "ci (s1) ended: its lease lapsed; reverted 1 change")
            #expect(target.count() == 0)
            #expect(target.server.sessions.isEmpty)
            let gone = try #require(await refusal { try await client.apply("return(1)", to: "t.count") })
            #expect(gone.status == 409)
        }
    }

    @Test func renewingKeepsTheSessionAlive() async throws {
        try await Self.withLeaseTarget { target, clock in
            var client = target.client()
            let session = try await client.openSession(SessionRequest(name: "ci", lease: 10))
            client.session = session.id
            try await client.apply("return(8)", to: "t.count")

            for _ in 0..<3 {
                clock.advance(by: .seconds(8))
                let renewed = try await client.renew(session.id)
                #expect(renewed.id == session.id)
                #expect(target.server.reapExpiredSessions() == 0)
            }
            clock.advance(by: .seconds(9))
            #expect(target.server.reapExpiredSessions() == 0)
            #expect(target.count() == 8)
            #expect(target.server.sessions.map(\.id) == [session.id])

            let reports = target.registry.eventStream()
            clock.advance(by: .seconds(2))
            target.server.reapExpiredSessions()
            #expect(await firstEvent(in: reports) { $0.kind == .report && $0.source == "ci (s1)" } != nil)
            #expect(target.count() == 0)
        }
    }

    @Test func aSessionHeldByAnEventsStreamDoesNotLapse() async throws {
        try await Self.withLeaseTarget { target, clock in
            var client = target.client()
            client.session = try await client.openSession(SessionRequest(name: "console", lease: 1)).id
            try await client.apply("return(8)", to: "t.count")
            var messages = client.events().makeAsyncIterator()
            guard case .hello = try await messages.next() else {
                Issue.record("the first message is not hello")
                return
            }
            clock.advance(by: .seconds(60))
            #expect(target.server.reapExpiredSessions() == 0)
            #expect(target.count() == 8)
            #expect(target.server.sessions.map(\.streams) == [1])
        }
    }

    @Test func aLeaseOutOfRangeIsRefused() async throws {
        try await withTarget { target in
            for lease in [0, -1, 86_401] as [Double] {
                let refused = try #require(
                    await refusal { try await target.client().openSession(SessionRequest(lease: lease)) })
                #expect(refused.status == 400)
                #expect(refused.body.error == "invalid lease")
            }
            #expect(target.server.sessions.isEmpty)
        }
    }
}
