/// A value decoded from a file, with the warnings found while decoding it.
public struct Decoded<Value> {
    /// The decoded value.
    public var value: Value
    /// Problems that did not stop decoding, such as unknown keys.
    public var warnings: [FileDiagnostic]

    /// Creates a decoded value.
    public init(value: Value, warnings: [FileDiagnostic] = []) {
        self.value = value
        self.warnings = warnings
    }
}

extension Decoded: Sendable where Value: Sendable {}
extension Decoded: Equatable where Value: Equatable {}
extension Decoded: Hashable where Value: Hashable {}
