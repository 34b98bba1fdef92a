import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// Leases on an injected clock, in process: a session nobody renews ends and its changes are reverted; one an events
/// stream holds does not lapse.
@Suite(.timeLimit(.minutes(1))) struct ControlAPILeaseTests {
    /// Runs `body` on a target whose leases are measured on `clock`.
    static func withLeaseTarget(_ body: (APITarget, ManualClock) async throws -> Void) async throws {
        let clock = ManualClock()
        try await withAPI(configure: { $0.now = { clock.now } }) { target in
            try await body(target, clock)
        }
    }

    /// Moves `clock` by `duration` a beat at a time, the server reading it at each: time in which the target runs.
    /// (Moving it at once is time in which the target was stopped, which leases do not count.)
    static func run(_ target: APITarget, _ clock: ManualClock, for duration: Duration) {
        var left = duration
        while left > .zero {
            let step = min(left, .milliseconds(250))
            clock.advance(by: step)
            target.handler.reapExpiredSessions()
            left -= step
        }
    }

    @Test func aLapsedLeaseEndsTheSessionAndRevertsItsChanges() async throws {
        try await Self.withLeaseTarget { target, clock in
            var client = target.client()
            client.session = try await client.openSession(SessionRequest(name: "ci", lease: 10)).id
            try await client.apply("return(8)", to: "t.count")
            let reports = target.registry.eventStream()

            Self.run(target, clock, for: .seconds(9))
            #expect(target.handler.reapExpiredSessions() == 0)
            #expect(target.count() == 8)

            Self.run(target, clock, for: .seconds(2))
            // The server's own reaper may have got there first; either way the session ends once.
            let ended = await firstEvent(in: reports) { $0.kind == .report && $0.source == "ci (s1)" }
            #expect(ended?.message == "ci (s1) ended: its lease lapsed; reverted 1 change")
            #expect(target.count() == 0)
            #expect(target.handler.sessions.isEmpty)
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
                Self.run(target, clock, for: .seconds(8))
                let renewed = try await client.renew(session.id)
                #expect(renewed.id == session.id)
                #expect(target.handler.reapExpiredSessions() == 0)
            }
            Self.run(target, clock, for: .seconds(9))
            #expect(target.handler.reapExpiredSessions() == 0)
            #expect(target.count() == 8)
            #expect(target.handler.sessions.map(\.id) == [session.id])

            let reports = target.registry.eventStream()
            Self.run(target, clock, for: .seconds(2))
            #expect(await firstEvent(in: reports) { $0.kind == .report && $0.source == "ci (s1)" } != nil)
            #expect(target.count() == 0)
        }
    }

    @Test func aSessionHeldByAnEventsStreamDoesNotLapse() async throws {
        try await Self.withLeaseTarget { target, clock in
            var client = target.client()
            client.session = try await client.openSession(SessionRequest(name: "console", lease: 1)).id
            try await client.apply("return(8)", to: "t.count")
            try await target.openStream(session: try #require(client.session))
            clock.advance(by: .seconds(60))
            #expect(target.handler.reapExpiredSessions() == 0)
            #expect(target.count() == 8)
            #expect(target.handler.sessions.map(\.streams) == [1])
        }
    }

    /// A target stopped for 25 s (SIGSTOP) heard nobody in that time: its clients' leases do not count it (issue #28).
    @Test func timeTheTargetWasStoppedDoesNotCountAgainstALease() async throws {
        try await Self.withLeaseTarget { target, clock in
            var client = target.client()
            client.session = try await client.openSession(SessionRequest(name: "ci", lease: 10)).id
            try await client.apply("return(8)", to: "t.count")
            Self.run(target, clock, for: .seconds(5))

            clock.advance(by: .seconds(25))  // stopped: no beat in between
            #expect(target.handler.reapExpiredSessions() == 0)
            #expect(target.count() == 8)
            Self.run(target, clock, for: .seconds(4))
            #expect(target.handler.reapExpiredSessions() == 0)
            #expect(target.count() == 8)

            // Running time goes on counting: 5 + 4 + 2 s is past the lease of 10 s.
            let reports = target.registry.eventStream()
            Self.run(target, clock, for: .seconds(2))
            let ended = await firstEvent(in: reports) { $0.kind == .report && $0.source == "ci (s1)" }
            #expect(ended?.message == "ci (s1) ended: its lease lapsed; reverted 1 change")
            #expect(target.count() == 0)
        }
    }

    /// A console gives up on a stopped target's events stream (after 10 s of silence); when the target goes on, the
    /// stream is found closed. Its session is not ended then (the console did not go away, the target did): it has its
    /// lease to come back, and holds its changes when it does (issue #28).
    @Test func aStreamLostWhileTheTargetWasStoppedLeavesTheSessionItsLease() async throws {
        try await Self.withLeaseTarget { target, clock in
            var client = target.client()
            let session = try await client.openSession(SessionRequest(name: "console", lease: 10)).id
            client.session = session
            try await client.apply("return(8)", to: "t.count")
            try await target.openStream(session: session)
            #expect(target.handler.sessions.map(\.streams) == [1])

            let reports = target.registry.eventStream()
            clock.advance(by: .seconds(25))  // stopped; meanwhile the console gave up on its stream
            target.closeStream(session: session)
            let lost = await firstEvent(in: reports) { $0.kind == .report && $0.source == "console (s1)" }
            #expect(
                lost?.message
                    == "console (s1) lost its events stream after the target was paused for 25 s; "
                    + "it has its lease (10 s) to come back")
            #expect(target.count() == 8)
            #expect(target.handler.sessions.map(\.streams) == [0])

            // It comes back within its lease, renews the session and holds it again.
            Self.run(target, clock, for: .seconds(9))
            #expect(try await client.renew(session).id == session)
            try await target.openStream(session: session)
            #expect(target.handler.sessions.map(\.streams) == [1])
            Self.run(target, clock, for: .seconds(20))
            #expect(target.count() == 8)

            // Gone for good, long after the pause: the session ends as the stream closes.
            let gone = target.registry.eventStream()
            target.closeStream(session: session)
            let ended = await firstEvent(in: gone) { $0.kind == .report && $0.source == "console (s1)" }
            #expect(ended?.message == "console (s1) ended: its events stream closed; reverted 1 change")
            #expect(target.count() == 0)
        }
    }

    /// One that does not come back within its lease after the pause is ended then, and its changes reverted.
    @Test func aStreamLostInAPauseWhoseClientNeverReturnsLapses() async throws {
        try await Self.withLeaseTarget { target, clock in
            var client = target.client()
            let session = try await client.openSession(SessionRequest(name: "console", lease: 10)).id
            client.session = session
            try await client.apply("return(8)", to: "t.count")
            try await target.openStream(session: session)

            let reports = target.registry.eventStream()
            clock.advance(by: .seconds(25))
            target.closeStream(session: session)
            _ = await firstEvent(in: reports) { $0.kind == .report && $0.source == "console (s1)" }
            #expect(target.count() == 8)
            let later = target.registry.eventStream()
            Self.run(target, clock, for: .seconds(11))
            let ended = await firstEvent(in: later) { $0.kind == .report && $0.source == "console (s1)" }
            #expect(ended?.message == "console (s1) ended: its lease lapsed; reverted 1 change")
            #expect(target.count() == 0)
        }
    }

    @Test func aLeaseOutOfRangeIsRefused() async throws {
        try await withAPI { target in
            for lease in [0, -1, 86_401] as [Double] {
                let refused = try #require(
                    await refusal { try await target.client().openSession(SessionRequest(lease: lease)) })
                #expect(refused.status == 400)
                #expect(refused.body.error == "invalid lease")
            }
            #expect(target.handler.sessions.isEmpty)
        }
    }
}
