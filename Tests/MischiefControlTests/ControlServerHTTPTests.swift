import Foundation
import Mischief
import MischiefControl
import Testing

/// The API as raw bytes on the socket: every bad request gets a JSON error with its status, and nothing a client
/// sends stops the server from answering the next one.
@Suite(.timeLimit(.minutes(1))) struct ControlServerHTTPTests {
    /// Checks that the server still answers a plain request.
    static func expectAnswers(_ target: TestTarget, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let response = try await target.raw.request("GET", "/v1/target")
        #expect(response.status == 200, sourceLocation: sourceLocation)
        let info = try JSONDecoder().decode(TargetHeader.self, from: response.body)
        #expect(info.name == "test", sourceLocation: sourceLocation)
    }

    @Test func aBodyOverTheLimitIs413AndTheServerAnswersTheNextRequest() async throws {
        try await withTarget { target in
            // Only the head and a few bytes are sent: the server must refuse on the declared length.
            let response = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "application/json"], body: Data("{\"spe".utf8),
                contentLength: 5_000_000)
            #expect(response.status == 413)
            #expect(response.error?.error == "body too large")
            #expect(response.headers["connection"] == "close")
            try await Self.expectAnswers(target)
        }
    }

    @Test func aGarbageRequestLineGetsTheConnectionClosedAndTheServerCarriesOn() async throws {
        try await withTarget { target in
            let answer = try await target.raw.exchange(Data("GARBAGE\r\n\r\n".utf8))
            // FlyingFox closes a connection it cannot frame; any answer it gives must not be a success.
            if !answer.isEmpty { #expect(try RawHTTPClient.parse(answer).status >= 400) }
            let binary = try await target.raw.exchange(Data((0..<256).map { UInt8($0) }))
            if !binary.isEmpty { #expect(try RawHTTPClient.parse(binary).status >= 400) }
            try await Self.expectAnswers(target)
        }
    }

    @Test func aHalfClosedClientDoesNotStopTheServer() async throws {
        try await withTarget { target in
            let half = try await target.raw.exchange(Data("GET /v1/tar".utf8), halfClose: true)
            #expect(half.isEmpty)
            // A head that promises a body that never comes.
            let head = "PUT /v1/seams/t.count HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nret"
            let short = try await target.raw.exchange(Data(head.utf8), halfClose: true)
            if !short.isEmpty { #expect(try RawHTTPClient.parse(short).status >= 400) }
            #expect(target.count() == 0)
            try await Self.expectAnswers(target)
        }
    }

    @Test func theEventsStreamAsBytesStartsWithHello() async throws {
        try await withTarget { target in
            let request = "GET /v1/events HTTP/1.1\r\nHost: mischief\r\nMischief-API: 1\r\n\r\n"
            let bytes = try await target.raw.exchange(Data(request.utf8), halfClose: false, until: "\n\n")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200"))
            #expect(text.contains("Content-Type: text/event-stream"))
            #expect(text.contains("Transfer-Encoding: chunked"))
            #expect(text.contains("event: hello\ndata: {"))
            #expect(text.contains("\"name\":\"test\""))
        }
    }

    /// On a Unix socket the answer survives the close, so a refused client is closed at once rather than read on.
    @Test func aRefusedClientOnTheUnixSocketIsClosedAtOnceNotReadFurther() async throws {
        try await withTarget { target in
            let path = target.socketPath
            let (status, stillRead) = try await AttackSocket.onThread {
                let socket = try AttackSocket(path: path)
                socket.send("GET /v1/target HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 20_000))\r\n\r\n")
                let answer = socket.receive()
                return (AttackSocket.status(answer.bytes), socket.send("more"))
            }
            #expect(status == 431)
            #expect(!stillRead, "the server kept reading after its answer")
            try await Self.expectAnswers(target)
        }
    }
}
