import Foundation

/// The learned structure of a `Decodable` model: every field path, its kind, and whether it is optional.
///
/// Learned by decoding the type with a recording decoder. Without a sample every request is answered with a plausible
/// synthetic value (first enum case, one-element arrays, present optionals); with a sample JSON the real values drive
/// decoding, and anything missing from the sample is synthesised.
///
/// ```swift
/// let shape = try ModelShape.learn(User.self)
/// shape.paths // ["id", "name", "age", "nickname", "address", "address.city", "tags", "tags[]", ...]
/// shape.field(at: "role")?.kind // .stringEnum(["admin", "member", "guest"])
/// ```
///
/// Limits: types whose decoding needs specific content (enums with associated values, validating initialisers,
/// raw-value enums that are not `CaseIterable`) cannot be synthesised and make `learn` throw unless a sample is given.
/// Dictionaries learn their keys only from a sample. Recursive types are explored to a bounded depth.
public struct ModelShape: Hashable, Sendable, CustomStringConvertible {
    /// The name of the learned type, e.g. `User`.
    public var typeName: String
    /// The root value (path ``ModelField/path`` is empty); usually an ``FieldKind/object(_:)``.
    public var root: ModelField

    /// Creates a shape from a root field.
    public init(typeName: String, root: ModelField) {
        self.typeName = typeName
        self.root = root
    }

    /// The top-level fields (empty when the root is not an object).
    public var fields: [ModelField] {
        if case .object(let fields) = root.kind { return fields }
        return []
    }

    /// Every field below the root, depth first, including array elements (`tags[]`).
    public var allFields: [ModelField] {
        root.children.flatMap(\.flattened)
    }

    /// The paths of ``allFields``.
    public var paths: [String] {
        allFields.map(\.path)
    }

    /// The field at a dotted path; indices are accepted and ignored (`friends[3].name` ≙ `friends[].name`).
    public func field(at path: String) -> ModelField? {
        let normalized = Self.normalize(path)
        if normalized.isEmpty { return root }
        return allFields.first { $0.path == normalized }
    }

    /// One `path: Type` line per field.
    public var description: String {
        ([typeName] + allFields.map { "  " + $0.description }).joined(separator: "\n")
    }

    /// Learns the shape of `type`, optionally guided by a sample JSON document.
    ///
    /// - Throws: the sample's JSON parse error, or an error from the type's own `init(from:)` when it cannot be
    ///   satisfied by synthetic values.
    public static func learn<T: Decodable>(_ type: T.Type, from sample: Data? = nil) throws -> ModelShape {
        let source = try sample.map { try JSONValue.parse($0) }
        return try learn(type, source: source)
    }

    static func learn<T: Decodable>(_ type: T.Type, source: JSONValue?) throws -> ModelShape {
        let node = ShapeNode()
        _ = try RecordingDecoder.decodeValue(type, node: node, source: source, codingPath: [])
        return ModelShape(typeName: String(describing: type), root: node.build(key: "", path: ""))
    }

    /// Replaces `[n]` by `[]` so concrete paths map onto shape paths.
    static func normalize(_ path: String) -> String {
        var out = ""
        var inBracket = false
        for character in path {
            if character == "[" { inBracket = true; out.append("["); continue }
            if character == "]" { inBracket = false; out.append("]"); continue }
            if !inBracket { out.append(character) }
        }
        return out
    }
}
