/// The unkeyed container a ``RecordingDecoder`` hands out: records the element shape once and answers from the
/// sample array, or gives one synthetic element to learn the element type when there is none.
struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
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
