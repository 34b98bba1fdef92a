import Yams

/// An unkeyed container over a YAML list.
struct YAMLUnkeyedContainer: UnkeyedDecodingContainer {
    /// The decoder that opened the container.
    let decoder: YAMLNodeDecoder
    /// The list read.
    let sequence: Node.Sequence
    /// The position of the next item.
    private(set) var currentIndex = 0

    init(decoder: YAMLNodeDecoder, sequence: Node.Sequence) {
        self.decoder = decoder
        self.sequence = sequence
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { sequence.count }
    var isAtEnd: Bool { currentIndex >= sequence.count }

    /// The path of the next item.
    private var itemPath: [any CodingKey] { codingPath + [YAMLCodingKey(index: currentIndex)] }

    /// The next item, or an error located at the list when there are no more.
    private func next(_ type: Any.Type) throws -> Node {
        guard !isAtEnd else {
            let message =
                "expected another item \(YAMLCodingKey.phrase(for: codingPath)),"
                + " but the list has only \(sequence.count)"
            let problem = decoder.located(decoder.state.location(of: sequence.mark), message)
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: itemPath, debugDescription: message,
                    underlyingError: problem))
        }
        return sequence[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.isNull(try next(Any.self)) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.decode(type, from: try next(type), at: itemPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNext(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeNext(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeNext(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeNext(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeNext(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeNext(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeNext(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeNext(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeNext(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeNext(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeNext(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeNext(type) }

    /// Shared body of the typed `decode` overloads.
    private mutating func decodeNext<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.decode(type, from: try next(type), at: itemPath)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try childDecoder().container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try childDecoder().unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try childDecoder()
        currentIndex += 1
        return decoder
    }

    /// A decoder for the next item.
    private func childDecoder() throws -> YAMLNodeDecoder {
        YAMLNodeDecoder(node: try next(Any.self), codingPath: itemPath, state: decoder.state)
    }
}
