import FlyingFox
import FlyingSocks
import Foundation
import Mischief
import MischiefConsole
import Synchronization

extension ControlServer {
    /// `GET /v1/events`: a server-sent events stream (`curl -N` shows it as it comes).
    ///
    /// Messages: `hello` (the target, the session held), then `event` (one per registry event, with its id) and
    /// `counters` (the seams whose counts or state changed), at most one batch per ``Options/updateInterval``,
    /// and a `: keep-alive` comment after ``Options/heartbeat`` of silence. Counting is on while a stream is open.
    /// A stream opened with a session holds it: when the stream closes, the session ends.
    func events(session: String?) throws(APIFailure) -> HTTPResponse {
        if let session {
            guard try withSessions({ $0.attachStream(session) }) else { throw Self.noSession(session) }
        }
        let source = EventStreamSource(server: self, session: session)
        return HTTPResponse(
            statusCode: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: HTTPBodySequence(from: EventStreamBody(source: source)))
    }

    /// A stream holding `session` closed.
    func streamClosed(session: String) {
        guard let ended = try? withSessions({ $0.detachStream(session) }) else { return }
        finish(ended)
    }
}

/// The bytes of one events stream, produced as the client reads them.
struct EventStreamBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let source: EventStreamSource

    func makeAsyncIterator() -> Iterator { Iterator(source: source) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let source: EventStreamSource

        mutating func next() async throws -> UInt8? {
            fatalError("the events stream is read in buffers: call nextBuffer(suggested:)")
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            try await source.next()
        }
    }
}

/// One stream's position in the event log and the counters it last sent; when the connection is gone and the
/// body is released, it lets go of the session and of counting.
final class EventStreamSource: Sendable {
    private let server: ControlServer
    private let session: String?
    private let observation: Observation
    private let position: Mutex<Position>

    private struct Position {
        var greeted = false
        var lastEvent: Int
        var counters: [SeamID: CounterUpdate] = [:]
        var silentSince: Duration
    }

    init(server: ControlServer, session: String?) {
        self.server = server
        self.session = session
        self.observation = server.registry.observe()
        let snapshot = server.registry.snapshot()
        self.position = Mutex(Position(lastEvent: snapshot.lastEventID, silentSince: server.options.now()))
    }

    deinit {
        observation.cancel()
        if let session { server.streamClosed(session: session) }
    }

    /// The next message, waiting until there is something to say; nil when the server stops.
    func next() async throws -> [UInt8]? {
        if position.withLock({ $0.greeted }) == false {
            let hello = StreamHello(target: server.targetInfo(), session: session)
            position.withLock { $0.greeted = true }
            return Self.message(event: "hello", id: nil, hello)
        }
        while true {
            guard !server.isStopped else { return nil }
            try await Task.sleep(for: server.options.updateInterval)
            let text = batch()
            if !text.isEmpty { return text }
        }
    }

    private func batch() -> [UInt8] {
        let registry = server.registry
        let snapshot = registry.snapshot()
        let now = server.options.now()
        let heartbeat = server.options.heartbeat
        return position.withLock { position in
            var out: [UInt8] = []
            for event in registry.events(after: position.lastEvent) {
                out += Self.message(event: "event", id: event.id, EventRow(event))
                position.lastEvent = event.id
            }
            var changed: [CounterUpdate] = []
            for seam in snapshot.seams {
                let update = CounterUpdate(seam)
                if position.counters[seam.id] != update {
                    position.counters[seam.id] = update
                    changed.append(update)
                }
            }
            if !changed.isEmpty { out += Self.message(event: "counters", id: nil, changed) }
            if out.isEmpty, now - position.silentSince >= heartbeat {
                out = Array(": keep-alive\n\n".utf8)
            }
            if !out.isEmpty { position.silentSince = now }
            return out
        }
    }

    static func message(event: String, id: Int?, _ value: some Encodable) -> [UInt8] {
        let data = (try? JSONEncoder.control.encode(value)) ?? Data("null".utf8)
        var text = "event: \(event)\n"
        if let id { text += "id: \(id)\n" }
        text += "data: \(String(decoding: data, as: UTF8.self))\n\n"
        return Array(text.utf8)
    }
}

extension CounterUpdate {
    init(_ seam: SeamSnapshot) {
        self.init(SeamRow(seam, actions: []))
    }
}
