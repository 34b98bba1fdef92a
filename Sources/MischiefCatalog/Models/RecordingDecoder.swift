import Foundation

/// A mutable node the recording decoder fills in while a type decodes itself.
final class ShapeNode {
    enum Form {
        case unknown
        case leaf(FieldKind)
        case object
        case array
    }

    var form: Form = .unknown
    var isOptional = false
    private var keys: [String] = []
    private var children: [String: ShapeNode] = [:]
    private var elementNode: ShapeNode?

    func child(_ key: String) -> ShapeNode {
        markObject()
        if let existing = children[key] { return existing }
        let node = ShapeNode()
        keys.append(key)
        children[key] = node
        return node
    }

    var element: ShapeNode {
        if case .unknown = form { form = .array }
        if let elementNode { return elementNode }
        let node = ShapeNode()
        elementNode = node
        return node
    }

    func markObject() {
        if case .unknown = form { form = .object }
    }

    func markLeaf(_ kind: FieldKind) {
        if case .unknown = form { form = .leaf(kind) }
    }

    func build(key: String, path: String) -> ModelField {
        let kind: FieldKind
        switch form {
        case .unknown: kind = .other
        case .leaf(let leaf): kind = leaf
        case .object:
            kind = .object(keys.map { name in
                children[name]!.build(key: name, path: path.isEmpty ? name : path + "." + name)
            })
        case .array: kind = .array((elementNode ?? ShapeNode()).build(key: "[]", path: path + "[]"))
        }
        return ModelField(key: key, path: path, kind: kind, isOptional: isOptional)
    }
}

/// An integer coding key for array positions.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init(intValue: Int) { self.intValue = intValue }
}

/// A `Decoder` that records every request into a ``ShapeNode`` while answering from a sample or synthetic values.
struct RecordingDecoder: Decoder {
    /// Beyond this coding-path depth synthetic optionals are absent and synthetic arrays empty (recursive types).
    static let synthesisDepth = 12
    /// Beyond this depth decoding fails outright.
    static let hardDepth = 200

    let node: ShapeNode
    /// The sample value at this position; `nil` (or `.null`) means "synthesise".
    let source: JSONValue?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        node.markObject()
        var members: [JSONValue.Member]?
        if case .object(let found)? = source { members = found }
        let container = RecordingKeyedContainer<Key>(node: node, members: members, codingPath: codingPath)
        return KeyedDecodingContainer(container)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        var items: [JSONValue] = []
        if case .array(let found)? = source { items = found }
        return RecordingUnkeyedContainer(node: node, element: node.element, items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordingSingleValueContainer(node: node, source: source, codingPath: codingPath)
    }

    static func canSynthesize(at codingPath: [any CodingKey]) -> Bool {
        codingPath.count < synthesisDepth
    }

