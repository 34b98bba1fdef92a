import Foundation
import Mischief

/// Deterministic, labelled sample values for any `Codable` model.
///
/// Every leaf is derived from a stable FNV-1a hash of `label/fieldPath` (see ``StableHash``), never from `hashValue`,
/// so `Fixtures.make(User.self, label: "alice")` is byte-for-byte identical across runs and machines. Strings read like
/// words (`"Ann"`, `"Lisbon"`, `"blue-otter-17"`), dates fall in 2020–2024, UUIDs come from the hash, optionals are
/// always present and arrays hold one to three elements.
///
/// ```swift
/// let alice = try Fixtures.make(User.self, label: "alice")
/// let bob = try Fixtures.make(User.self, label: "bob")   // different, but always the same "bob"
/// ```
public enum Fixtures: Sendable {
    /// First day of the fixture date range (2020-01-01T00:00:00Z).
    public static let dateRangeStart = Date(timeIntervalSince1970: 1_577_836_800)
    /// Length of the fixture date range in whole seconds (five years of 365 days).
    public static let dateRangeSeconds: UInt64 = 5 * 365 * 86_400

    /// Synthesises a value of `type` from its learned shape.
    ///
    /// - Parameters:
    ///   - type: The model type.
    ///   - label: What makes this fixture differ from others of the type; the same label, the same value.
    ///   - encoder: used to write dates, UUIDs and data in the form `decoder` expects.
    ///   - decoder: the model's decoder.
    /// - Throws: when the shape cannot be learned or the model rejects the synthesised JSON.
    public static func make<T: Decodable>(
        _ type: T.Type, label: String, encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder()
    ) throws -> T {
        let shape = try ModelShape.learn(type)
        let json = value(for: shape.root, label: label, path: "", encoder: encoder)
        return try decoder.decode(type, from: json.data)
    }

    /// The synthesised JSON text for `type` (compact, keys in declaration order).
    public static func json<T: Decodable>(
        _ type: T.Type, label: String, encoder: JSONEncoder = JSONEncoder()
    ) throws -> String {
        let shape = try ModelShape.learn(type)
        return value(for: shape.root, label: label, path: "", encoder: encoder).text
    }

    /// A readable word for a field: first names for `*name*`, cities for `*city*`, e-mails for `*mail*`, otherwise an
    /// `adjective-animal-NN` slug.
    public static func word(hash: UInt64, key: String = "") -> String {
        let lower = key.lowercased()
        if lower.contains("mail") {
            return pick(firstNames, hash).lowercased() + "@example.com"
        }
        if lower.contains("name") { return pick(firstNames, hash) }
        if lower.contains("city") || lower.contains("town") { return pick(cities, hash) }
        if lower.contains("country") { return pick(countries, hash) }
        return pick(adjectives, hash) + "-" + pick(animals, hash >> 8) + "-" + String((hash >> 16) % 100)
    }

    /// A date in the fixture range, in whole seconds.
    public static func date(hash: UInt64) -> Date {
        dateRangeStart.addingTimeInterval(TimeInterval(hash % dateRangeSeconds))
    }

    /// A version-4-shaped UUID whose bytes come from `hash`.
    public static func uuid(hash: UInt64) -> UUID {
        var generator = SeededGenerator(seed: hash)
        let high = generator.next()
        let low = generator.next()
        var bytes =
            (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// The JSON for one field at a concrete path (`friends[1].name`).
    static func value(for field: ModelField, label: String, path: String, encoder: JSONEncoder) -> JSONValue {
        let hash = StableHash.fnv1a(label: label, path: path)
        switch field.kind {
        case .string:
            return .string(word(hash: hash, key: field.key == "[]" ? parentKey(of: path) : field.key))
        case .integer(let bits, let signed):
            let key = field.key.lowercased()
            let value = key.contains("age") ? 18 + hash % 60 : hash % 100
            return .number(String(bits <= 8 && !signed ? value % 100 : value))
        case .double, .float:
            return .number(String(Double(hash % 10_000) / 100))
        case .bool:
            return .bool(hash & 1 == 1)
        case .date:
            return encoded(date(hash: hash), encoder: encoder)
        case .uuid:
            return encoded(uuid(hash: hash), encoder: encoder)
        case .url:
            return .string("https://example.com/" + word(hash: hash))
        case .data:
            return encoded(Data(word(hash: hash).utf8), encoder: encoder)
        case .stringEnum(let cases):
            return cases.isEmpty ? .null : .string(cases[Int(hash % UInt64(cases.count))])
        case .intEnum(let cases):
            return cases.isEmpty ? .null : .number(String(cases[Int(hash % UInt64(cases.count))]))
        case .object(let fields):
            return .object(
                fields.map { child in
                    let childPath = path.isEmpty ? child.key : path + "." + child.key
                    return .init(
                        key: child.key, value: value(for: child, label: label, path: childPath, encoder: encoder))
                })
        case .array(let element):
            if case .other = element.kind { return .array([]) }
            let count = Int(1 + hash % 3)
            return .array(
                (0..<count).map { index in
                    value(for: element, label: label, path: path + "[\(index)]", encoder: encoder)
                })
        case .other:
            return .null
        }
    }

    /// Encodes a leaf with `encoder` and parses it back, so strategies are honoured; `.null` on failure.
    static func encoded<V: Encodable>(_ value: V, encoder: JSONEncoder) -> JSONValue {
        guard let data = try? encoder.encode(value), let json = try? JSONValue.parse(data) else { return .null }
        return json
    }

    private static func parentKey(of path: String) -> String {
        let withoutIndex = path.split(separator: "[").first.map(String.init) ?? path
        return withoutIndex.split(separator: ".").last.map(String.init) ?? withoutIndex
    }

    private static func pick(_ words: [String], _ hash: UInt64) -> String {
        words[Int(hash % UInt64(words.count))]
    }

    static let firstNames = [
        "Ann", "Bob", "Carla", "Dmitri", "Emeka", "Fatima", "Giulia", "Hiro",
        "Ines", "Jonas", "Kofi", "Lena", "Mateo", "Nadia", "Omar", "Priya",
    ]
    static let cities = [
        "Lisbon", "Oslo", "Nairobi", "Kyoto", "Lima", "Tunis", "Quebec", "Porto",
        "Hanoi", "Cusco", "Bergen", "Accra",
    ]
    static let countries = ["Portugal", "Norway", "Kenya", "Japan", "Peru", "Tunisia", "Canada", "Vietnam"]
    static let adjectives = [
        "blue", "brave", "calm", "dusty", "eager", "fuzzy", "gentle", "happy",
        "icy", "jolly", "lucky", "misty", "noble", "quiet", "rusty", "sunny",
    ]
    static let animals = [
        "otter", "fox", "heron", "lynx", "panda", "raven", "seal", "tiger",
        "wombat", "yak", "koala", "moose", "newt", "owl", "puffin", "stoat",
    ]
}
