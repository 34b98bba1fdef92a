import Foundation

/// The demo's user model: decoded from JSON for the profile card, so random fields and rejected mutations show.
public struct DemoUser: Codable, Hashable, Sendable {
    /// The user's id.
    public var id: UUID
    /// The display name.
    public var name: String
    /// An optional nickname.
    public var nickname: String?
    /// The e-mail address.
    public var email: String
    /// Age in years.
    public var age: Int
    /// Whether the account is paid for.
    public var premium: Bool
    /// Interests.
    public var tags: [String]
    /// When the account was opened.
    public var joined: Date
    /// The kind of account.
    public var plan: Plan

    /// Account kinds; an unknown raw value is a decoding error, so `randomize` meets a rejection. `CaseIterable`, so a
    /// model's shape can be learnt without a sample (`set` learns it).
    public enum Plan: String, Codable, Hashable, Sendable, CaseIterable {
        case free, family, business
    }

    /// How the demo encodes and decodes users (dates as ISO 8601).
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The JSON the demo decodes several times a second.
    public static let json = Data(
        """
        {"id": "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "name": "Ada Lovelace", "nickname": "Ada",
         "email": "ada@example.com", "age": 36, "premium": true, "tags": ["maths", "engines", "poetry"],
         "joined": "2023-11-14T22:13:20Z", "plan": "family"}
        """.utf8)
}
