import Yams

/// Writes text as a YAML scalar: plain when it reads back as the same text, else double-quoted.
enum YAMLQuoting {
    /// The text as a YAML scalar usable both as a mapping key and as a value.
    static func scalar(_ text: String) -> String {
        isSafePlain(text) ? text : YAMLScalar.quoted(text)
    }

    /// Whether `text` written without quotes reads back, as a key and as a value, as the same text.
    static func isSafePlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            first != " ", last != " ",
            !text.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || [0x85, 0x2028, 0x2029, 0xFEFF].contains($0.value)
            })
        else { return false }
        return readsBack(text, in: "k: \(text)\n", asKey: false) && readsBack(text, in: "\(text): v\n", asKey: true)
    }

    /// Whether parsing `yaml` gives a one-entry mapping whose key (or value) is the plain text `text`.
    private static func readsBack(_ text: String, in yaml: String, asKey: Bool) -> Bool {
        guard let root = try? Yams.compose(yaml: yaml), case let .mapping(mapping) = root, mapping.count == 1,
            let pair = mapping.first
        else { return false }
        // Yams tags mapping keys as text, so judge the text as an untagged plain scalar would read.
        guard case let .scalar(scalar) = asKey ? pair.key : pair.value, scalar.style == .plain,
            scalar.string == text
        else { return false }
        let plain = Node.Scalar(text, .implicit, .plain)
        let reading = YAMLScalar(scalar: plain)
        return !reading.isNull && !reading.looksNumericOrBoolean
            && Resolver.default.resolveTag(of: .scalar(plain)) == .str
    }
}
