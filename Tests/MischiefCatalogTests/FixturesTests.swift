import Foundation
import MischiefCatalog
import Testing

struct FixturesTests {
    /// Recorded once; a change here means the fixture algorithm changed (and every stored fixture with it).
    static let aliceJSON = """
        {"address":{"city":"Tunis","street":"brave-seal-20","zip":53},"age":61,"friends":[{"name":"Carla",\
        "priority":1,"since":706095609}],"homepage":"https://example.com/eager-heron-22",\
        "id":"830EA4DE-300C-47BF-A5BB-8CBDFFC748AE","joined":663954185,"level":10,"name":"Lena",\
        "nickname":"Emeka","role":"guest","score":33.06,"tags":["fuzzy-owl-46","blue-stoat-70","misty-puffin-77"],\
        "verified":false}
        """

    private func sortedJSON(_ user: User) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(user), as: UTF8.self)
    }

    @Test func labelledFixtureIsStable() throws {
        let alice = try Fixtures.make(User.self, label: "alice")
        #expect(try sortedJSON(alice) == Self.aliceJSON)
        let json = try Fixtures.json(User.self, label: "alice")
        #expect(json.hasPrefix(#"{"id":"830EA4DE-300C-47BF-A5BB-8CBDFFC748AE","name":"Lena""#))
    }

    @Test func sameLabelSameValueDifferentLabelDifferentValue() throws {
        let first = try Fixtures.make(User.self, label: "alice")
        let second = try Fixtures.make(User.self, label: "alice")
        let bob = try Fixtures.make(User.self, label: "bob")
        #expect(first == second)
        #expect(first != bob)
        #expect(first.id != bob.id)
    }

    @Test func valuesLookReadableAndInRange() throws {
        for label in ["alice", "bob", "carol", "dave"] {
            let user = try Fixtures.make(User.self, label: label)
            #expect(Fixtures.firstNamesForTesting.contains(user.name))
            #expect(user.joined >= Fixtures.dateRangeStart)
            #expect(user.joined < Fixtures.dateRangeStart.addingTimeInterval(TimeInterval(Fixtures.dateRangeSeconds)))
            #expect(user.joined.timeIntervalSince1970.rounded() == user.joined.timeIntervalSince1970)
            #expect((18..<78).contains(user.age))
            #expect(user.nickname != nil && user.address != nil)
            #expect((1...3).contains(user.tags.count) && (1...3).contains(user.friends.count))
            #expect(user.tags.allSatisfy { $0.split(separator: "-").count == 3 })
            #expect(user.id.uuidString.dropFirst(14).first == "4")
            #expect(user.homepage.absoluteString.hasPrefix("https://example.com/"))
        }
    }

    @Test func fixtureHashIsFNV1a() {
        #expect(StableHash.fnv1a("") == 0xCBF2_9CE4_8422_2325)
        #expect(StableHash.fnv1a("a") == 0xAF63_DC4C_8601_EC8C)
        #expect(StableHash.fnv1a("foobar") == 0x8594_4171_F739_67E8)
        #expect(StableHash.fnv1a(label: "alice", path: "name") == StableHash.fnv1a("alice/name"))
    }

    @Test func honoursConfiguredDateStrategy() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let user = try Fixtures.make(User.self, label: "alice", encoder: encoder, decoder: decoder)
        #expect(user == (try Fixtures.make(User.self, label: "alice")))
        #expect(try Fixtures.json(User.self, label: "alice", encoder: encoder).contains(#""joined":"20"#))
    }

    @Test func unsynthesisableTypeThrows() {
        #expect(throws: (any Error).self) { try Fixtures.make(Strict.self, label: "x") }
    }
}

/// A model whose decoder validates content, so synthetic values are refused.
struct Strict: Codable {
    var code: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        guard code.count == 3 else {
            throw DecodingError.dataCorruptedError(forKey: .code, in: container, debugDescription: "need 3 letters")
        }
    }
}

extension Fixtures {
    static let firstNamesForTesting: Set<String> = [
        "Ann", "Bob", "Carla", "Dmitri", "Emeka", "Fatima", "Giulia", "Hiro",
        "Ines", "Jonas", "Kofi", "Lena", "Mateo", "Nadia", "Omar", "Priya",
    ]
}
