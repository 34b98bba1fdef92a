import Foundation
import Mischief
import MischiefNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every request through a network seam is a call where consoles and guards look, and every failed one an error:
/// a rule's failure, the network's own (refused, timed out, reset, unknown host), or a server error (5xx).
@Suite struct NetworkCountingTests {
    /// The seam's calls and errors as a snapshot shows them.
    private func counts(_ f: NetworkFixture) throws -> (calls: Int, errors: Int) {
        let seam = try #require(f.registry.snapshot().seam(f.id))
        return (seam.counters.calls, seam.counters.errors)
    }

    @Test func requestsWithNoRuleAreCountedWhileObservedAndRefusalsAreErrors() async throws {
        let f = try NetworkFixture()
        let observation = f.registry.observe()
        defer { withExtendedLifetime(observation) {} }
        // Port 9 on loopback refuses: the network's own failure, with no rule applied.
        #expect(await f.failure("/v1/weather")?.code == .cannotConnectToHost)
        #expect(await f.failure("/v1/weather")?.code == .cannotConnectToHost)
        let (calls, errors) = try counts(f)
        #expect(calls == 2)
        #expect(errors == 2)
    }

    @Test func ruleFailuresAreErrors() async throws {
        let f = try NetworkFixture()
        let observation = f.registry.observe()
        defer { withExtendedLifetime(observation) {} }
        try f.apply("offline")
        for _ in 0..<3 { #expect(await f.failure("/v1/weather")?.code == .notConnectedToInternet) }
        let (calls, errors) = try counts(f)
        #expect(calls == 3)
        #expect(errors == 3)
        #expect(try #require(f.registry.snapshot().seam(f.id)).counters.chaosCalls == 3)
    }

    @Test func serverErrorsAreErrorsAndOtherAnswersAreNot() async throws {
        let f = try NetworkFixture()
        let observation = f.registry.observe()
        defer { withExtendedLifetime(observation) {} }
        try f.apply(#"respond(503, path: "/busy")"#)
        try f.apply(#"respond(404, path: "/missing")"#)
        try f.apply(#"respond(200, path: "/fine")"#)
        #expect(try await f.get("/busy").1.statusCode == 503)
        #expect(try await f.get("/missing").1.statusCode == 404)
        #expect(try await f.get("/fine").1.statusCode == 200)
        let (calls, errors) = try counts(f)
        #expect(calls == 3)
        #expect(errors == 1, "only the 503 failed")
    }

    @Test func nothingIsTakenOrCountedWhileNobodyLooks() async throws {
        let f = try NetworkFixture()
        #expect(await f.failure("/v1/weather")?.code == .cannotConnectToHost)
        let (calls, errors) = try counts(f)
        #expect(calls == 0)
        #expect(errors == 0)
    }

    @Test func theSeamLevelAPICountsFailuresToo() async throws {
        let f = try NetworkFixture()
        let observation = f.registry.observe()
        defer { withExtendedLifetime(observation) {} }
        let request = NetworkRequest(method: "GET", url: f.url("/v1/weather"))
        // Passed through: the client's failure and a 5xx count, a 200 does not.
        await #expect(throws: URLError.self) {
            try await f.network.perform(request) { _ in throw URLError(.cannotConnectToHost) }
        }
        _ = try await f.network.perform(request) { _ in NetworkReply(status: 500) }
        _ = try await f.network.perform(request) { _ in NetworkReply(status: 200) }
        #expect(try counts(f) == (3, 2))
        // A rule's failure through perform, and through decide (which counts what it decides at once).
        try f.apply("offline")
        await #expect(throws: URLError.self) {
            try await f.network.perform(request) { _ in NetworkReply(status: 200) }
        }
        #expect(f.network.decide(request).isFailure)
        #expect(try counts(f) == (5, 4))
    }
}

/// `n*` on a rule with a path counts only the requests it matches (the spec builder puts it inside the rule's match).
@Suite struct NetworkRuleCountTests {
    @Test func aCountOnAPathRuleIsNotUsedUpByOtherPaths() throws {
        let f = try NetworkFixture()
        try f.apply(#"1*offline(path: "/a")"#)
        #expect(f.decide("/b").isPassThrough)
        #expect(f.decide("/b").isPassThrough)
        #expect(!f.decide("/a").isPassThrough, "the first request to /a is taken")
        #expect(f.decide("/a").isPassThrough, "one request only")
    }
}
