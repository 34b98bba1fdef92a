import Foundation
import MischiefNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which requests a rule's match arguments accept.
@Suite struct NetworkMatchTests {
    func request(_ url: String, method: String = "GET", headers: [String: String] = [:]) -> NetworkRequest {
        NetworkRequest(method: method, url: URL(string: url)!, headers: headers)
    }

    @Test func everyCriterionMustHold() throws {
        let match = try NetworkMatch(method: "post", url: #"/v\d/"#, host: "API.example.com", path: "/v1/*")
        #expect(match.matches(request("https://api.example.com/v1/users", method: "POST")))
        #expect(!match.matches(request("https://api.example.com/v1/users", method: "GET")))
        #expect(!match.matches(request("https://cdn.example.com/v1/users", method: "POST")))
        #expect(!match.matches(request("https://api.example.com/v2/users", method: "POST")))
        #expect(NetworkMatch.any.matches(request("ftp://anything/")))
    }

    @Test func hostsMatchExactlyOrBySubdomainWildcard() throws {
        let wildcard = try NetworkMatch(host: "*.example.com")
        #expect(wildcard.matches(request("https://a.b.example.com/")))
        #expect(!wildcard.matches(request("https://example.com/")))
        #expect(!wildcard.matches(request("https://notexample.com/")))
        #expect(try NetworkMatch(host: "example.com").matches(request("https://EXAMPLE.com/x")))
    }

    @Test func pathsMatchExactlyOrByPrefix() throws {
        #expect(try NetworkMatch(path: "/api").matches(request("http://h/api")))
        #expect(try !NetworkMatch(path: "/api").matches(request("http://h/api/users")))
        #expect(try NetworkMatch(path: "/api/*").matches(request("http://h/api/users?x=1")))
    }

    @Test func headersMatchByPresenceOrValuePattern() throws {
        let present = try NetworkMatch(header: "Authorization")
        #expect(present.matches(request("http://h/", headers: ["authorization": "Bearer x"])))
        #expect(!present.matches(request("http://h/")))
        let json = try NetworkMatch(header: "Accept: json$")
        #expect(json.matches(request("http://h/", headers: ["Accept": "application/json"])))
        #expect(!json.matches(request("http://h/", headers: ["Accept": "application/json; q=1"])))
    }

    @Test func badPatternsAreRefusedWithTheCriterion() {
        let error = #expect(throws: NetworkMatchError.self) { try NetworkMatch(url: "weather(") }
        #expect(error?.parameter == "url")
        #expect(error?.description.contains("not a valid regular expression") == true)
    }

    @Test func requestsFromURLRequests() {
        var urlRequest = URLRequest(url: URL(string: "https://h/x")!)
        urlRequest.httpMethod = "patch"
        urlRequest.setValue("1", forHTTPHeaderField: "X-One")
        urlRequest.httpBody = Data([1, 2])
        let request = NetworkRequest(urlRequest)
        #expect(request.method == "PATCH")
        #expect(request.header("x-one") == "1")
        #expect(request.body == Data([1, 2]))
        #expect(request.description == "PATCH https://h/x")
    }
}
