import Foundation
import Mischief
import MischiefControl
import Testing

/// Sessions held by events streams over the socket: a stream that closes ends its session, and a server that stops
/// ends them all without reverting.
@Suite(.timeLimit(.minutes(1))) struct ControlServerSessionStreamTests {
    @Test func closingTheEventsStreamThatHoldsASessionEndsItAndReverts() async throws {
        // A short heartbeat, so the server finds the closed connection soon after it goes.
        try await withTarget(configure: { $0.heartbeat = .milliseconds(20) }) { target in
            var client = target.client()
            let session = try await client.openSession(SessionRequest(name: "watcher"))
            client.session = session.id
            try await client.apply("return(6)", to: "t.count")
            let reports = target.registry.eventStream()

            let (greetings, greeted) = AsyncStream<StreamHello>.makeStream()
            let holder = client
            let reader = Task {
                // If the stream fails before its greeting, the wait below ends with the error, not at the time limit.
                defer { greeted.finish() }
                for try await message in holder.events() {
                    if case .hello(let hello) = message { greeted.yield(hello) }
                }
            }
            var hellos = greetings.makeAsyncIterator()
            let hello = await hellos.next()
            if hello == nil { Issue.record("the events stream ended before its greeting: \(await reader.result)") }
            #expect(hello?.session == session.id)
            #expect(target.server.sessions.map(\.streams) == [1])
            #expect(target.count() == 6)

            reader.cancel()
            let ended = await firstEvent(in: reports) { $0.kind == .report && $0.source == "watcher (s1)" }
            #expect(ended?.message == "watcher (s1) ended: its events stream closed; reverted 1 change")
            #expect(target.count() == 0)
            #expect(target.server.sessions.isEmpty)
        }
    }
}

/// What stopping the server does to sessions.
@Suite(.timeLimit(.minutes(1))) struct ControlServerStopTests {
    @Test func stoppingTheServerKeepsWhatSessionsChangedEvenWhileAStreamHoldsOne() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let target = try TestTarget(directory: directory)
        try await target.server.start()
        var client = target.client()
        client.session = try await client.openSession(SessionRequest(name: "console")).id
        try await client.apply("return(6)", to: "t.count")
        var messages = client.events().makeAsyncIterator()
        guard case .hello = try await messages.next() else {
            Issue.record("the first message is not hello")
            return
        }
        let reports = target.registry.eventStream()
        await target.server.stop()
        let ended = await firstEvent(in: reports) { $0.kind == .report }
        #expect(ended?.message == "console (s1) ended: the control server stopped; its changes stay")
        // The stream ends once the server has stopped; the change is still there after it.
        do {
            while try await messages.next() != nil {}
        } catch {}
        #expect(target.server.sessions.isEmpty)
        #expect(target.count() == 6)
    }
}
