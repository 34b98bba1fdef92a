/// A coding key made from a mapping key's text or a list position, used by the YAML decoder.
struct YAMLCodingKey: CodingKey, Hashable {
    /// The key's text (for a list position: `Index N`).
    var stringValue: String
    /// The list position, for a key that stands for one.
    var intValue: Int?
    /// Whether the key stands for a position in a list rather than a mapping key.
    var isIndex: Bool

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = Int(stringValue)
        self.isIndex = false
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
        self.isIndex = false
    }

    /// A key for position `index` (0-based) in a list.
    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
        self.isIndex = true
    }

    /// The key `super`, used by `superDecoder()`.
    static let `super` = YAMLCodingKey(stringValue: "super")

    /// Describes a coding path for messages: `for 'seed'`, `for item 2 of 'values'`, or `at the top level`.
    static func phrase(for path: [any CodingKey]) -> String {
        var items: [Int] = []
        var name: String?
        for key in path.reversed() {
            if (key as? YAMLCodingKey)?.isIndex == true, let index = key.intValue {
                items.append(index + 1)
            } else {
                name = key.stringValue
                break
            }
        }
        if name == nil && items.isEmpty { return "at the top level" }
        var parts = items.map { "item \($0)" }
        if let name { parts.append("'\(name)'") }
        return "for " + parts.joined(separator: " of ")
    }
}
