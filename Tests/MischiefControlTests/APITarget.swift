import Foundation
import Mischief
import Synchronization
import Testing

@testable import MischiefControl

/// A target of its own for one test of the routes, with no socket: a registry, the two seams of ``TestTarget`` and
/// the control API's handler, called in this process. Clients and raw requests go straight to the handler, so a
/// test of a route is neither slowed nor starved by a server's threads.
final class APITarget: Sendable {
    let registry = Registry(sessionSeed: 1)
    let count = Seam<Void, Int, Never>("t.count", title: "Count", category: "Test", summary: "a number") { 0 }
    let name = Seam<Void, String, Never>("t.name", title: "Name", category: "Test", summary: "a name") { "Ann" }
    let handler: ControlHandler
    private let observation = Mutex<Observation?>(nil)

    /// A target as a server with these options would serve it (it counts calls, as a server does by default).
    init(configure: (inout ControlServer.Options) -> Void = { _ in }) throws {
        try registry.register(count, name)
        var options = ControlServer.Options(name: "test", socketPath: "/nonexistent/t.sock")
        options.lease = .seconds(3_600)
        configure(&options)
        if options.allowCrash { registry.allowsCrash = true }
        handler = ControlHandler(
            registry: registry, options: options, socketPath: options.socketPath!, instance: "0123456789abcdef")
        if options.countsWhileServing { observation.withLock { $0 = registry.observe() } }
    }

    /// Stops counting calls (as a server that stops).
    func stop() {
        observation.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    func client(session: String? = nil) -> ControlClient {
        ControlClient(handler: handler, session: session)
    }

    var raw: InProcessHTTP { InProcessHTTP(handler: handler) }

    /// Opens an events stream holding `session`, as `GET /v1/events?session=ID` does before the transport sends
    /// `hello` (the transport's part, the messages, is tested over the socket).
    func openStream(session: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let request = APIRequest(method: .GET, uri: "/v1/events?session=\(session)")
        guard case .events(let held, _) = handler.respond(to: request), held == session else {
            Issue.record("no events stream for session \(session)", sourceLocation: sourceLocation)
            return
        }
    }

    /// Closes an events stream that holds `session`, as the transport does when its client goes away.
    func closeStream(session: String) {
        handler.streamClosed(session: session)
    }
}

/// Runs `body` against a target of its own whose API is called in process, then stops it.
func withAPI<R>(
    configure: (inout ControlServer.Options) -> Void = { _ in }, _ body: (APITarget) async throws -> R
) async throws -> R {
    let target = try APITarget(configure: configure)
    defer { target.stop() }
    return try await body(target)
}

/// ``RawHTTPClient``'s requests, answered by a handler in this process: any method, path, headers and body, as a
/// client that is not ``ControlClient`` sends them.
struct InProcessHTTP: Sendable {
    let handler: ControlHandler

    /// Answers one request; an events stream answers 200 with no body (its messages need the transport).
    func request(
        _ method: String, _ target: String, headers: [String: String] = [:], body: Data = Data()
    ) async throws -> RawHTTPClient.Response {
        var fields = [(name: "Host", value: "mischief"), (name: "Content-Length", value: String(body.count))]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.append((name: name, value: value)) }
        let request = APIRequest(method: APIMethod(method), uri: target, headers: fields, body: body)
        let response: APIResponse
        switch handler.respond(to: request) {
        case .answer(let answer): response = answer
        case .advance(let duration): response = handler.advanced(await handler.advance(by: duration))
        case .replay(let recording, let timeout): response = await handler.replay(recording, timeout: timeout)
        case .events: return RawHTTPClient.Response(status: 200, headers: [:], body: Data())
        }
        return RawHTTPClient.Response(
            status: response.status.code,
            headers: ["content-type": response.contentType, "content-length": String(response.body.count)],
            body: response.body)
    }
}
