/// What a model field decodes as, learned by ``ModelShape/learn(_:from:)``.
///
/// ```swift
/// if case .stringEnum(let cases) = shape.field(at: "role")?.kind { print(cases) } // ["admin", "guest"]
/// ```
public indirect enum FieldKind: Hashable, Sendable, CustomStringConvertible {
    /// A `String` (or a single-value wrapper around one).
    case string
    /// A fixed-width integer of `bits` width, signed or not (`Int` is `bits: 64, signed: true` on 64-bit).
    case integer(bits: Int, signed: Bool)
    /// A `Double` (also used for `Decimal`).
    case double
    /// A `Float`.
    case float
    /// A `Bool`.
    case bool
    /// A `Date`; its JSON form depends on the encoder's date strategy.
    case date
    /// A `UUID`.
    case uuid
    /// A `URL`.
    case url
    /// A `Data` blob; its JSON form depends on the encoder's data strategy.
    case data
    /// A nested keyed object with its fields (paths are already prefixed, e.g. `address.city`).
    case object([ModelField])
    /// An array (or set) whose element is described by the field (path ends in `[]`).
    case array(ModelField)
    /// A `RawRepresentable & CaseIterable` enum with `String` raw values, listing every case.
    case stringEnum([String])
    /// A `RawRepresentable & CaseIterable` enum with `Int` raw values, listing every case.
    case intEnum([Int])
    /// Anything the recorder could not classify.
    case other

    /// Short type name, e.g. `Int32`, `[String]`, `enum(admin|guest)`.
    public var description: String {
        switch self {
        case .string: "String"
        case .integer(let bits, let signed): (signed ? "Int" : "UInt") + (bits == Int.bitWidth ? "" : "\(bits)")
        case .double: "Double"
        case .float: "Float"
        case .bool: "Bool"
        case .date: "Date"
        case .uuid: "UUID"
        case .url: "URL"
        case .data: "Data"
        case .object(let fields): "{" + fields.map(\.key).joined(separator: ", ") + "}"
        case .array(let element): "[" + element.typeDescription + "]"
        case .stringEnum(let cases): "enum(" + cases.joined(separator: "|") + ")"
        case .intEnum(let cases): "enum(" + cases.map(String.init).joined(separator: "|") + ")"
        case .other: "other"
        }
    }

    /// `true` for integer, double and float.
    public var isNumber: Bool {
        switch self {
        case .integer, .double, .float: true
        default: false
        }
    }
}
