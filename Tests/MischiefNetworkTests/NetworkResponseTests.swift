import Foundation
import MischiefNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Responses: how they read in the event log, their transfer times and errors.
@Suite struct NetworkResponseTests {
    @Test func descriptionsReadWellInTheLog() {
        #expect(NetworkResponse.reply(status: 503).delayed(by: .seconds(2)).description == "503, 0 bytes after 2s")
        #expect(NetworkResponse.passThrough.delayed(by: .nanoseconds(215_773_575)).description == "network after 216ms")
        #expect(NetworkResponse.offline.limited(toKilobitsPerSecond: 12.5).description == "offline at 12.5 kbps")
        #expect(NetworkResponse.failure(.badURL).description == "URLError \(URLError.Code.badURL.rawValue)")
    }

    @Test func bandwidthLimitsGiveTransferTimesAndTheLowerLimitWins() {
        let response = NetworkResponse.passThrough.limited(toKilobitsPerSecond: 64).limited(toKilobitsPerSecond: 128)
        #expect(response.bytesPerSecond == 8000)
        #expect(response.transferTime(of: 4000) == .milliseconds(500))
        #expect(NetworkResponse.passThrough.transferTime(of: 1_000_000) == .zero)
    }

    @Test func latenciesAddUp() {
        let response = NetworkResponse.timeout.delayed(by: .seconds(1)).delayed(by: .milliseconds(500))
        #expect(response.latency == .milliseconds(1500))
        #expect(!response.isUntouched && !response.isPassThrough)
        #expect(NetworkResponse.passThrough.delayed(by: .zero).isUntouched)
    }

    @Test func failuresGiveURLErrorsNamingTheURL() throws {
        let url = URL(string: "https://api.example.com/items")!
        let error = try #require(NetworkResponse.dnsFailure.error(for: url))
        #expect(error.code == .cannotFindHost)
        #expect(error.failingURL == url)
        #expect(NetworkResponse.reply(status: 200).error(for: url) == nil)
    }

    @Test func repliesBecomeHTTPResponses() throws {
        let reply = NetworkReply(status: 404, headers: ["X-Why": "gone"], text: "nope")
        let response = try #require(reply.httpResponse(for: URL(string: "http://h/x")!))
        #expect(response.statusCode == 404)
        #expect(response.value(forHTTPHeaderField: "x-why") == "gone")
        #expect(response.expectedContentLength == 4)
        #expect(NetworkReply(response, body: Data("nope".utf8)).header("X-Why") == "gone")
    }
}
