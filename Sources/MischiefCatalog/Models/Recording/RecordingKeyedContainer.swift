/// The keyed container a ``RecordingDecoder`` hands out: records each key asked for into its ``ShapeNode`` and
/// answers from the sample object's members, or synthesises a value when there is no sample.
struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: ShapeNode
    let members: [JSONValue.Member]?
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        (members ?? []).compactMap { Key(stringValue: $0.key) }
    }

    private func source(_ key: Key) -> JSONValue? {
        guard let value = members?.first(where: { $0.key == key.stringValue })?.value, !value.isNull else {
            return nil
        }
        return value
    }

    func contains(_ key: Key) -> Bool {
        source(key) != nil || RecordingDecoder.canSynthesize(at: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        node.child(key.stringValue).isOptional = true
        return !contains(key)
    }

    private func value<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try RecordingDecoder.decodeValue(
            type, node: node.child(key.stringValue), source: source(key), codingPath: codingPath + [key])
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = Key(stringValue: "super")
        let path: [any CodingKey] = key.map { codingPath + [$0] } ?? codingPath
        let members = members?.first { $0.key == "super" }?.value
        return RecordingDecoder(node: node.child("super"), source: members, codingPath: path)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder(for: key)
    }

    private func decoder(for key: Key) -> RecordingDecoder {
        RecordingDecoder(node: node.child(key.stringValue), source: source(key), codingPath: codingPath + [key])
    }
}
