/// A mutable node the recording decoder fills in while a type decodes itself.
final class ShapeNode {
    enum Form {
        case unknown
        case leaf(FieldKind)
        case object
        case array
    }

    var form: Form = .unknown
    var isOptional = false
    private var keys: [String] = []
    private var children: [String: ShapeNode] = [:]
    private var elementNode: ShapeNode?

    func child(_ key: String) -> ShapeNode {
        markObject()
        if let existing = children[key] { return existing }
        let node = ShapeNode()
        keys.append(key)
        children[key] = node
        return node
    }

    var element: ShapeNode {
        if case .unknown = form { form = .array }
        if let elementNode { return elementNode }
        let node = ShapeNode()
        elementNode = node
        return node
    }

    func markObject() {
        if case .unknown = form { form = .object }
    }

    func markLeaf(_ kind: FieldKind) {
        if case .unknown = form { form = .leaf(kind) }
    }

    func build(key: String, path: String) -> ModelField {
        let kind: FieldKind
        switch form {
        case .unknown: kind = .other
        case .leaf(let leaf): kind = leaf
        case .object:
            kind = .object(
                keys.map { name in
                    children[name]!.build(key: name, path: path.isEmpty ? name : path + "." + name)
                })
        case .array: kind = .array((elementNode ?? ShapeNode()).build(key: "[]", path: path + "[]"))
        }
        return ModelField(key: key, path: path, kind: kind, isOptional: isOptional)
    }
}