    /// Decodes one value of `type` at `node`, recording its kind.
    static func decodeValue<T: Decodable>(
        _ type: T.Type, node: ShapeNode, source rawSource: JSONValue?, codingPath: [any CodingKey]
    ) throws -> T {
        guard codingPath.count < hardDepth else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "model nests too deep"))
        }
        let source = rawSource?.isNull == true ? nil : rawSource
        if let leaf = leafValue(type, node: node, source: source) { return leaf }
        if let enumType = type as? any (RawRepresentable & CaseIterable).Type,
           let value = enumValue(enumType, node: node, source: source) as? T {
            return value
        }
        return try T(from: RecordingDecoder(node: node, source: source, codingPath: codingPath))
    }

    private static func leafValue<T>(_ type: T.Type, node: ShapeNode, source: JSONValue?) -> T? {
        let text = source?.stringValue
        let number = source?.numberText
        if type == String.self {
            node.markLeaf(.string)
            return (text ?? "text") as? T
        }
        if type == Bool.self {
            node.markLeaf(.bool)
            if case .bool(let flag)? = source { return flag as? T }
            return true as? T
        }
        if type == Double.self {
            node.markLeaf(.double)
            return (number.flatMap(Double.init) ?? 1.5) as? T
        }
        if type == Float.self {
            node.markLeaf(.float)
            return (number.flatMap(Float.init) ?? 1.5) as? T
        }
        if type == Decimal.self {
            node.markLeaf(.double)
            return (number.flatMap { Decimal(string: $0) } ?? Decimal(1)) as? T
        }
        if let integer = type as? any FixedWidthInteger.Type {
            return integerValue(integer, node: node, number: number) as? T
        }
        if type == Date.self {
            node.markLeaf(.date)
            return Date(timeIntervalSinceReferenceDate: 0) as? T
        }
        if type == UUID.self {
            node.markLeaf(.uuid)
            return (text.flatMap(UUID.init(uuidString:)) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0,
                                                                        0, 0, 1))) as? T
        }
        if type == URL.self {
            node.markLeaf(.url)
            return (text.flatMap { URL(string: $0) } ?? URL(string: "https://example.com")!) as? T
        }
        if type == Data.self {
            node.markLeaf(.data)
            return Data() as? T
        }
        return nil
    }

    private static func integerValue<I: FixedWidthInteger>(_ type: I.Type, node: ShapeNode, number: String?) -> I {
        node.markLeaf(.integer(bits: I.bitWidth, signed: I.isSigned))
        return number.flatMap { I($0) } ?? 1
    }

    private static func enumValue<E: RawRepresentable & CaseIterable>(
        _ type: E.Type, node: ShapeNode, source: JSONValue?
    ) -> E? {
        let cases = Array(E.allCases)
        guard let first = cases.first else { return nil }
        if E.RawValue.self == String.self {
            node.markLeaf(.stringEnum(cases.map { $0.rawValue as! String }))
            if let text = source?.stringValue, let raw = text as? E.RawValue, let value = E(rawValue: raw) {
                return value
            }
            return first
        }
        if E.RawValue.self == Int.self {
            node.markLeaf(.intEnum(cases.map { $0.rawValue as! Int }))
            if let text = source?.numberText, let raw = Int(text) as? E.RawValue, let value = E(rawValue: raw) {
                return value
            }
            return first
        }
        return nil
    }
}

private struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
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

private struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let node: ShapeNode
    let element: ShapeNode
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(node: ShapeNode, element: ShapeNode, items: [JSONValue], codingPath: [any CodingKey]) {
        self.node = node
        self.element = element
        self.items = items
        self.codingPath = codingPath
    }

    /// Sample arrays are walked fully; empty or synthetic arrays get one element so the element type is learned.
    var count: Int? {
        if !items.isEmpty { return items.count }
        return RecordingDecoder.canSynthesize(at: codingPath + [IndexKey(0)]) ? 1 : 0
    }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private var currentSource: JSONValue? {
        currentIndex < items.count ? items[currentIndex] : nil
    }

    mutating func decodeNil() throws -> Bool {
        element.isOptional = true
        return false
    }

    private mutating func next<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "at end"))
        }
        let path = codingPath + [IndexKey(currentIndex)]
        let value = try RecordingDecoder.decodeValue(type, node: element, source: currentSource, codingPath: path)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try nextDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        nextDecoder()
    }

    private mutating func nextDecoder() -> RecordingDecoder {
        let decoder = RecordingDecoder(
            node: element, source: currentSource, codingPath: codingPath + [IndexKey(currentIndex)])
        currentIndex += 1
        return decoder
    }
}

private struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let node: ShapeNode
    let source: JSONValue?
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        node.isOptional = true
        return source == nil && !RecordingDecoder.canSynthesize(at: codingPath)
    }

    private func value<T: Decodable>(_ type: T.Type) throws -> T {
        try RecordingDecoder.decodeValue(type, node: node, source: source, codingPath: codingPath)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
}
