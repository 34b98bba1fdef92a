import Mischief
import Yams

/// A keyed container over a YAML mapping that records which keys were asked for.
struct YAMLKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The decoder that opened the container.
    let decoder: YAMLNodeDecoder
    /// The mapping read.
    let mapping: Node.Mapping
    /// Each key's text to its key and value nodes (the first, should a key repeat).
    private let entries: [String: (key: Node, value: Node)]

    init(decoder: YAMLNodeDecoder, mapping: Node.Mapping) {
        self.decoder = decoder
        self.mapping = mapping
        var entries: [String: (key: Node, value: Node)] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string, entries[name] == nil else { continue }
            entries[name] = (key, value)
        }
        self.entries = entries
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The keys in file order; reading them counts as asking for all of them.
    var allKeys: [Key] {
        decoder.state.askedAll(in: mapping)
        return mapping.keys.compactMap { $0.scalar.flatMap { Key(stringValue: $0.string) } }
    }

    func contains(_ key: Key) -> Bool {
        decoder.state.asked(key.stringValue, in: mapping)
        return entries[key.stringValue] != nil
    }

    /// The key and value nodes for `key`, or a "missing key" error located at the mapping.
    func entry(for key: Key, type: Any.Type) throws -> (key: Node, value: Node) {
        decoder.state.asked(key.stringValue, in: mapping)
        if let entry = entries[key.stringValue] { return entry }
        throw missingKey(key)
    }

    /// A "missing key" error located at the mapping, hinting at a present key spelled alike.
    private func missingKey(_ key: some CodingKey) -> DecodingError {
        var message = "missing key '\(key.stringValue)'"
        if !codingPath.isEmpty {
            message += " in " + YAMLCodingKey.phrase(for: codingPath).dropFirst("for ".count)
        }
        let present = mapping.keys.compactMap(\.scalar?.string)
        if let typo = suggestion(for: key.stringValue, among: Array(present)) {
            message += " (found '\(typo)'; a typo?)"
        }
        let problem = decoder.located(decoder.state.location(of: mapping.mark), message)
        return DecodingError.keyNotFound(
            key,
            .init(
                codingPath: codingPath, debugDescription: message,
                underlyingError: problem))
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.isNull(try entry(for: key, type: Any.self).value)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try entry(for: key, type: type).value
        return try decoder.decode(type, from: value, at: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key), let value = entries[key.stringValue]?.value, !decoder.isNull(value) else { return nil }
        return try decoder.decode(type, from: value, at: codingPath + [key])
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, at: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, at: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, at: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, at: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, at: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, at: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, at: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, at: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, at: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, at: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, at: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, at: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, at: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, at: key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type, at: key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeIfPresent(type, at: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeIfPresent(type, at: key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type, at: key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type, at: key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type, at: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type, at: key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type, at: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type, at: key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type, at: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type, at: key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decodeIfPresent(type, at: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decodeIfPresent(type, at: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decodeIfPresent(type, at: key)
    }

    /// Shared body of the typed `decode` overloads.
    private func decode<T: Decodable>(_ type: T.Type, at key: Key) throws -> T {
        let value = try entry(for: key, type: type).value
        return try decoder.decode(type, from: value, at: codingPath + [key])
    }

    /// Shared body of the typed `decodeIfPresent` overloads.
    private func decodeIfPresent<T: Decodable>(_ type: T.Type, at key: Key) throws -> T? {
        guard contains(key), let value = entries[key.stringValue]?.value, !decoder.isNull(value) else { return nil }
        return try decoder.decode(type, from: value, at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try childDecoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try childDecoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try childDecoder(for: YAMLCodingKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try childDecoder(for: key)
    }

    /// A decoder for the value at `key`.
    private func childDecoder(for key: some CodingKey) throws -> YAMLNodeDecoder {
        decoder.state.asked(key.stringValue, in: mapping)
        guard let value = entries[key.stringValue]?.value else { throw missingKey(key) }
        return YAMLNodeDecoder(node: value, codingPath: codingPath + [key], state: decoder.state)
    }

    /// The key node for `key`, for reporting where a key was written.
    func keyNode(for key: Key) -> Node? {
        entries[key.stringValue]?.key
    }
}
