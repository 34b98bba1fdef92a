/// In JSON an action is plain text: values as their canonical spec text (`1d`, `"Tokyo"`, `50%`), the kind as a
/// name (`duration`) with the words of a `word` kind in `choices`.
extension ActionSignature: Codable {
    private enum CodingKeys: String, CodingKey { case name, summary, parameters, composes }

    /// Decodes an action.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name),
            summary: try container.decodeIfPresent(String.self, forKey: .summary) ?? "",
            parameters: try container.decodeIfPresent([Parameter].self, forKey: .parameters) ?? [],
            composes: try container.decodeIfPresent(Bool.self, forKey: .composes) ?? false)
    }

    /// Encodes the action.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(summary, forKey: .summary)
        try container.encode(parameters, forKey: .parameters)
        try container.encode(composes, forKey: .composes)
    }
}

extension ActionSignature.Parameter: Codable {
    private enum CodingKeys: String, CodingKey { case name, kind, choices, defaultValue, step, summary, suggestions }

    /// Decodes a parameter; a value whose text does not read back is left out, an unknown kind accepts any value, and
    /// missing `suggestions` (a target from before them) are none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = Kind(
            name: try container.decode(String.self, forKey: .kind),
            choices: try container.decodeIfPresent([String].self, forKey: .choices) ?? [])
        self.init(
            try container.decode(String.self, forKey: .name), kind,
            default: try container.decodeIfPresent(String.self, forKey: .defaultValue).flatMap(Spec.Value.init(text:)),
            step: try container.decodeIfPresent(String.self, forKey: .step).flatMap(Spec.Value.init(text:)),
            summary: try container.decodeIfPresent(String.self, forKey: .summary) ?? "",
            suggestions: try container.decodeIfPresent([String].self, forKey: .suggestions) ?? [])
    }

    /// Encodes the parameter with its values as spec text; `suggestions` only when there are some.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(kind.name, forKey: .kind)
        if case .word(let words) = kind {
            try container.encode(words, forKey: .choices)
        } else {
            try container.encode([String](), forKey: .choices)
        }
        try container.encodeIfPresent(defaultValue?.description, forKey: .defaultValue)
        try container.encodeIfPresent(step?.description, forKey: .step)
        try container.encode(summary, forKey: .summary)
        if !suggestions.isEmpty { try container.encode(suggestions, forKey: .suggestions) }
    }
}

extension ActionSignature.Parameter.Kind {
    /// The kind's name: `string`, `integer`, `number`, `percent`, `duration`, `date`, `flag`, `json`, `spec`,
    /// `word` or `any`.
    public var name: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .number: "number"
        case .percent: "percent"
        case .duration: "duration"
        case .date: "date"
        case .flag: "flag"
        case .json: "json"
        case .spec: "spec"
        case .word: "word"
        case .any: "any"
        }
    }

    /// The kind called `name` (``name``); `choices` are a `word` kind's words. Unknown names accept any value.
    public init(name: String, choices: [String] = []) {
        switch name {
        case "string": self = .string
        case "integer": self = .integer
        case "number": self = .number
        case "percent": self = .percent
        case "duration": self = .duration
        case "date": self = .date
        case "flag": self = .flag
        case "json": self = .json
        case "spec": self = .spec
        case "word": self = .word(choices)
        default: self = .any
        }
    }
}

extension Spec.Value {
    /// The value `text` reads as when written as an argument (`1d`, `"Tokyo"`, `50%`); nil when it is not one value.
    public init?(text: String) {
        guard let spec = try? Spec(parsing: "x(\(text))"), spec.alternatives.count == 1,
            spec.alternatives[0].terms.count == 1, spec.alternatives[0].terms[0].arguments.count == 1,
            spec.alternatives[0].terms[0].arguments[0].label == nil
        else {
            return nil
        }
        self = spec.alternatives[0].terms[0].arguments[0].value
    }
}
