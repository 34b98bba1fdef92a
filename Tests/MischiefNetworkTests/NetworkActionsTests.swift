import Foundation
import Mischief
import MischiefNetwork
import Testing

/// The network seam's spec actions: what consoles list, canonical forms, nudging and errors.
@Suite struct NetworkActionsTests {
    @Test func theSeamOffersTheNetworkActionsFirst() throws {
        let f = try NetworkFixture()
        let actions = try #require(f.registry.actions(for: f.id))
        #expect(
            actions.map(\.name) == [
                "respond", "offline", "timeout", "dns", "reset", "latency", "delay", "bandwidth", "off", "pause", "log",
                "crash", "seq",
            ])
        #expect(actions.allSatisfy { !$0.summary.isEmpty })
        let main = Dictionary(uniqueKeysWithValues: actions.map { ($0.name, $0.mainParameter?.name) })
        #expect(main["respond"] == .some(nil))  // a status is typed, not nudged
        #expect(main["timeout"] == "after")
        #expect(main["latency"] == "duration")
        #expect(main["bandwidth"] == "kbps")
    }

    @Test(arguments: [
        (
            #"respond(url: "weather", status: 200, body: "{\"temp\": 21}")"#,
            #"respond(body: "{\"temp\": 21}", url: "weather")"#
        ),
        (
            #"respond(503, headers: {"Retry-After": "5"}, host: "api.example.com")"#,
            #"respond(503, headers: {"Retry-After": "5"}, host: "api.example.com")"#
        ),
        (#"50% offline(host: "api.example.com")"#, #"50%offline(host: "api.example.com")"#),
        ("3*timeout(after: 5s) -> off", "3*timeout(5s) -> off"),
        ("latency(2s, jitter: 0s) + bandwidth(64.0)", "latency(2s) + bandwidth(64)"),
        (
            #"respond(body: {"a": [1, 2]}) + delay(1s, method: "POST")"#,
            #"respond(body: {"a": [1, 2]}) + delay(1s, method: "POST")"#
        ),
    ])
    func specsPrintBackInCanonicalForm(spec: String, canonical: String) throws {
        let f = try NetworkFixture()
        #expect(try f.registry.canonical(spec: spec, for: f.id) == canonical)
        #expect(try f.registry.canonical(spec: canonical, for: f.id) == canonical)
    }

    @Test func theMainParameterNudges() throws {
        let f = try NetworkFixture()
        let actions = try #require(f.registry.actions(for: f.id))
        func nudged(_ text: String, by steps: Int) throws -> String? {
            try Spec(parsing: text).alternatives[0].terms[0].nudged(by: steps, signatures: actions)?.description
        }
        #expect(try nudged("latency(2s)", by: 1) == "latency(2100ms)")
        // A status has no step: 200 + 1 step was 300, a redirect the app read as `HTTP 300`.
        #expect(try nudged(#"respond(200, url: "x")"#, by: 1) == nil)
        #expect(try nudged(#"respond(body: "x")"#, by: 1) == nil)
        #expect(try nudged("bandwidth(64)", by: -1) == "bandwidth(48)")
        #expect(try nudged("timeout", by: 2) == "timeout(2s)")
    }

    @Test(arguments: [
        (#"respond(url: "(")"#, "url", "not a valid regular expression"),
        (#"offline(header: "Accept: [")"#, "header", "not a valid regular expression"),
        ("respond(700)", "700", "between 100 and 599"),
        (#"respond(file: "/nonexistent/mischief.json")"#, "file", "cannot read '/nonexistent/mischief.json'"),
        (#"respond(body: "x", file: "/etc/hostname")"#, "file", "either 'body' or 'file'"),
        (#"respond(headers: {"X": [1]})"#, "headers", "needs a string or a number"),
        ("bandwidth(0)", "0", "above 0 kbps"),
        ("latency(-1s)", "-1s", "cannot be negative"),
        ("respond(200) + offline", "offline", "both make the value"),
    ])
    func badSpecsSayWhereAndWhy(spec: String, at: String, message: String) throws {
        let f = try NetworkFixture()
        let error = #expect(throws: MischiefError.self) { try f.registry.canonical(spec: spec, for: f.id) }
        guard case .invalidSpec(_, let specError)? = error else {
            Issue.record("expected an invalid spec, got \(String(describing: error))")
            return
        }
        #expect(specError.message.contains(message))
        let column = try #require(spec.range(of: at)).lowerBound.utf16Offset(in: spec) + 1
        #expect(specError.column == column)
    }

    @Test func aProfileFileReadsWell() throws {
        let f = try NetworkFixture()
        let profile = Profile(
            name: "Flaky API", seed: 42,
            entries: [
                .init(seam: f.id, spec: #"50% offline(host: "api.example.com") -> latency(300ms, jitter: 100ms)"#)
            ])
        #expect(f.registry.problems(in: profile).isEmpty)
        try f.registry.define(profile)
        try f.registry.apply(profile: "Flaky API")
        let behaviour = f.registry.snapshot().seam(f.id)?.behaviourText
        #expect(behaviour == #"50%offline(host: "api.example.com") -> latency(300ms, jitter: 100ms)"#)
    }
}
