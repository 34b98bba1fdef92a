import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// Every number that arrives from a client is range-checked into a 400 naming its field, before it becomes a
/// `Duration` or an integer; nothing a client sends traps the target.
@Suite(.timeLimit(.minutes(1))) struct ControlAPINumberTests {
    static func post(_ target: APITarget, _ path: String, _ json: String) async throws -> RawHTTPClient.Response {
        try await target.raw.request(
            "POST", path, headers: ["Content-Type": "application/json", "Mischief-API": "1"], body: Data(json.utf8))
    }

    @Test func anAdvanceTooLargeForADurationIs400NamingSeconds() async throws {
        try await withAPI(configure: { $0.advance = { _ in true } }) { target in
            for seconds in ["2e20", "1e300", "-5", "0", "1e10"] {
                let response = try await Self.post(target, "/v1/time/advance", "{\"seconds\": \(seconds)}")
                #expect(response.status == 400, "seconds \(seconds)")
                #expect(response.error?.error == "invalid duration", "seconds \(seconds)")
                #expect(response.error?.detail.hasPrefix("seconds must be") == true, "\(response.error?.detail ?? "")")
            }
            let fine = try await Self.post(target, "/v1/time/advance", "{\"seconds\": 3600}")
            #expect(fine.status == 200)
            try await ControlAPIRouteTests.expectAnswers(target)
        }
    }

    @Test func aLeaseOutOfRangeIs400NamingLease() async throws {
        try await withAPI { target in
            for lease in ["2e20", "-1", "0", "86401"] {
                let response = try await Self.post(target, "/v1/sessions", "{\"lease\": \(lease)}")
                #expect(response.status == 400, "lease \(lease)")
                #expect(response.error?.detail.hasPrefix("lease must be") == true, "\(response.error?.detail ?? "")")
            }
            #expect(try await Self.post(target, "/v1/sessions", "{\"lease\": 0.5}").status == 201)
        }
    }

    @Test func queryNumbersThatAreNotWholeNumbersInRangeAre400NamingTheParameter() async throws {
        try await withAPI { target in
            let cases = [
                ("since=abc", "since"), ("since=-1", "since"), ("since=99999999999999999999", "since"),
                ("after=x", "after"), ("after=-3", "after"), ("since=5&after=1e3", "after"),
            ]
            for (query, field) in cases {
                let response = try await target.raw.request("GET", "/v1/changes?\(query)")
                #expect(response.status == 400, "\(query)")
                #expect(response.error?.detail.hasPrefix("\(field) must be a whole number") == true, "\(query)")
            }
            #expect(try await target.raw.request("GET", "/v1/changes?since=5&after=0").status == 200)
        }
    }

    /// Found by the api-json fuzzer: a query pair with nothing before its `=` trapped the query parser.
    @Test func queryPairsWithEmptyNamesOrValuesAreHarmless() async throws {
        try await withAPI { target in
            for query in ["=", "==", "=x", "&=&", "since=", "after=&since=3", "a==b"] {
                let response = try await target.raw.request("GET", "/v1/changes?\(query)")
                #expect(response.status == 200 || response.status == 400, "\(query): \(response.status)")
            }
            try await ControlAPIRouteTests.expectAnswers(target)
        }
    }

    @Test func secondsConvertBothWaysAndRefuseWhatADurationCannotHold() throws {
        let range = Seconds.positive(upTo: 100)
        #expect(try Seconds.duration(1.5, field: "x", within: range) == .milliseconds(1500))
        #expect(Duration.milliseconds(250).seconds == 0.25)
        for bad in [Double.nan, .infinity, -.infinity, 2e20, 0, -1, 101] {
            #expect(throws: OutOfRange.self) { try Seconds.duration(bad, field: "x", within: range) }
        }
        // More than 0 but less than a nanosecond would be a duration of nothing (issue #28).
        for tiny in [1e-300, 4e-10, Double.leastNonzeroMagnitude] {
            let error = #expect(throws: OutOfRange.self) { try Seconds.duration(tiny, field: "seconds", within: range) }
            #expect(error?.description.contains("less than a nanosecond") == true)
        }
        #expect(try Seconds.duration(1e-9, field: "x", within: range) == .nanoseconds(1))
        #expect(throws: OutOfRange.self) { try Seconds.integer("12", field: "n", within: 0...10) }
        #expect(try Seconds.integer("7", field: "n", within: 0...10) == 7)
    }
    @Test func aRecordingWithANumberOutOfRangeIs400NamingItsLineAndKey() async throws {
        try await withAPI { target in
            let header = Recording.Header(
                target: "t", pid: 1, sessionSeed: 7, started: 1_000,
                seams: [Recording.Header.Seam(id: "t.count", title: "Count", actions: ["return"])])
            let lines = [
                #"{"event":1,"kind":"applied","seam":"t.count","message":"m","time":0,"wall":1e300,"spec":"return(1)"}"#,
                #"{"event":1,"kind":"report","message":"m","time":0,"wall":1000,"advanced":1e16}"#,
                #"{"kind":"decision","seam":"t.count","call":-9223372036854775808,"outcome":"dropped","after":1}"#,
            ]
            for line in lines {
                let body = Recording(header: header, entries: []).jsonLines + line + "\n"
                let response = try await target.raw.request(
                    "POST", "/v1/replay", headers: ["Mischief-API": "1"], body: Data(body.utf8))
                #expect(response.status == 400, "\(line)")
                #expect(response.error?.error == "invalid recording", "\(line)")
                #expect(response.error?.detail.hasPrefix("line 2: ") == true, "\(response.error?.detail ?? "")")
            }
            try await ControlAPIRouteTests.expectAnswers(target)
        }
    }
}
