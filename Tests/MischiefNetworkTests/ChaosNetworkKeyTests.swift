import Foundation
import Mischief
import MischiefNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keyed rules (`10%@key offline`) on the network: the key comes from a request header or the caller's task.
@Suite struct ChaosNetworkKeyTests {
    static let header = "X-User-ID"

    /// Whether the rule takes the request of `user` (sent in the header).
    static func taken(_ f: NetworkFixture, _ user: String) -> Bool {
        !f.decide("/x", headers: [header: user]).isPassThrough
    }

    @Test func aKeyHeaderChoosesTheSameUsersOnEveryRequest() throws {
        let f = try NetworkFixture(seed: 3, id: "net.keyed")
        f.network.keyHeader = Self.header
        try f.apply("10%@key offline")
        var chosen = 0
        for index in 0..<2000 {
            let answers = Set((0..<5).map { _ in Self.taken(f, "user-\(index)") })
            #expect(answers.count == 1, "user-\(index) got both answers")
            if answers.first == true { chosen += 1 }
        }
        #expect(chosen > 160 && chosen < 240, "\(chosen) of 2000")
        // Another run with the same session seed takes the same users.
        let g = try NetworkFixture(seed: 3, id: "net.keyed")
        g.network.keyHeader = Self.header
        try g.apply("10%@key offline")
        #expect((0..<300).allSatisfy { Self.taken(f, "user-\($0)") == Self.taken(g, "user-\($0)") })
    }

    @Test func theHeaderIsFoundInAnyCaseAndWithoutItTheTasksKeyCounts() throws {
        let f = try NetworkFixture()
        f.network.keyHeader = "x-user-id"
        try f.apply("100%@key respond(204)")
        #expect(f.decide("/x", headers: ["X-User-ID": "user-1"]).outcome != .passThrough)
        #expect(f.decide("/x").isPassThrough)  // no header, no task key: not among the users
        #expect(f.decide("/x", headers: ["X-User-ID": ""]).isPassThrough)
        #expect(ChaosKey.$current.withValue("user-2") { !f.decide("/x").isPassThrough })
    }

    @Test func theHeaderWinsOverTheTasksKey() throws {
        let f = try NetworkFixture()
        f.network.keyHeader = Self.header
        try f.registry.apply(f.network.seam, .probability(50, per: .key, .answer(.offline), seed: 1))
        let users = (0..<40).map { "user-\($0)" }
        let inside = try #require(users.first { Self.taken(f, $0) })
        let outside = try #require(users.first { !Self.taken(f, $0) })
        ChaosKey.$current.withValue(inside) {
            #expect(f.decide("/x", headers: [Self.header: outside]).isPassThrough)
            #expect(!f.decide("/x").isPassThrough)
        }
    }

    @Test func withoutAKeyHeaderOnlyTheTasksKeyCounts() throws {
        let f = try NetworkFixture()
        try f.apply("100%@key offline")
        #expect(f.decide("/x", headers: [Self.header: "user-1"]).isPassThrough)
        #expect(ChaosKey.$current.withValue("user-1") { !f.decide("/x").isPassThrough })
    }

    @Test func urlSessionRequestsAreKeyedByTheirHeader() async throws {
        let f = try NetworkFixture()
        f.network.keyHeader = Self.header
        try f.apply("100%@key respond(204)")
        var request = URLRequest(url: f.url("/keyed"))
        request.setValue("user-9", forHTTPHeaderField: Self.header)
        let (_, response) = try await f.load(request)
        #expect(response.statusCode == 204)
        // No header: the rule does not take it, so it goes to the network, where port 9 refuses it.
        await #expect(throws: URLError.self) { try await f.get("/keyed") }
    }
}
