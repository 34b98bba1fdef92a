import Mischief

/// An action of a seam as plain text: a `Codable` mirror of ``ActionSignature``, so it can come over a socket.
///
/// Values are kept as their canonical spec text (`1d`, `"Tokyo"`, `50%`); ``signature`` rebuilds the
/// ``ActionSignature`` when the console needs the core's binding and nudging.
public struct ActionRow: Sendable, Codable, Equatable {
    /// The action's name, as typed in specs.
    public var name: String
    /// A one-line description.
    public var summary: String
    /// The parameters, in positional order.
    public var parameters: [Parameter]
    /// Whether the action may appear in a `+` composition.
    public var composes: Bool

    /// Creates a row.
    public init(name: String, summary: String, parameters: [Parameter] = [], composes: Bool = false) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.composes = composes
    }

    /// The row of a signature.
    public init(_ signature: ActionSignature) {
        self.init(
            name: signature.name, summary: signature.summary, parameters: signature.parameters.map(Parameter.init),
            composes: signature.composes)
    }

    /// The main parameter (the first with a step), which `+` and `-` nudge.
    public var mainParameter: Parameter? {
        parameters.first { $0.step != nil }
    }

    /// The signature this row mirrors; values whose text does not read back are left out.
    public var signature: ActionSignature {
        ActionSignature(name, summary: summary, parameters: parameters.map(\.signatureParameter), composes: composes)
    }

    /// One parameter of an action.
    public struct Parameter: Sendable, Codable, Equatable {
        /// The name, used as `name: value` and, for flags, as a bare word.
        public var name: String
        /// The kind of value: `string`, `integer`, `number`, `percent`, `duration`, `date`, `flag`, `json`,
        /// `spec`, `word` or `any`.
        public var kind: String
        /// For `word` parameters, the accepted words (empty accepts any word).
        public var choices: [String]
        /// The default value's spec text; nil when the parameter is required.
        public var defaultValue: String?
        /// The spec text of one nudge; non-nil marks the main parameter.
        public var step: String?
        /// A one-line description.
        public var summary: String

        /// Creates a parameter.
        public init(
            name: String, kind: String, choices: [String] = [], defaultValue: String? = nil, step: String? = nil,
            summary: String = ""
        ) {
            self.name = name
            self.kind = kind
            self.choices = choices
            self.defaultValue = defaultValue
            self.step = step
            self.summary = summary
        }

        /// The row of a signature's parameter.
        public init(_ parameter: ActionSignature.Parameter) {
            var choices: [String] = []
            if case .word(let words) = parameter.kind {
                choices = words
            }
            self.init(
                name: parameter.name, kind: Self.name(of: parameter.kind), choices: choices,
                defaultValue: parameter.defaultValue?.description, step: parameter.step?.description,
                summary: parameter.summary)
        }

        /// How the console describes the kind: `duration`, `one of fast, slow`.
        public var kindText: String {
            kind == "word" && !choices.isEmpty ? "one of " + choices.joined(separator: ", ") : kind
        }

        /// The core's parameter.
        var signatureParameter: ActionSignature.Parameter {
            ActionSignature.Parameter(
                name, Self.kind(named: kind, choices: choices), default: defaultValue.flatMap(Self.value),
                step: step.flatMap(Self.value), summary: summary)
        }

        /// The name of a kind.
        static func name(of kind: ActionSignature.Parameter.Kind) -> String {
            switch kind {
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

        /// The kind of a name; unknown names accept any value.
        static func kind(named name: String, choices: [String]) -> ActionSignature.Parameter.Kind {
            switch name {
            case "string": .string
            case "integer": .integer
            case "number": .number
            case "percent": .percent
            case "duration": .duration
            case "date": .date
            case "flag": .flag
            case "json": .json
            case "spec": .spec
            case "word": .word(choices)
            default: .any
            }
        }

        /// The value a spec text reads as, by parsing it as the argument of a term.
        static func value(_ text: String) -> Spec.Value? {
            guard let spec = try? Spec(parsing: "x(\(text))"), spec.alternatives.count == 1,
                spec.alternatives[0].terms.count == 1, spec.alternatives[0].terms[0].arguments.count == 1
            else {
                return nil
            }
            let argument = spec.alternatives[0].terms[0].arguments[0]
            return argument.label == nil ? argument.value : nil
        }
    }
}
