import MischiefSystem
import Testing

/// Which calls a `host:` pattern names: a lookup by the name asked; a connect by its address, by the names lookups
/// answered that address for, and a loopback address by `localhost`.
@Suite struct SystemNetCallTests {
    @Test func anExactNameMatchesItselfIgnoringCaseAndNothingElse() {
        #expect(lookup("api.example.com").matches(host: "api.example.com"))
        #expect(lookup("API.Example.COM").matches(host: "api.example.com"))
        #expect(lookup("api.example.com").matches(host: "API.EXAMPLE.COM"))
        #expect(!lookup("api.example.com").matches(host: "example.com"))
        #expect(!lookup("api.example.com.evil.net").matches(host: "api.example.com"))
        #expect(!lookup("xapi.example.com").matches(host: "api.example.com"))
    }

    @Test func aWildcardMatchesEverySubdomainButNotTheDomainItself() {
        #expect(lookup("api.example.com").matches(host: "*.example.com"))
        #expect(lookup("a.b.example.com").matches(host: "*.example.com"))
        #expect(!lookup("example.com").matches(host: "*.example.com"))
        #expect(!lookup("badexample.com").matches(host: "*.example.com"), "a label boundary, not a suffix")
        #expect(!lookup("example.com.net").matches(host: "*.example.com"))
    }

    @Test func aStarAloneMatchesEveryCall() {
        #expect(lookup("api.example.com").matches(host: "*"))
        #expect(connect("10.0.0.1").matches(host: "*"))
    }

    @Test func aConnectMatchesItsAddressExactly() {
        #expect(connect("10.0.0.1").matches(host: "10.0.0.1"))
        #expect(!connect("10.0.0.10").matches(host: "10.0.0.1"))
        #expect(!connect("10.0.0.1").matches(host: "10.0.0"))
        #expect(connect("2001:db8::1").matches(host: "2001:DB8::1"))
        #expect(!connect("2001:db8::1").matches(host: "api.example.com"))
    }

    @Test func aConnectMatchesTheNamesLookupsAnsweredItsAddressFor() {
        let call = connect("10.0.0.1", names: ["api.example.com", "cdn.example.net"])
        #expect(call.matches(host: "api.example.com"))
        #expect(call.matches(host: "cdn.example.net"))
        #expect(call.matches(host: "*.example.net"))
        #expect(!call.matches(host: "other.example.com"))
        #expect(!connect("10.0.0.1").matches(host: "api.example.com"), "no lookup answered 10.0.0.1")
    }

    @Test func aLoopbackConnectIsLocalhostsButALookupOfAnotherNameIsNot() {
        #expect(connect("127.0.0.1").matches(host: "localhost"))
        #expect(connect("127.3.2.1").matches(host: "localhost"))
        #expect(connect("::1").matches(host: "localhost"))
        #expect(!connect("10.0.0.1").matches(host: "localhost"))
        #expect(!lookup("127.0.0.1").matches(host: "localhost"), "only a connect: libcurl resolves localhost itself")
    }

    @Test func callsDescribeThemselvesForTheEventLog() {
        #expect(lookup("api.example.com").description == "lookup api.example.com")
        #expect(
            connect("10.0.0.1", port: 443, names: ["api.example.com"]).description
                == "connect 10.0.0.1:443 (api.example.com)")
        #expect(connect("::1", port: 8080).description == "connect [::1]:8080")
    }
}
