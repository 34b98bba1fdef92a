import Mischief
import Testing

@testable import MischiefSystem

/// What each `system.net` action decides for each call, and the errors of specs it refuses, with no slot rebound.
@Suite struct SystemNetActionsTests {
    @Test func dnsFailsTheLookupsOfItsHostsOnly() throws {
        let net = try NetFixture()
        try net.apply(#"dns(host: "*.example.com")"#)
        let failed = net.decide(lookup("api.example.com"))
        #expect(failed.action == .noSuchHost)
        #expect(failed.rule == #"dns("*.example.com")"#, "named by its canonical text, for the event log")
        #expect(failed.isFailure)
        #expect(net.decide(lookup("example.org")) == .real)
        #expect(net.decide(connect("10.0.0.1", names: ["api.example.com"])) == .real, "dns never acts on a connect")
    }

    @Test func refusedRefusesConnectsByHostAndPort() throws {
        let net = try NetFixture()
        try net.apply(#"refused(host: "api.example.com", port: 443)"#)
        #expect(net.decide(connect("10.0.0.1", port: 443, names: ["api.example.com"])).action == .refused)
        #expect(net.decide(connect("10.0.0.1", port: 80, names: ["api.example.com"])) == .real)
        #expect(net.decide(connect("10.0.0.2", port: 443)) == .real)
        #expect(net.decide(lookup("api.example.com", port: 443)) == .real, "refused never acts on a lookup")
    }

    @Test func hangHoldsConnectsToAnAddress() throws {
        let net = try NetFixture()
        try net.apply(#"hang(host: "10.0.0.1")"#)
        #expect(net.decide(connect("10.0.0.1")).action == .hang)
        #expect(net.decide(connect("10.0.0.1")).isFailure)
        #expect(net.decide(connect("10.0.0.2")) == .real)
    }

    @Test func latencyDelaysTheRealConnect() throws {
        let net = try NetFixture()
        try net.apply("latency(250ms, port: 8080)")
        let delayed = net.decide(connect("127.0.0.1", port: 8080))
        #expect(delayed.action == .real)
        #expect(delayed.delay == .milliseconds(250))
        #expect(delayed.rule == "latency(250ms, port: 8080)")
        #expect(!delayed.isFailure)
        #expect(net.decide(connect("127.0.0.1", port: 80)) == .real)
        #expect(net.decide(lookup("localhost", port: 8080)) == .real)
    }

    @Test func resolveAnswersAnotherAddressForItsHost() throws {
        let net = try NetFixture()
        try net.apply(#"resolve(host: "api.example.com", to: "::1")"#)
        #expect(net.decide(lookup("api.example.com")).action == .resolve("::1"))
        #expect(!net.decide(lookup("api.example.com")).isFailure)
        #expect(net.decide(lookup("www.example.com")) == .real)
        try net.apply(#"resolve("*.example.org")"#)
        #expect(net.decide(lookup("a.example.org")).action == .resolve("127.0.0.1"), "127.0.0.1 by default")
    }

    @Test func stackedRulesAnswerNewestFirstAndEachActsOnItsOwnCalls() throws {
        let net = try NetFixture()
        try net.apply("refused")
        try net.apply(#"dns(host: "api.example.com")"#)
        try net.apply(#"latency(100ms, host: "10.0.0.9")"#)
        #expect(net.decide(lookup("api.example.com")).action == .noSuchHost)
        #expect(net.decide(lookup("www.example.com")) == .real)
        #expect(net.decide(connect("10.0.0.1")).action == .refused)
        let delayed = net.decide(connect("10.0.0.9"))
        #expect(delayed.action == .real, "the newest rule that takes the call answers")
        #expect(delayed.delay == .milliseconds(100))
    }

    @Test func aCompositionDelaysItsFailure() throws {
        let net = try NetFixture()
        try net.apply(#"refused(host: "api.example.com") + latency(100ms)"#)
        let outcome = net.decide(connect("10.0.0.1", names: ["api.example.com"]))
        #expect(outcome.action == .refused)
        #expect(outcome.delay == .milliseconds(100))
        #expect(outcome.description == "refused (ECONNREFUSED) after 0.1 seconds")
    }

    // MARK: Specs it refuses

    @Test func anUnknownActionIsNamedWithASuggestion() {
        let net = try! NetFixture()
        let error = net.error("refuse")
        #expect(error?.message == "unknown action 'refuse' for system.net; did you mean 'refused'?")
        #expect(error?.column == 1)
        let other = net.error("xyzzy(1)")
        #expect(other?.message.hasPrefix("unknown action 'xyzzy' for system.net; available: ") == true)
        for action in ["dns", "refused", "hang", "latency", "resolve"] {
            #expect(other?.message.contains(action) == true, "\(action) is named")
        }
    }

    @Test(arguments: [
        (#"refused(host: "")"#, 9, "give a host, or leave 'host' out for every host"),
        (#"dns(host: "http://api.example.com/v1")"#, 5, "is a URL, not a host"),
        (#"refused(host: "api.example.com:8080")"#, 9, "port: 8080"),
        (#"hang(host: "api.*.com")"#, 6, #""*.example.com""#),
        (#"hang(host: "*example.com")"#, 6, #""*.example.com""#),
        (#"dns(host: "api example.com")"#, 5, "space"),
        (#"resolve(host: "10.0.0.0/8")"#, 9, "CIDR"),
    ])
    func aBadHostPatternIsRefusedAtItsArgument(spec: String, column: Int, says: String) {
        let error = try! NetFixture().error(spec)
        #expect(error?.column == column, "\(spec): \(String(describing: error))")
        #expect(error?.message.contains(says) == true, "\(spec): \(String(describing: error))")
    }

    @Test(arguments: [
        ("refused(port: 0)", 9, "a port is between 1 and 65535, got 0"),
        ("hang(port: 70000)", 6, "a port is between 1 and 65535, got 70000"),
        (#"refused(port: "https")"#, 9, "'refused' takes an integer for 'port'"),
    ])
    func aBadPortIsRefusedAtItsArgument(spec: String, column: Int, says: String) {
        let error = try! NetFixture().error(spec)
        #expect(error?.column == column, "\(spec): \(String(describing: error))")
        #expect(error?.message.contains(says) == true, "\(spec): \(String(describing: error))")
    }

    @Test(arguments: [
        ("latency(-1s)", 9, "latency cannot be negative"),
        ("latency(fast)", 9, "'latency' takes a duration for 'by'"),
        ("latency", 1, "missing argument 'by' for 'latency'"),
    ])
    func aBadDurationIsRefusedAtItsArgument(spec: String, column: Int, says: String) {
        let error = try! NetFixture().error(spec)
        #expect(error?.column == column, "\(spec): \(String(describing: error))")
        #expect(error?.message.contains(says) == true, "\(spec): \(String(describing: error))")
    }

    @Test func resolveRefusesAnAddressThatIsNotNumericAndNeedsAHost() {
        let net = try! NetFixture()
        let error = net.error(#"resolve(host: "api.example.com", to: "localhost")"#)
        #expect(error?.message.contains("'to' takes a numeric IPv4 or IPv6 address") == true)
        #expect(error?.column == 34)
        #expect(net.error("resolve")?.message == "missing argument 'host' for 'resolve'")
    }

    @Test func aRefusedSpecLeavesWhatIsAppliedInPlace() throws {
        let net = try NetFixture()
        try net.apply("refused(port: 443)")
        #expect(throws: MischiefError.self) { try net.apply("refused(port: 0)") }
        #expect(net.decide(connect("10.0.0.1", port: 443)).action == .refused)
    }
}
