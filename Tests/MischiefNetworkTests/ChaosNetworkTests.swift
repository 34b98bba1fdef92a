import Foundation
import Mischief
import MischiefNetwork
import MischiefTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The network family through its seam-level API: decisions, determinism, composition and `perform`.
@Suite struct ChaosNetworkTests {
    @Test func theSeamIsAMergingNetworkSeam() throws {
        let f = try NetworkFixture()
        let info = try #require(f.registry.seams.first { $0.id == f.id })
        #expect(info.title == "Network responses")
        #expect(info.category == "Network")
        #expect(info.stacking == .merge)
        #expect(f.decide("/x") == .passThrough)
        #expect(!f.network.isActive)
    }

    @Test func isActiveFollowsApplyAndRevert() throws {
        let f = try NetworkFixture()
        let applied = try f.apply("offline")
        #expect(f.network.isActive)
        #expect(MischiefURLProtocol.canInit(with: URLRequest(url: f.url("/"))))
        #expect(!MischiefURLProtocol.canInit(with: URLRequest(url: URL(string: "file:///tmp/x")!)))
        f.registry.revert(applied)
        #expect(!f.network.isActive)
    }

    @Test func probabilityIsTheSameForTheSameSeed() throws {
        func pattern(seed: UInt64) throws -> [Bool] {
            let f = try NetworkFixture(seed: seed, id: "net.seeded")
            try f.apply("50% respond(204)")
            return (0..<32).map { _ in !f.decide("/poll").isPassThrough }
        }
        let first = try pattern(seed: 11)
        #expect(try pattern(seed: 11) == first)
        #expect(first.contains(true) && first.contains(false))
        #expect(try pattern(seed: 12) != first)
    }

    @Test func firstNAnswersThatManyRequests() throws {
        let f = try NetworkFixture()
        try f.apply("3*timeout")
        let outcomes = (0..<5).map { _ in f.decide("/x").outcome }
        #expect(
            outcomes == [.failure(.timedOut), .failure(.timedOut), .failure(.timedOut), .passThrough, .passThrough])
    }

    /// The decision carries the latency for the caller to wait, and does not wait it: with an hour's latency it still
    /// comes back within the deadline of a minute (a decide that slept the latency fails then, saying so).
    @Test func latencyIsDecidedWithoutWaiting() async throws {
        let f = try NetworkFixture()
        try f.apply(#"latency(2s, host: "127.0.0.1")"#)
        #expect(
            f.decide("/x")
                == NetworkResponse(.passThrough, latency: .seconds(2), rule: #"latency(2s, host: "127.0.0.1")"#))
        try f.apply(#"latency(1h, host: "127.0.0.1")"#)
        let request = NetworkRequest(url: f.url("/x"))
        let response = try await Deadline.value(of: "the decision on a request with an hour's latency") {
            [network = f.network] in network.decide(request)
        }
        #expect(response.latency == .seconds(3_600) && response.outcome == .passThrough, "\(response)")
        #expect(f.network.decide(NetworkRequest(url: URL(string: "http://example.com/")!)).isUntouched)
    }

    @Test func jitterIsSeededAndStaysInItsRange() throws {
        func latencies(seed: UInt64?) throws -> [Duration] {
            let f = try NetworkFixture()
            try f.apply("latency(1s, jitter: 500ms)", seed: seed)
            return (0..<16).map { _ in f.decide("/x").latency }
        }
        let first = try latencies(seed: 5)
        #expect(first.allSatisfy { $0 >= .milliseconds(500) && $0 <= .milliseconds(1500) })
        #expect(Set(first).count > 8)
        #expect(try latencies(seed: 5) == first)
        #expect(try latencies(seed: 6) != first)
    }

    @Test func compositionsAddLatencyToTheAnswerAndMatchOnEveryTerm() throws {
        let f = try NetworkFixture()
        try f.apply(#"timeout(after: 2s, url: "slow") + latency(1s) + bandwidth(64)"#)
        let slow = f.decide("/slow")
        #expect(slow.outcome == .failure(.timedOut))
        #expect(slow.latency == .seconds(3))
        #expect(slow.bytesPerSecond == 8000)
        #expect(slow.rule == #"timeout(2s, url: "slow") + latency(1s) + bandwidth(64)"#)
        #expect(f.decide("/fast").isUntouched)
        try f.apply(#"respond(202) + latency(1s, method: "POST")"#)
        #expect(f.decide("/fast", method: "POST").latency == .seconds(1))
        #expect(f.decide("/fast", method: "GET").isUntouched)
    }

    @Test func performAnswersFailsOrSendsThroughTheGivenClient() async throws {
        let f = try NetworkFixture()
        try f.apply(#"respond(418, body: "teapot", url: "tea") -> offline(url: "down") -> latency(10ms, url: "slow")"#)
        let sent = Mutex<[String]>([])
        let send: (NetworkRequest) async throws -> NetworkReply = { request in
            sent.withLock { $0.append(request.url.path) }
            return NetworkReply(status: 200, text: "from the network")
        }
        let tea = try await f.network.perform(NetworkRequest(url: f.url("/tea")), send: send)
        #expect(tea == NetworkReply(status: 418, headers: [:], text: "teapot"))
        let down = await #expect(throws: URLError.self) {
            try await f.network.perform(NetworkRequest(url: f.url("/down")), send: send)
        }
        #expect(down?.code == .notConnectedToInternet)
        let slow = try await f.network.perform(NetworkRequest(url: f.url("/slow")), send: send)
        #expect(slow.body == "from the network".utf8Data)
        #expect(sent.withLock { $0 } == ["/slow"])
    }

    @Test func rulesWrittenInCodeWork() async throws {
        let f = try NetworkFixture()
        let api = try NetworkMatch(host: "api.example.com")
        try f.registry.apply(f.network.seam, api.rule(.first(1, .constant(.offline))))
        try f.registry.apply(f.network.seam, .answer(.reply(status: 204), when: try NetworkMatch(path: "/ping")))
        let request = NetworkRequest(url: URL(string: "https://api.example.com/v1")!)
        let other = NetworkRequest(url: URL(string: "https://cdn.example.com/v1")!)
        #expect(f.network.decide(other).isUntouched)  // does not use up the first-1 rule: it counts matches only
        #expect(f.network.decide(request).outcome == .failure(.notConnectedToInternet))
        #expect(f.network.decide(request).isUntouched)
        #expect(f.decide("/ping").outcome == .reply(NetworkReply(status: 204)))
        #expect(f.reports.last == "GET http://127.0.0.1:9/ping → 204, 0 bytes by 204, 0 bytes when path: \"/ping\"")
        let (_, response) = try await f.get("/ping")
        #expect(response.statusCode == 204)
    }
}
