import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// The routes as a client that is not ``ControlClient`` calls them, answered by the handler in process: every bad
/// request gets a JSON error with its status, and nothing a client sends stops the API from answering the next one.
@Suite(.timeLimit(.minutes(1))) struct ControlAPIRouteTests {
    /// Checks that the API still answers a plain request.
    static func expectAnswers(_ target: APITarget, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let response = try await target.raw.request("GET", "/v1/target")
        #expect(response.status == 200, sourceLocation: sourceLocation)
        let info = try JSONDecoder().decode(TargetHeader.self, from: response.body)
        #expect(info.name == "test", sourceLocation: sourceLocation)
    }

    /// `GET /v1/delta` is `GET /v1/changes`, by the glossary's name; `GET /v1/target` answers a header a plain
    /// decoder reads.
    @Test func theDeltaRouteIsTheChangesRoute() async throws {
        try await withAPI { target in
            let old = try await target.raw.request("GET", "/v1/changes?since=0")
            let new = try await target.raw.request("GET", "/v1/delta?since=0")
            #expect(old.status == 200 && new.status == 200)
            let first = try #require(try JSONSerialization.jsonObject(with: old.body) as? [String: Any])
            let second = try #require(try JSONSerialization.jsonObject(with: new.body) as? [String: Any])
            #expect(Set(first.keys) == Set(second.keys))
            let answer = try await target.raw.request("GET", "/v1/target")
            let header = try JSONDecoder().decode(TargetHeader.self, from: answer.body)
            #expect(header.apiVersion == ControlAPI.version && header.libraryVersion == ControlAPI.libraryVersion)
        }
    }

    @Test func aPlainRequestGetsJSON() async throws {
        try await withAPI { target in
            let response = try await target.raw.request("GET", "/v1/seams")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            let seams = try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]]
            #expect(seams?.compactMap { $0["id"] as? String } == ["t.count", "t.name"])
        }
    }

    @Test func aSpecSentAsTextOrAsAFormIsApplied() async throws {
        try await withAPI { target in
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
        try await withAPI { target in
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

    @Test func anUnsupportedContentTypeIs415() async throws {
        try await withAPI { target in
            let response = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "image/png"],
                body: Data([0x89, 0x50, 0x4E, 0x47]))
            #expect(response.status == 415)
            #expect(response.error?.error == "unsupported media type")
            #expect(response.error?.detail.hasPrefix("image/png is not accepted here") == true)
        }
    }

    @Test func anUnknownRouteIs404AndAWrongMethodIs405() async throws {
        try await withAPI { target in
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
        try await withAPI { target in
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
        try await withAPI { target in
            let response = try await target.raw.request("GET", "/v1/target", headers: ["Mischief-API": value])
            #expect(response.status == 426, "Mischief-API: '\(value)'")
        }
    }

    /// The API reads a spec's text as `mischief spec check` does: only spaces, tabs and line breaks around it are
    /// dropped, so a zero-width or no-break space is refused by both (issue #28).
    @Test(arguments: ["off\u{200B}", "\u{200B}off", "off\u{00A0}", "\u{FEFF}off", "off\u{3000}"])
    func unicodeSpaceAroundASpecIsRefusedAsTheParserRefusesIt(_ spec: String) async throws {
        try await withAPI { target in
            let response = try await target.raw.request(
                "PUT", "/v1/seams/t.count", headers: ["Content-Type": "text/plain"], body: Data(spec.utf8))
            #expect(response.status == 400, "\(spec.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(throws: SpecError.self) { try Spec(parsing: spec) }
        }
    }
}

/// `GET /v1/console` is deprecated: it answers on for /v1 clients, its numbers still checked, while the API's own users
/// read `GET /v1/changes` and the events stream.
@Suite(.timeLimit(.minutes(1))) struct DeprecatedConsoleRouteTests {
    @Test func theConsoleRouteStillAnswersV1Clients() async throws {
        try await withAPI { target in
            _ = try await target.client().apply("return(3)", to: "t.count")
            let response = try await target.raw.request("GET", "/v1/console?events=5")
            #expect(response.status == 200)
            let state = try JSONDecoder.control.decode(TargetState.self, from: response.body)
            #expect(state.seams.first { $0.id == "t.count" }?.behaviourText == "return(3)")
            #expect(state.events.contains { $0.kind == .applied && $0.seam == "t.count" })
            let bad = try await target.raw.request("GET", "/v1/console?events=abc")
            #expect(bad.status == 400)
            #expect(bad.error?.detail.hasPrefix("events must be a whole number") == true)
        }
    }
}
