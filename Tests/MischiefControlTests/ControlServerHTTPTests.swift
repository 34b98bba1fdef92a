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
        let info = try JSONDecoder().decode(TargetInfo.self, from: response.body)
        #expect(info.name == "test", sourceLocation: sourceLocation)
    }

    @Test func aPlainRequestGetsJSON() async throws {
        try await withTarget { target in
            let response = try await target.raw.request("GET", "/v1/seams")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            let seams = try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]]
            #expect(seams?.compactMap { $0["id"] as? String } == ["t.count", "t.name"])
        }
    }

    @Test func aSpecSentAsTextOrAsAFormIsApplied() async throws {
        try await withTarget { target in
            let text = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "text/plain"], body: Data("return(2)\n".utf8))
            #expect(text.status == 200)
            #expect(target.count() == 2)
            let form = try await target.raw.request(
                "PUT", "/v1/seams/t.name", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("spec=return(%22Bo%22)".utf8))
            #expect(form.status == 200)
            #expect(target.name() == "Bo")
        }
    }

    @Test func malformedJSONIs400WithAnErrorAndADetail() async throws {
        try await withTarget { target in
            let response = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "application/json"],
                body: Data("{\"spec\": ".utf8))
            #expect(response.status == 400)
            #expect(response.headers["content-type"] == "application/json")
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(object["error"] as? String == "malformed JSON")
            #expect((object["detail"] as? String)?.isEmpty == false)

            let wrongType = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "application/json"],
                body: Data("{\"spec\": 3}".utf8))
            #expect(wrongType.status == 400)
            #expect(wrongType.error?.detail == "'spec' should be String")
            #expect(target.count() == 0)
        }
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

    @Test func anUnsupportedContentTypeIs415() async throws {
        try await withTarget { target in
            let response = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "image/png"],
                body: Data([0x89, 0x50, 0x4E, 0x47]))
            #expect(response.status == 415)
            #expect(response.error?.error == "unsupported media type")
            #expect(response.error?.detail.hasPrefix("image/png is not accepted here") == true)
        }
    }

    @Test func anUnknownRouteIs404AndAWrongMethodIs405() async throws {
        try await withTarget { target in
            for path in ["/v1/nothing", "/", "/favicon.ico", "/v1/seams/t.count/extra/parts"] {
                let response = try await target.raw.request("GET", path)
                #expect(response.status == 404, "\(path)")
                #expect(response.error?.error == "unknown route", "\(path)")
            }
            let wrongMethod = try await target.raw.request("PATCH", "/v1/target")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.error?.error == "method not allowed")
        }
    }

    @Test func anotherAPIVersionIs426() async throws {
        try await withTarget { target in
            let path = try await target.raw.request("GET", "/v2/target")
            #expect(path.status == 426)
            #expect(path.error?.error == "incompatible API version")
            #expect(path.error?.detail.contains("asked for v2") == true)
            let header = try await target.raw.request("GET", "/v1/target", headers: ["Mischief-API": "2"])
            #expect(header.status == 426)
            let matching = try await target.raw.request("GET", "/v1/target", headers: ["Mischief-API": "1"])
            #expect(matching.status == 200)
        }
    }

    /// A version header that is not a whole number is no version this target speaks: 426, not v1 (issue #28).
    @Test(arguments: ["abc", "1x", "1.0", "", " ", "+1", "01x"])
    func anUnparseableVersionHeaderIs426(_ value: String) async throws {
        try await withTarget { target in
            let response = try await target.raw.request("GET", "/v1/target", headers: ["Mischief-API": value])
            #expect(response.status == 426, "Mischief-API: '\(value)'")
        }
    }

    /// The API reads a spec's text as `mischief spec check` does: only spaces, tabs and line breaks around it are
    /// dropped, so a zero-width or no-break space is refused by both (issue #28).
    @Test(arguments: ["off\u{200B}", "\u{200B}off", "off\u{00A0}", "\u{FEFF}off", "off\u{3000}"])
    func unicodeSpaceAroundASpecIsRefusedAsTheParserRefusesIt(_ spec: String) async throws {
        try await withTarget { target in
            let response = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "text/plain"], body: Data(spec.utf8))
            #expect(response.status == 400, "\(spec.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(throws: SpecError.self) { try Spec(parsing: spec) }
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
