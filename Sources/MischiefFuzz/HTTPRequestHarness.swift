import Foundation
import Mischief
import NIOCore
import NIOEmbedded

@testable import MischiefControl

/// The control server's whole pipeline (request size limiter, NIO's HTTP/1 decoder, the connection handler and the routes) on
/// an `EmbeddedChannel`: raw bytes in as one connection's input, the answer out. Whatever comes in, the answer is
/// one HTTP/1.1 response with a status the API uses (never 500), or nothing and a closed connection.
///
/// Inputs that name `advance` are skipped: moving time hops off the event loop to the target's tasks, which an
/// `EmbeddedEventLoop` (single-threaded by contract) cannot take back; `api-json` covers that route's body.
let httpRequestHarness = FuzzHarness(name: "http-request", summary: "raw bytes through the control server's pipeline") {
    bytes in
    guard bytes.firstRange(of: Array("advance".utf8)) == nil else { return }
    let channel = EmbeddedChannel(loop: HTTPFuzzTarget.loop)
    do {
        try HTTPFuzzTarget.server.configure(channel, requiresToken: bytes.first.map { $0 & 1 == 1 } ?? false)
        try channel.writeInbound(ByteBuffer(bytes: bytes))
    } catch {
        fuzzCheck(false, "the pipeline threw \(error)")
    }
    HTTPFuzzTarget.loop.run()
    var answer: [UInt8] = []
    while let part = try? channel.readOutbound(as: ByteBuffer.self) { answer += part.readableBytesView }
    if !answer.isEmpty {
        let text = String(decoding: answer.prefix(16), as: UTF8.self)
        fuzzCheck(text.hasPrefix("HTTP/1.1 "), "an answer that is not HTTP/1.1: \(text)")
        let status = Int(text.dropFirst(9).prefix(3)) ?? 0
        fuzzCheck(HTTPFuzzTarget.statuses.contains(status), "status \(status)")
    }
    _ = try? channel.finish()
    HTTPFuzzTarget.loop.run()
    HTTPFuzzTarget.reset()
}

/// The target the HTTP harnesses serve: two seams, a profile, and a server on the fuzzer's own event loop.
enum HTTPFuzzTarget {
    static let loop = EmbeddedEventLoop()
    static let registry: Registry = {
        let registry = Registry(sessionSeed: 9)
        let count = Seam<Void, Int, Never>("f.count", title: "Count", category: "Fuzz", summary: "a number") { 0 }
        let name = Seam<Void, String, Never>("f.name", title: "Name", category: "Fuzz", summary: "a name") { "Ann" }
        try! registry.register(count, name)
        try! registry.define(Profile(name: "p", entries: [SeamSpec(seam: "f.count", spec: "return(2)")]))
        return registry
    }()
    static let server = ControlServer(
        registry: registry, options: ControlServer.Options(name: "fuzz", socketPath: "/nonexistent/f.sock"), loop: loop)
    /// Every status the API answers with.
    static let statuses: Set<Int> = [200, 201, 400, 401, 404, 405, 408, 409, 413, 415, 426, 431, 503]

    /// Takes back what an input changed, so inputs stay independent and memory bounded.
    static func reset() {
        registry.revertAll()
        let ended = (try? server.handler.withSessions { $0.endAll(reason: "fuzz") }) ?? []
        _ = ended
    }
}
