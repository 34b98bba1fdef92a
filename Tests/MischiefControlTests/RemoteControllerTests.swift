import Foundation
import Mischief
import MischiefAttach
import MischiefConsole
import NIOCore
import Testing

@testable import MischiefControl

/// The console's remote controller: updates pushed from the events stream, every command answered with a generation
/// whose data shows it, a session held while connected, the last data kept while the target is gone, a new session
/// when the same target (or a restart of it) is back, and never a session on another program.
@Suite(.timeLimit(.minutes(1))) struct RemoteControllerTests {
    /// A console's controller attached to `target` (session "console"), its follower, and the first data it showed
    /// with the target's seams.
    static func attach(to target: TestTarget) async throws -> (RemoteController, Follower, ConsoleData) {
        let remote = RemoteController(
            socketPath: target.socketPath, sessionName: "console", saveDirectory: URL(fileURLWithPath: "/nonexistent"))
        let follower = Follower(remote)
        let data = try await follower.until("the target") { !$0.seams.isEmpty }
        return (remote, follower, data)
    }

    @Test func updatesShowTheTargetAndHoldASession() async throws {
        try await withTarget { target in
            let (remote, follower, data) = try await Self.attach(to: target)
            #expect(data.connection == .connected)
            #expect(data.target.name == "test")
            #expect(data.seams.map(\.id) == ["t.count", "t.name"])
            guard case .reset = follower.updates.first else {
                Issue.record("the first update was not everything: \(follower.updates)")
                return
            }
            #expect(target.server.sessions.map(\.name) == ["console (s1)"])
            #expect(remote.session == "s1")

            let generation = try await remote.apply("return(12)", to: "t.count")
            #expect(target.count() == 12)
            #expect(try await target.client().seam("t.count").layers.map(\.session) == ["s1"])
            let shown = try await follower.reached(generation)
            #expect(shown.seams.first { $0.id == "t.count" }?.behaviourText == "return(12)")

            await remote.close()
            #expect(target.count() == 0)
            #expect(target.server.sessions.isEmpty)
        }
    }

    /// Every command answers with a generation, and the data of that generation shows what it did: nothing waits for
    /// the stream's next batch or a settle timer (this took 30–60 s in a full run when a load waited for a message).
    @Test func eachAnswersGenerationShowsWhatTheCommandDid() async throws {
        try await withTarget { target in
            let (remote, follower, _) = try await Self.attach(to: target)
            var last: UInt64 = 0
            for value in 1...20 {
                let generation = try await remote.apply("return(\(value))", to: "t.count")
                #expect(generation > last)
                last = generation
                let data = try await follower.reached(generation)
                #expect(data.seams.first { $0.id == "t.count" }?.behaviourText == "return(\(value))")
            }
            let reverted = try await remote.revert("t.count")
            #expect(try await follower.reached(reverted).seams.first { $0.id == "t.count" }?.behaviourText == nil)
            await remote.close()
        }
    }

    /// An attached console's commands go on one kept connection: attaching opens two (the commands' and the events
    /// stream's), and twenty commands after it open none (each opened one, on a thread of its own, before).
    @Test func aConsolesCommandsGoOnOneConnection() async throws {
        try await withTarget { target in
            let (remote, follower, _) = try await Self.attach(to: target)
            let attached = await target.server.acceptedConnections()
            #expect(attached == 2, "attaching took \(attached) connections")
            for value in 1...20 {
                let generation = try await remote.apply("return(\(value))", to: "t.count")
                try await follower.reached(generation)
            }
            try await remote.revert("t.count")
            #expect(target.count() == 0)
            #expect(await target.server.acceptedConnections() == attached)
            await remote.close()
            #expect(await target.server.acceptedConnections() == attached)
            #expect(target.server.sessions.isEmpty)
        }
    }

    /// A command that changes nothing shown answers with a generation the console already has.
    @Test func aCommandThatChangedNothingShownAnswersWithWhatTheConsoleHas() async throws {
        try await withTarget { target in
            let (remote, follower, before) = try await Self.attach(to: target)
            let generation = try await remote.resetCounters("t.count")  // already zero
            #expect(try await follower.reached(generation).seams == before.seams)
            await remote.close()
        }
    }

    @Test func anAttachedConsoleSeesTheGuardsAndATrip() async throws {
        try await withTarget { target in
            let (remote, follower, _) = try await Self.attach(to: target)
            let health = Seam<Void, Bool, Never>("t.health", title: "Health", category: "Test", summary: "") { false }
            try target.registry.register(health)
            try await target.client().apply("return(5)", to: "t.count")
            try await target.client().addGuard("check(t.health)")
            target.registry.checkGuards()
            let data = try await follower.until("the guard tripped") { data in
                data.guards.first?.isTripped == true && data.events.contains { $0.kind == .guardTripped }
            }
            #expect(data.guards.map(\.id) == [1])
            #expect(data.seams.first { $0.id == "t.count" }?.behaviourText == nil)
            await remote.close()
        }
    }

    @Test func anAttachedConsolesTTLIsKeptByTheTarget() async throws {
        try await withTarget { target in
            let (remote, follower, _) = try await Self.attach(to: target)
            try await remote.apply("return(12)", to: "t.count")
            let answer = await ConsoleCommand.setTTL(seam: "t.count", ttl: .seconds(30)).perform(with: remote)
            #expect(answer?.result == .success(nil))
            #expect(target.registry.snapshot().seam("t.count")?.layers.last?.ttl == .seconds(30))
            // The data of the answer's generation carries the deadline, from which the console counts down.
            let data = try await follower.reached(answer?.generation ?? .max)
            let expiresAt = try #require(data.seams.first { $0.id == "t.count" }?.layers.last?.expiresAt)
            #expect(expiresAt > data.target.uptime)
            let refused = await ConsoleCommand.setTTL(seam: "t.name", ttl: .seconds(30)).perform(with: remote)
            guard case .failure(let message) = refused?.result else {
                Issue.record(
                    "setting a ttl on a seam with nothing applied was not refused: \(String(describing: refused))")
                return
            }
            #expect(message.contains("nothing is applied"))
        }
    }

    @Test func aStoppedTargetIsLostWithTheLastDataAndTheSameTargetIsReattached() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let first = try TestTarget(directory: directory)
        try await first.server.start()
        let remote = RemoteController(
            socketPath: directory.socketPath, sessionName: "console",
            saveDirectory: URL(fileURLWithPath: directory.path), retry: .milliseconds(20))
        let follower = Follower(remote)
        let connected = try await follower.until("the target") { !$0.seams.isEmpty }
        _ = first.count()

        await first.server.stop()
        // The console learns it from its events stream ending, a moment after the server has stopped.
        let lost = try await follower.until("the target lost") { $0.connection != .connected }
        guard case .lost(let reason) = lost.connection else {
            Issue.record("expected a lost connection, got \(lost.connection)")
            return
        }
        // Short: the header has little room.
        #expect(reason.hasPrefix("no answer (") || reason.contains("closed"), "\(reason)")
        // The last data the events stream brought, actions kept.
        #expect(lost.target.pid == connected.target.pid && lost.target.name == connected.target.name)
        #expect(lost.seams.map(\.id) == connected.seams.map(\.id))
        #expect(lost.seams.map(\.actions) == connected.seams.map(\.actions) && !connected.seams[0].actions.isEmpty)
        await #expect(throws: ConsoleError.self) { try await remote.apply("return(2)", to: "t.count") }

        // The same target back on its path: a new session, the console carries on by itself.
        try await first.server.start()
        try await follower.until("the target again") { $0.connection == .connected }
        #expect(first.server.sessions.map(\.name) == ["console (s2)"])  // the same server: its next session
        let generation = try await remote.apply("return(3)", to: "t.count")
        #expect(first.count() == 3)
        #expect(try await follower.reached(generation).seams.first?.behaviourText == "return(3)")
        await first.server.stop()
        try await follower.until("the target lost again") { $0.connection != .connected }

        // Another program on the same path is never attached to: the target is gone, and the live ones are named.
        let second = try TestTarget(directory: directory) { $0.name = "other" }
        try await second.server.start()
        let other = try await follower.until("that the target is gone") {
            if case .lost(let why) = $0.connection { why.hasPrefix("target gone") } else { false }
        }
        guard case .lost(let why) = other.connection else { return }
        #expect(why == "target gone (test pid \(getpid())); live: t", "\(why)")
        #expect(second.server.sessions.isEmpty)
        await #expect(throws: ConsoleError.self) { try await remote.apply("return(4)", to: "t.count") }
        #expect(second.count() == 0)
        await remote.close()
        await second.server.stop()
    }

    /// A target stopped (SIGSTOP) long enough for the console to give up on its events stream: when it goes on, the
    /// console comes back to its own session, and what it applied stays applied (issue #28: it was reverted, and the
    /// console given a new session).
    @Test func aConsoleLostWhileTheTargetWasStoppedComesBackToItsSession() async throws {
        let clock = ManualClock()
        try await withTarget(configure: { $0.now = { clock.now } }) { target in
            let remote = RemoteController(
                socketPath: target.socketPath, sessionName: "console",
                saveDirectory: URL(fileURLWithPath: "/nonexistent"), retry: .milliseconds(20))
            let follower = Follower(remote)
            try await follower.until("the target") { !$0.seams.isEmpty }
            try await remote.apply("return(7)", to: "t.count")

            // The target slept 25 s; when it woke it found the console's stream closed (here the server closes it).
            clock.advance(by: .seconds(25))
            let server = target.server
            try await server.connections.loop.submit { server.feed.closeAll() }.get()
            // The server says what became of the session; the console sees it once attached again.
            let back = try await follower.until("the console attached again") { data in
                data.connection == .connected
                    && data.events.contains {
                        $0.message.hasPrefix("console (s1) lost") || $0.message.hasPrefix("console (s1) ended")
                    }
            }
            #expect(remote.session == "s1")
            #expect(server.sessions.map(\.name) == ["console (s1)"])
            #expect(target.count() == 7)
            #expect(back.seams.first { $0.id == "t.count" }?.behaviourText == "return(7)")
            await remote.close()
            #expect(target.count() == 0)
        }
    }

    /// A restarted program (the same name at the same path, a new instance) is attached to by itself; the console
    /// says so, and that what it had applied there is gone.
    @Test func aRestartedTargetIsReattachedAndTheConsoleSaysSo() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let first = try TestTarget(directory: directory)
        try await first.server.start()
        let remote = RemoteController(
            socketPath: directory.socketPath, sessionName: "console",
            saveDirectory: URL(fileURLWithPath: directory.path), retry: .milliseconds(20))
        let follower = Follower(remote)
        try await follower.until("the target") { !$0.seams.isEmpty }
        try await remote.apply("return(7)", to: "t.count")
        await first.server.stop()
        try await follower.until("the target lost") { $0.connection != .connected }

        let restarted = try TestTarget(directory: directory)
        try await restarted.server.start()
        let back = try await follower.until("the restarted target") { $0.connection == .connected }
        #expect(back.seams.first?.behaviourText == nil)
        #expect(restarted.server.sessions.map(\.name) == ["console (s1)"])
        let generation = try await remote.apply("return(8)", to: "t.count")
        #expect(restarted.count() == 8)
        #expect(try await follower.reached(generation).seams.first?.behaviourText == "return(8)")
        await remote.close()
        await restarted.server.stop()
    }

    @Test func theTargetAndTheStreamsHelloNameTheServersInstance() async throws {
        try await withTarget { target in
            let info = try await target.client().target()
            #expect(info.instance == target.server.instance)
            #expect(info.instance?.count == 16)
            for try await message in target.client().events() {
                guard case .hello(let hello) = message else { continue }
                #expect(hello.target.instance == target.server.instance)
                break
            }
            try await withTarget { other in #expect(other.server.instance != target.server.instance) }
        }
    }

    @Test func aRefusedChangeBecomesAConsoleError() async throws {
        try await withTarget { target in
            let remote = RemoteController(
                socketPath: target.socketPath, saveDirectory: URL(fileURLWithPath: "/nonexistent"))
            await #expect(throws: ConsoleError.self) { try await remote.apply("retrun(1)", to: "t.count") }
            await remote.close()
        }
    }

    @Test func nothingServingIsLostFromTheStart() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let remote = RemoteController(
            socketPath: directory.socketPath, saveDirectory: URL(fileURLWithPath: directory.path))
        let follower = Follower(remote)
        let data = try await follower.until("the target lost") { $0.connection != .connected }
        #expect(data.target.name == "no target")
        #expect(data.seams.isEmpty)
        await remote.close()
    }
}
