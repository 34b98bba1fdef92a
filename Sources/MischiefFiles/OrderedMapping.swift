import Yams

/// A YAML mapping with text keys, decoded in file order with the location of each key and value.
///
/// Use it instead of `[String: Value]` where the order of the file matters.
public struct OrderedMapping<Value> {
    /// One key and its value.
    public struct Element {
        /// The key's text.
        public var key: String
        /// The value.
        public var value: Value
        /// Where the key was written.
        public var keyLocation: FileLocation?
        /// Where the value's node starts.
        public var valueLocation: FileLocation?

        /// Creates an element.
        public init(key: String, value: Value, keyLocation: FileLocation? = nil, valueLocation: FileLocation? = nil) {
            self.key = key
            self.value = value
            self.keyLocation = keyLocation
            self.valueLocation = valueLocation
        }
    }

    /// The elements in file order.
    public var elements: [Element]

    /// Creates a mapping from elements.
    public init(_ elements: [Element] = []) {
        self.elements = elements
    }
}

extension OrderedMapping: Sendable where Value: Sendable {}
extension OrderedMapping: Equatable where Value: Equatable {}
extension OrderedMapping: Hashable where Value: Hashable {}
extension OrderedMapping.Element: Sendable where Value: Sendable {}
extension OrderedMapping.Element: Equatable where Value: Equatable {}
extension OrderedMapping.Element: Hashable where Value: Hashable {}

extension OrderedMapping: Decodable where Value: Decodable {
    /// Decodes every key of a mapping, in file order when the decoder is this module's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: YAMLCodingKey.self)
        var elements: [Element] = []
        if let yaml = decoder as? YAMLNodeDecoder, case let .mapping(mapping) = yaml.node {
            yaml.state.askedAll(in: mapping)
            for (keyNode, valueNode) in mapping {
                guard case let .scalar(keyScalar) = keyNode else {
                    let message =
                        "expected text as a key \(YAMLCodingKey.phrase(for: decoder.codingPath)),"
                        + " found \(YAMLNodeDecoder.summary(of: keyNode))"
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: decoder.codingPath, debugDescription: message,
                            underlyingError: yaml.located(yaml.state.location(of: keyNode), message)))
                }
                let key = YAMLCodingKey(stringValue: keyScalar.string)
                let value = try container.decode(Value.self, forKey: key)
                elements.append(
                    Element(
                        key: key.stringValue, value: value,
                        keyLocation: yaml.state.location(of: keyNode),
                        valueLocation: yaml.state.location(of: valueNode)))
            }
        } else {
            for key in container.allKeys {
                elements.append(Element(key: key.stringValue, value: try container.decode(Value.self, forKey: key)))
            }
        }
        self.init(elements)
    }
}

extension OrderedMapping: Encodable where Value: Encodable {
    /// Encodes the elements as a mapping, in order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: YAMLCodingKey.self)
        for element in elements {
            try container.encode(element.value, forKey: YAMLCodingKey(stringValue: element.key))
        }
    }
}
