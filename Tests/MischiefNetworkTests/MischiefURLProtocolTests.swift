import Foundation
import Mischief
import MischiefNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// URLSession requests answered, failed, slowed or passed through by rules.
@Suite struct MischiefURLProtocolTests {
    @Test func respondGivesStatusHeadersAndBody() async throws {
        let f = try NetworkFixture()
        try f.apply(#"respond(201, body: "hello", headers: {"X-Mood": "calm", "Retry-After": 5}, url: "greeting")"#)
        let (data, response) = try await f.get("/greeting?lang=en")
        #expect(response.statusCode == 201)
        #expect(String(decoding: data, as: UTF8.self) == "hello")
        #expect(response.value(forHTTPHeaderField: "X-Mood") == "calm")
        #expect(response.value(forHTTPHeaderField: "Retry-After") == "5")
        #expect(response.value(forHTTPHeaderField: "Content-Length") == "5")
    }

    @Test func jsonBodiesGetAJSONContentType() async throws {
        let f = try NetworkFixture()
        try f.apply(#"respond(url: "weather", status: 200, body: {"temp": 21})"#)
        let (data, response) = try await f.get("/v1/weather")
        #expect(String(decoding: data, as: UTF8.self) == #"{"temp": 21}"#)
        #expect(response.mimeType == "application/json")
    }

    @Test func bodyFromAFile() async throws {
        let f = try NetworkFixture()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-\(UUID()).json")
        let contents = #"{"city": "Zürich", "temp": -3}"#
        try contents.utf8Data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try f.apply(#"respond(file: "\#(file.path)", path: "/city")"#)
        let (data, response) = try await f.get("/city")
        #expect(data == contents.utf8Data)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test(arguments: [
        ("offline", URLError.Code.notConnectedToInternet), ("timeout", .timedOut), ("dns", .cannotFindHost),
        ("reset", .networkConnectionLost),
    ])
    func failuresBecomeURLErrors(action: String, code: URLError.Code) async throws {
        let f = try NetworkFixture()
        try f.apply("\(action)(path: \"/api/*\")")
        let error = try #require(await f.failure("/api/items"))
        #expect(error.code == code)
        #expect(error.failingURL == f.url("/api/items"))
    }

    @Test func unmatchedRequestsReachTheRealNetworkStack() async throws {
        let f = try NetworkFixture()
        try f.apply(#"offline(host: "api.example.com")"#)
        try f.apply(#"respond(500, path: "/other")"#)
        #expect(f.network.isActive)
        // Port 9 on loopback refuses the connection: only the real network stack says so.
        let error = try #require(await f.failure("/"))
        #expect(error.code == .cannotConnectToHost)
        #expect(f.reports.isEmpty)
    }

    @Test func passedThroughRequestsKeepTheirResponseAndBody() async throws {
        let f = try NetworkFixture()
        let server = try LoopbackServer()
        defer { server.stop() }
        try f.apply(#"respond(500, path: "/never")"#)
        var request = URLRequest(url: server.url("/echo"))
        request.httpMethod = "PUT"
        request.httpBody = "ping".utf8Data
        let (data, response) = try await f.load(request)
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "PUT /echo\nping")
        #expect(response.value(forHTTPHeaderField: "X-Echo-Mischief") == "absent")

        var upload = URLRequest(url: server.url("/upload"))
        upload.httpMethod = "POST"
        let (uploaded, _) = try await f.session.upload(for: upload, from: "file contents".utf8Data)
        #expect(String(decoding: uploaded, as: UTF8.self) == "POST /upload\nfile contents")
    }

    @Test func stackedRulesMergeNewestFirstAndRevertingUncoversTheOlder() async throws {
        let f = try NetworkFixture()
        try f.registry.define(
            Profile(
                name: "Fake API",
                entries: [
                    .init(
                        seam: f.id,
                        spec: #"respond(body: "sunny", url: "weather") -> respond(body: "calm", url: "news")"#)
                ]))
        try f.registry.define(
            Profile(name: "Outage", entries: [.init(seam: f.id, spec: #"respond(503, url: "weather")"#)]))
        try f.registry.apply(profile: "Fake API")
        try f.registry.apply(profile: "Outage")
        #expect(try await f.get("/weather").1.statusCode == 503)
        #expect(String(decoding: try await f.get("/news").0, as: UTF8.self) == "calm")
        f.registry.revert(profile: "Outage")
        let (data, response) = try await f.get("/weather")
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "sunny")
        f.registry.revert(profile: "Fake API")
        #expect(!f.network.isActive)
    }

    // An hour of latency: ending at all within the time limit proves the wait was stopped, however loaded the
    // machine (a bound of seconds failed when the suite's property tests kept both of this machine's cores busy).
    @Test(.timeLimit(.minutes(1))) func latencyWaitsWithoutBlockingAndCancellingStopsTheWait() async throws {
        let f = try NetworkFixture()
        try f.apply(#"respond(body: "late", url: "slow") + latency(1h)"#)
        let events = f.registry.eventStream()
        let clock = ContinuousClock()
        let start = clock.now
        let task = Task { try await f.get("/slow") }
        // The request was decided (and is now waiting) once its report arrives.
        for await event in events where event.kind == .report { break }
        task.cancel()
        await #expect(throws: (any Error).self) { try await task.value }
        #expect(clock.now - start < .seconds(60))
    }

    @Test func smallLatenciesAndBandwidthLimitsTakeTheirTime() async throws {
        let f = try NetworkFixture()
        // 1 250 bytes at 100 kbps (12 500 bytes a second) take 100 ms, after 50 ms of latency.
        try f.apply(#"respond(body: "\#(String(repeating: "x", count: 1250))") + latency(50ms) + bandwidth(100)"#)
        let clock = ContinuousClock()
        let start = clock.now
        let (data, _) = try await f.get("/file")
        #expect(data.count == 1250)
        #expect(clock.now - start >= .milliseconds(150))
    }

    @Test(.timeLimit(.minutes(1))) func aLatencyBeyondTheRequestsTimeoutTimesOut() async throws {
        let f = try NetworkFixture()
        try f.apply(#"respond(body: "too late") + latency(1h)"#)
        var request = URLRequest(url: f.url("/slow"))
        request.timeoutInterval = 0.05
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: URLError.self) { try await f.load(request) }
        #expect(error?.code == .timedOut)
        #expect(clock.now - start >= .milliseconds(50))
        #expect(clock.now - start < .seconds(60))  // an hour's latency was cut short by the request's timeout
    }

    @Test func passThroughLatencyDelaysTheRealNetwork() async throws {
        let f = try NetworkFixture()
        try f.apply("latency(50ms)")
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(await f.failure("/"))
        #expect(error.code == .cannotConnectToHost)
        #expect(clock.now - start >= .milliseconds(50))
    }

    @Test func firstNCountsRequestsAcrossTheSession() async throws {
        let f = try NetworkFixture()
        try f.apply("2*offline")
        #expect(await f.failure("/a")?.code == .notConnectedToInternet)
        #expect(await f.failure("/b")?.code == .notConnectedToInternet)
        #expect(await f.failure("/c")?.code == .cannotConnectToHost)  // the rule is used up: the real network
    }

    @Test func theActivationLogNamesTheRuleAndTheRequest() async throws {
        let f = try NetworkFixture()
        try f.apply(#"respond(url: "weather", status: 200, body: "sunny")"#)
        try f.apply(#"offline(host: "127.0.0.1", path: "/news")"#)
        _ = try await f.get("/weather")
        _ = await f.failure("/news")
        #expect(
            f.reports == [
                #"GET http://127.0.0.1:9/weather → 200, 5 bytes by respond(body: "sunny", url: "weather")"#,
                #"GET http://127.0.0.1:9/news → offline by offline(host: "127.0.0.1", path: "/news")"#,
            ])
        #expect(f.registry.events().last?.seam == f.id)
    }
}
