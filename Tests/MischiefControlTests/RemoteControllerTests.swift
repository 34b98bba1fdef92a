import Foundation
import Mischief
import MischiefAttach
import MischiefConsole
import MischiefControl
import Testing

/// The console's remote controller: a session held while it is connected, the last data kept while the target
/// is gone, a new session when the same target instance is back, and never a session on another process.
@Suite(.timeLimit(.minutes(1))) struct RemoteControllerTests {
    @Test func loadShowsTheTargetAndHoldsASession() async throws {
        try await withTarget { target in
            let remote = RemoteController(
                socketPath: target.socketPath, sessionName: "console",
                saveDirectory: URL(fileURLWithPath: "/nonexistent"))
            let data = try await remote.load()
            #expect(data.connection == .connected)
            #expect(data.target.name == "test")
            #expect(data.seams.map(\.id) == ["t.count", "t.name"])
            #expect(target.server.sessions.map(\.name) == ["console (s1)"])
            #expect(remote.session == "s1")

            try await remote.apply("return(12)", to: "t.count")
            #expect(target.count() == 12)
            #expect(try await target.client().seam("t.count").layers.map(\.session) == ["s1"])

            await remote.close()
            #expect(target.count() == 0)
            #expect(target.server.sessions.isEmpty)
        }
    }

    /// The load after a command shows what the command did: it waits for the stream's next message rather than
    /// handing back the copy from before the command.
    @Test func theLoadAfterACommandShowsWhatItDid() async throws {
        try await withTarget { target in
            let remote = RemoteController(
                socketPath: target.socketPath, sessionName: "console",
                saveDirectory: URL(fileURLWithPath: "/nonexistent"), settle: .seconds(30))
            _ = try await remote.load()
            for value in 1...5 {
                try await remote.apply("return(\(value))", to: "t.count")
                let data = try await remote.load()
                #expect(data.seams.first { $0.id == "t.count" }?.behaviour == "return(\(value))")
            }
            try await remote.revert("t.count")
            #expect(try await remote.load().seams.first { $0.id == "t.count" }?.behaviour == nil)
            await remote.close()
        }
    }

    /// A command that changes nothing shown: the load after it waits `settle`, no longer.
    @Test func aLoadAfterACommandThatChangedNothingShownEndsAfterSettle() async throws {
        try await withTarget { target in
            let remote = RemoteController(
                socketPath: target.socketPath, sessionName: "console",
                saveDirectory: URL(fileURLWithPath: "/nonexistent"), settle: .milliseconds(1))
            let before = try await remote.load()
            try await remote.resetCounters("t.count")  // already zero
            #expect(try await remote.load().seams == before.seams)
            await remote.close()
        }
    }

    @Test func anAttachedConsoleSeesTheGuardsAndATrip() async throws {
        try await withTarget { target in
            let remote = RemoteController(
                socketPath: target.socketPath, sessionName: "console",
                saveDirectory: URL(fileURLWithPath: "/nonexistent"))
            _ = try await remote.load()
            let health = Seam<Void, Bool, Never>("t.health", title: "Health", category: "Test", summary: "") { false }
            try target.registry.register(health)
            try await target.client().apply("return(5)", to: "t.count")
            try await target.client().addGuard("check(t.health)")
            target.registry.checkGuards()
            // The console's copy follows the events stream: wait (on what it shows, up to the suite's time limit)
            // until it carries the trip.
            var data = try await remote.load()
            while data.guards.first?.isTripped != true || !data.events.contains(where: { $0.kind == .guardTripped }) {
                try await Task.sleep(for: .milliseconds(20))
                data = try await remote.load()
            }
            #expect(data.guards.map(\.id) == [1])
            #expect(data.seams.first { $0.id == "t.count" }?.behaviour == nil)
            await remote.close()
        }
    }

    @Test func anAttachedConsolesTTLIsKeptByTheTarget() async throws {
        try await withTarget { target in
            let remote = RemoteController(
                socketPath: target.socketPath, sessionName: "console",
                saveDirectory: URL(fileURLWithPath: "/nonexistent"))
            try await remote.apply("return(12)", to: "t.count")
            let result = await ConsoleCommand.setTTL(seam: "t.count", ttl: .seconds(30)).perform(with: remote)
            #expect(result == .success(nil))
            #expect(target.registry.snapshot().seam("t.count")?.layers.last?.ttl == .seconds(30))
            // The console's copy follows the events stream: wait (on what it shows, up to the suite's time limit)
            // until it carries the deadline, from which the console counts down.
            var data = try await remote.load()
            while data.seams.first(where: { $0.id == "t.count" })?.layers.last?.expiresAt == nil {
                try await Task.sleep(for: .milliseconds(20))
                data = try await remote.load()
            }
            let expiresAt = try #require(data.seams.first { $0.id == "t.count" }?.layers.last?.expiresAt)
            #expect(expiresAt > data.target.uptime)
            let refused = await ConsoleCommand.setTTL(seam: "t.name", ttl: .seconds(30)).perform(with: remote)
            guard case .failure(let message) = refused else {
                Issue.record(
                    "setting a ttl on a seam with nothing applied was not refused: \(String(describing: refused))")
                return
            }
            #expect(message.contains("nothing is applied"))
        }
    }

    @Test func aStoppedTargetIsLostWithTheLastDataAndOnlyTheSameInstanceIsReattached() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let first = try TestTarget(directory: directory)
        try await first.server.start()
        let remote = RemoteController(
            socketPath: directory.socketPath, sessionName: "console",
            saveDirectory: URL(fileURLWithPath: directory.path))
        let connected = try await remote.load()
        #expect(connected.connection == .connected)
        _ = first.count()

        await first.server.stop()
        // The console learns it from its events stream ending, a moment after the server has stopped.
        let lost = try await Self.loadUntilLost(remote)
        guard case .lost(let reason) = lost.connection else {
            Issue.record("expected a lost connection, got \(lost.connection)")
            return
        }
        // Short: the header has little room.
        #expect(reason.hasPrefix("no answer (") && reason.contains("No such file"))
        // The last data the events stream brought (perhaps newer than the last load: counts move), actions kept.
        #expect(lost.target.pid == connected.target.pid && lost.target.name == connected.target.name)
        #expect(lost.seams.map(\.id) == connected.seams.map(\.id))
        #expect(lost.seams.map(\.actions) == connected.seams.map(\.actions) && !connected.seams[0].actions.isEmpty)
        let stillLost = try await remote.load()  // still lost, still the same data
        #expect(stillLost.connection != .connected)
        #expect(stillLost.seams == lost.seams)

        // The same target (the same server instance) back on its path: a new session, the console carries on.
        try await first.server.start()
        let back = try await remote.load()
        #expect(back.connection == .connected)
        #expect(first.server.sessions.map(\.name) == ["console (s2)"])  // the same server: its next session
        try await remote.apply("return(3)", to: "t.count")
        #expect(first.count() == 3)
        await first.server.stop()
        await remote.close()

        // Another process on the same path is never attached to: the target is gone, and the live ones are named.
        let second = try TestTarget(directory: directory)
        try await second.server.start()
        let other = try await remote.load()
        guard case .lost(let why) = other.connection else {
            Issue.record("attached to another target instance: \(other.connection)")
            await second.server.stop()
            return
        }
        #expect(why == "target gone (test pid \(getpid())); live: t", "\(why)")
        #expect(second.server.sessions.isEmpty)
        await #expect(throws: ConsoleError.self) { try await remote.apply("return(4)", to: "t.count") }
        #expect(second.count() == 0)
        await second.server.stop()
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
        let data = try await remote.load()
        guard case .lost = data.connection else {
            Issue.record("expected a lost connection, got \(data.connection)")
            return
        }
        #expect(data.target.name == "no target")
        #expect(data.seams.isEmpty)
    }

    /// Loads until the controller says the target is lost (its events stream has ended), for at most 10 s.
    static func loadUntilLost(_ remote: RemoteController) async throws -> ConsoleData {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let data = try await remote.load()
            if case .lost = data.connection { return data }
            if ContinuousClock.now > deadline { return data }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
