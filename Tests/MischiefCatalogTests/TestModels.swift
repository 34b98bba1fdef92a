import Foundation
import MischiefCatalog

enum Role: String, Codable, CaseIterable, Sendable {
    case admin, member, guest
}

enum Priority: Int, Codable, CaseIterable, Sendable {
    case low = 1, normal = 2, high = 3
}

struct Address: Codable, Hashable, Sendable {
    var street: String
    var city: String
    var zip: Int32?
}

struct Friend: Codable, Hashable, Sendable {
    var name: String
    var since: Date
    var priority: Priority
}

struct User: Codable, Hashable, Sendable, Fixturable {
    var id: UUID
    var name: String
    var age: Int
    var nickname: String?
    var joined: Date
    var role: Role
    var address: Address?
    var tags: [String]
    var friends: [Friend]
    var homepage: URL
    var score: Double
    var verified: Bool
    var level: UInt8
}

extension User {
    static let sample = User(
        id: UUID(uuidString: "5B1F6E2A-0C4D-4E8F-9A1B-2C3D4E5F6A7B")!,
        name: "Ann",
        age: 34,
        nickname: "annie",
        joined: Date(timeIntervalSince1970: 1_600_000_000),
        role: .admin,
        address: Address(street: "1 Rua Augusta", city: "Lisbon", zip: 1100),
        tags: ["blue", "green"],
        friends: [Friend(name: "Bob", since: Date(timeIntervalSince1970: 1_500_000_000), priority: .high)],
        homepage: URL(string: "https://ann.example.com")!,
        score: 9.5,
        verified: true,
        level: 3
    )
}
