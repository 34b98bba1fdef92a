import Foundation

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
            let value = enumValue(enumType, node: node, source: source) as? T
        {
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
            return
                (text.flatMap(UUID.init(uuidString:))
                ?? UUID(
                    uuid: (
                        0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0,
                        0, 0, 1
                    ))) as? T
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
