import Mischief
import Testing

@testable import MischiefSystem

/// `n*` and `p%` on a `system.net` action count only the calls that action applies to: a lookup for `dns` and
/// `resolve`, a connect for `refused`, `hang` and `latency`, and only those its host and port accept.
@Suite struct SystemNetCountingTests {
    @Test func aCountOnRefusedIsNotUsedUpByLookupsOrOtherHosts() throws {
        let net = try NetFixture()
        try net.apply(#"2*refused(host: "api.example.com")"#)
        var refused = 0
        for _ in 0..<3 {
            // What refused never acts on: a lookup of its own host, a connect to another host, another port's too.
            #expect(net.decide(lookup("api.example.com")).action == .real)
            #expect(net.decide(connect("10.0.0.2", names: ["other.example.com"])).action == .real)
            if net.decide(connect("10.0.0.1", names: ["api.example.com"])).action == .refused { refused += 1 }
        }
        #expect(refused == 2, "the first two connects to api.example.com are refused, the third is real")
    }

    @Test func aCountOnDNSIsNotUsedUpByConnects() throws {
        let net = try NetFixture()
        try net.apply(#"1*dns(host: "*.example.com")"#)
        #expect(net.decide(connect("10.0.0.1", names: ["api.example.com"])).action == .real)
        #expect(net.decide(lookup("example.org")).action == .real)
        #expect(net.decide(lookup("api.example.com")).action == .noSuchHost)
        #expect(net.decide(lookup("api.example.com")).action == .real, "one lookup only")
    }

    @Test func aCountOnAPortCountsOnlyThatPort() throws {
        let net = try NetFixture()
        try net.apply("1*hang(port: 8080)")
        #expect(net.decide(connect("127.0.0.1", port: 80)).action == .real)
        #expect(net.decide(lookup("localhost", port: 8080)).action == .real)
        #expect(net.decide(connect("127.0.0.1", port: 8080)).action == .hang)
        #expect(net.decide(connect("127.0.0.1", port: 8080)).action == .real)
    }

    @Test func aCountOnLatencyDelaysOnlyTheConnectsItTakes() throws {
        let net = try NetFixture()
        try net.apply("2*latency(200ms)")
        #expect(net.decide(lookup("localhost")).delay == .zero)
        #expect(net.decide(connect("127.0.0.1")).delay == .milliseconds(200))
        #expect(net.decide(lookup("localhost")).delay == .zero)
        #expect(net.decide(connect("127.0.0.1")).delay == .milliseconds(200))
        #expect(net.decide(connect("127.0.0.1")).delay == .zero)
    }

    @Test func aCountOnAResolveCountsOnlyItsHostsLookups() throws {
        let net = try NetFixture()
        try net.apply(#"1*resolve(host: "api.example.com", to: "127.0.0.1")"#)
        #expect(net.decide(lookup("example.org")).action == .real)
        #expect(net.decide(connect("10.0.0.1", names: ["api.example.com"])).action == .real)
        #expect(net.decide(lookup("api.example.com")).action == .resolve("127.0.0.1"))
        #expect(net.decide(lookup("api.example.com")).action == .real)
    }

    @Test func aCountOnACompositionCountsTheCallsItsActionsTake() throws {
        let net = try NetFixture()
        try net.apply(#"1*refused(host: "api.example.com") + latency(100ms)"#)
        #expect(net.decide(lookup("api.example.com")) == .real)
        let first = net.decide(connect("10.0.0.1", names: ["api.example.com"]))
        #expect(first.action == .refused)
        #expect(first.delay == .milliseconds(100))
        #expect(net.decide(connect("10.0.0.1", names: ["api.example.com"])).action == .real)
    }

    /// A probability draws once per call the action takes, so the same seed refuses the same connects whatever
    /// lookups and other hosts' connects come between them.
    @Test func aProbabilityDrawsOnlyForTheCallsItsActionTakes() throws {
        let spec = #"50%refused(host: "api.example.com")"#
        let alone = try NetFixture(seed: 42)
        try alone.apply(spec)
        let expected = (0..<64).map { _ in alone.decide(connect("10.0.0.1", names: ["api.example.com"])).action }
        #expect(expected.contains(.refused) && expected.contains(.real), "a 50% draw over 64 connects gives both")

        let mixed = try NetFixture(seed: 42)
        try mixed.apply(spec)
        var seen: [SystemNetOutcome.Action] = []
        for _ in 0..<64 {
            #expect(mixed.decide(lookup("api.example.com")).action == .real)
            #expect(mixed.decide(connect("10.0.0.2", names: ["other.example.com"])).action == .real)
            seen.append(mixed.decide(connect("10.0.0.1", names: ["api.example.com"])).action)
        }
        #expect(seen == expected)
    }

    /// The same holds for stacked rules: a spent count falls through to the rule beneath.
    @Test func aSpentCountFallsThroughToTheRuleBeneath() throws {
        let net = try NetFixture()
        try net.apply("hang")
        try net.apply(#"1*refused(host: "api.example.com")"#)
        #expect(net.decide(lookup("api.example.com")).action == .real)
        #expect(net.decide(connect("10.0.0.1", names: ["api.example.com"])).action == .refused)
        #expect(net.decide(connect("10.0.0.1", names: ["api.example.com"])).action == .hang)
    }
}
