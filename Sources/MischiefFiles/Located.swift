import Yams

/// A value decoded from YAML together with where it was written.
///
/// Decode a property as `Located<T>` instead of `T` to keep its location for later diagnostics.
/// Locations are nil when the value was built in code or decoded by another decoder.
public struct Located<Value> {
    /// The value.
    public var value: Value
    /// Where the value's node starts (at the opening quote of a quoted scalar).
    public var location: FileLocation?
    /// Where a scalar's text starts: just after the opening quote of a quoted scalar, else `location`.
    public var contentLocation: FileLocation?
    /// How a scalar was written, to locate a position inside its text; nil for other nodes and other decoders.
    public var source: YAMLScalarSource?

    /// Creates a located value.
    public init(
        _ value: Value, location: FileLocation? = nil, contentLocation: FileLocation? = nil,
        source: YAMLScalarSource? = nil
    ) {
        self.value = value
        self.location = location
        self.contentLocation = contentLocation ?? location
        self.source = source
    }
}

extension Located: Sendable where Value: Sendable {}
extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}

extension Located: Decodable where Value: Decodable {
    /// Decodes the value and records the location of its node.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Value.self)
        let location = YAMLFile.location(of: decoder)
        var contentLocation = location
        var source: YAMLScalarSource?
        if let yaml = decoder as? YAMLNodeDecoder, case let .scalar(scalar) = yaml.node {
            if scalar.style == .singleQuoted || scalar.style == .doubleQuoted {
                contentLocation?.column += 1
            }
            source = location.map { YAMLScalarSource(text: yaml.state.source, start: $0, style: scalar.style) }
        }
        self.init(value, location: location, contentLocation: contentLocation, source: source)
    }
}

extension Located: Encodable where Value: Encodable {
    /// Encodes the value alone.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
