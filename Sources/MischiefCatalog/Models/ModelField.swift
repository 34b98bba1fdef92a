/// One field of a learned ``ModelShape``: where it is, what it decodes as, and whether it may be absent or null.
///
/// ```swift
/// let city = shape.field(at: "address.city")
/// // ModelField(key: "city", path: "address.city", kind: .string, isOptional: false)
/// ```
public struct ModelField: Hashable, Sendable, CustomStringConvertible {
    /// The coding key of this field (`[]` for an array element, empty for the root).
    public var key: String
    /// The dotted path from the root, e.g. `address.city`, `tags[]`, `friends[].name`.
    public var path: String
    /// What the field decodes as.
    public var kind: FieldKind
    /// `true` when the model asked with `decodeIfPresent`/`decodeNil` (an `Optional` field).
    public var isOptional: Bool

    /// Creates a field description.
    public init(key: String, path: String, kind: FieldKind, isOptional: Bool = false) {
        self.key = key
        self.path = path
        self.kind = kind
        self.isOptional = isOptional
    }

    /// The kind plus `?` when optional, e.g. `String?`.
    public var typeDescription: String {
        kind.description + (isOptional ? "?" : "")
    }

    /// `path: Type`, e.g. `nickname: String?`.
    public var description: String {
        "\(path): \(typeDescription)"
    }

    /// The direct children: object fields, or the array element.
    public var children: [ModelField] {
        switch kind {
        case .object(let fields): fields
        case .array(let element): [element]
        default: []
        }
    }

    /// This field followed by all its descendants, depth first.
    public var flattened: [ModelField] {
        [self] + children.flatMap(\.flattened)
    }
}
