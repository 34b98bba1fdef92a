/// A parsed field path for ``ModelMutator/Strategy/set(path:json:)``: `address.city`, `friends[0].name`, `tags[]`.
///
/// `[]` means every element; `[n]` one element. Keys containing `.` or `[` cannot be addressed.
///
/// ```swift
/// let path = try MutationPath("friends[].name")
/// path.shapePath // "friends[].name"
/// ```
struct MutationPath: Hashable, Sendable, CustomStringConvertible {
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
        case everyIndex
    }

    /// A concrete step into a JSON tree.
    enum Step: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    var components: [Component]

    /// Parses a dotted path; throws ``ModelMutator/MutationError/invalidPath(_:)`` when malformed.
    init(_ text: String) throws {
        var components: [Component] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let name = rest.prefix { $0 != "[" }
            guard !name.contains("]"), !name.isEmpty || rest.first == "[" else {
                throw ModelMutator.MutationError.invalidPath(text)
            }
            if !name.isEmpty { components.append(.key(String(name))) }
            rest = rest.dropFirst(name.count)
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                    throw ModelMutator.MutationError.invalidPath(text)
                }
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if inside.isEmpty {
                    components.append(.everyIndex)
                } else if let index = Int(inside), index >= 0 {
                    components.append(.index(index))
                } else {
                    throw ModelMutator.MutationError.invalidPath(text)
                }
                rest = rest[rest.index(after: close)...]
            }
        }
        guard !components.isEmpty else { throw ModelMutator.MutationError.invalidPath(text) }
        self.components = components
    }

    /// The path with indices replaced by `[]`, matching ``ModelField/path``.
    var shapePath: String {
        Self.display(
            components.map { component in
                if case .key(let key) = component { return .key(key) }
                return .index(-1)
            })
    }

    var description: String {
        var out = ""
        for component in components {
            switch component {
            case .key(let key): out += (out.isEmpty ? "" : ".") + key
            case .index(let index): out += "[\(index)]"
            case .everyIndex: out += "[]"
            }
        }
        return out
    }

    /// Concrete step lists present in `tree`; the final key may be absent (it is then created).
    func expand(in tree: JSONValue) -> [[Step]] {
        var results: [[Step]] = []
        func walk(_ value: JSONValue, _ index: Int, _ steps: [Step]) {
            guard index < components.count else { results.append(steps); return }
            let isLast = index == components.count - 1
            switch components[index] {
            case .key(let key):
                guard case .object = value else { return }
                if let child = value[key: key] {
                    walk(child, index + 1, steps + [.key(key)])
                } else if isLast {
                    results.append(steps + [.key(key)])
                }
            case .index(let position):
                guard case .array(let items) = value, position < items.count else { return }
                walk(items[position], index + 1, steps + [.index(position)])
            case .everyIndex:
                guard case .array(let items) = value else { return }
                for (position, item) in items.enumerated() { walk(item, index + 1, steps + [.index(position)]) }
            }
        }
        walk(tree, 0, [])
        return results
    }

    /// Human-readable text for concrete steps; an index of `-1` prints as `[]`.
    static func display(_ steps: [Step]) -> String {
        var out = ""
        for step in steps {
            switch step {
            case .key(let key): out += (out.isEmpty ? "" : ".") + key
            case .index(let index): out += index < 0 ? "[]" : "[\(index)]"
            }
        }
        return out.isEmpty ? "$" : out
    }
}

extension JSONValue {
    /// The value at concrete `steps`, or `nil` when absent.
    func value(at steps: [MutationPath.Step]) -> JSONValue? {
        var current = self
        for step in steps {
            switch step {
            case .key(let key):
                guard let next = current[key: key] else { return nil }
                current = next
            case .index(let index):
                guard case .array(let items) = current, items.indices.contains(index) else { return nil }
                current = items[index]
            }
        }
        return current
    }

    /// A copy whose object members follow the field order of `field` (unknown keys last, sorted), recursively.
    func ordered(like field: ModelField) -> JSONValue {
        switch (self, field.kind) {
        case (.object(let members), .object(let fields)):
            let rank = Dictionary(fields.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
            let sorted = members.sorted { lhs, rhs in
                let left = rank[lhs.key] ?? Int.max
                let right = rank[rhs.key] ?? Int.max
                return left != right ? left < right : lhs.key < rhs.key
            }
            return .object(
                sorted.map { member in
                    guard let child = fields.first(where: { $0.key == member.key }) else { return member }
                    return .init(key: member.key, value: member.value.ordered(like: child))
                })
        case (.array(let items), .array(let element)):
            return .array(items.map { $0.ordered(like: element) })
        default:
            return self
        }
    }

    /// Replaces the value at `steps` (creating a final missing key); returns `false` when the parent is missing.
    @discardableResult
    mutating func setValue(_ newValue: JSONValue, at steps: ArraySlice<MutationPath.Step>) -> Bool {
        guard let step = steps.first else {
            self = newValue
            return true
        }
        let rest = steps.dropFirst()
        switch step {
        case .key(let key):
            guard case .object = self else { return false }
            if rest.isEmpty {
                self[key: key] = newValue
                return true
            }
            guard var child = self[key: key], child.setValue(newValue, at: rest) else { return false }
            self[key: key] = child
            return true
        case .index(let index):
            guard case .array(var items) = self, items.indices.contains(index) else { return false }
            guard items[index].setValue(newValue, at: rest) else { return false }
            self = .array(items)
            return true
        }
    }
}
