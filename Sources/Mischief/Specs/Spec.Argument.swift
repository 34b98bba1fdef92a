extension Spec {
    /// One argument of a term: a positional value, or `label: value`.
    ///
    /// The location is ignored by `==` and `hash(into:)`.
    public struct Argument: Hashable, Sendable, CustomStringConvertible {
        /// The name before `:`, or nil for a positional argument.
        public var label: String?
        /// The value.
        public var value: Value
        /// The columns of the whole argument, label included. Not part of equality.
        public var location: SourceRange

        /// Creates an argument.
        public init(label: String? = nil, value: Value, location: SourceRange = .unknown) {
            self.label = label
            self.value = value
            self.location = location
        }

        /// The canonical text: `value` or `label: value`.
        public var description: String {
            if let label {
                return "\(label): \(value)"
            }
            return value.description
        }

        /// Compares the argument ignoring source locations.
        public static func == (lhs: Argument, rhs: Argument) -> Bool {
            lhs.label == rhs.label && lhs.value == rhs.value
        }

        /// Hashes the same parts `==` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(label)
            hasher.combine(value)
        }
    }
}
