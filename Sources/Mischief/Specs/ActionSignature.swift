/// What an action of a seam accepts: its name, parameters and whether it composes with `+`.
///
/// ```swift
/// ActionSignature("shift", summary: "Moves the clock", parameters: [
///     .init("by", .duration, step: .duration(SpecDuration(nanoseconds: 3_600_000_000_000)), summary: "Offset"),
/// ], composes: true)
/// ```
public struct ActionSignature: Hashable, Sendable {
    /// The action's name, as typed in specs.
    public var name: String
    /// A one-line description.
    public var summary: String
    /// The parameters, in positional order.
    public var parameters: [Parameter]
    /// Whether the action may appear in a `+` composition with other actions.
    public var composes: Bool
    /// Whether the action makes the call wait (a latency slept outside the behaviour, as `system.net`'s hooks do),
    /// so that it cannot answer a held call, as `delay` and `pause` cannot. Known in the target only (not sent).
    public var waits: Bool

    /// Creates a signature.
    public init(
        _ name: String, summary: String, parameters: [Parameter] = [], composes: Bool = false, waits: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.composes = composes
        self.waits = waits
    }

    /// The main parameter (the first with a `step`), which the console nudges with + and -.
    public var mainParameter: Parameter? {
        parameters.first { $0.step != nil }
    }

    /// One parameter of an action.
    public struct Parameter: Hashable, Sendable {
        /// The name, used as `name: value` and, for flags, as a bare word.
        public var name: String
        /// The kind of value accepted.
        public var kind: Kind
        /// The value used when the argument is omitted; nil makes the parameter required (flags default to
        /// `false`).
        public var defaultValue: Spec.Value?
        /// A one-line description.
        public var summary: String
        /// The amount one nudge changes the value by; non-nil marks the main parameter (at most one per signature).
        public var step: Spec.Value?
        /// Values a console offers when completing this parameter (a location's city names), in the target's
        /// words. Unlike a `word` kind's words, they do not limit what is accepted. Empty: nothing to offer.
        public var suggestions: [String]

        /// Creates a parameter.
        ///
        /// - Parameters:
        ///   - name: The name, as written before `:`.
        ///   - kind: The kind of value accepted.
        ///   - defaultValue: The value used when the argument is omitted; nil makes it required.
        ///   - step: The amount one nudge changes the value by; non-nil marks the main parameter.
        ///   - summary: A one-line description.
        ///   - suggestions: Values a console offers when completing it; they do not limit what is accepted.
        public init(
            _ name: String,
            _ kind: Kind,
            default defaultValue: Spec.Value? = nil,
            step: Spec.Value? = nil,
            summary: String = "",
            suggestions: [String] = []
        ) {
            self.name = name
            self.kind = kind
            self.defaultValue = defaultValue
            self.summary = summary
            self.step = step
            self.suggestions = suggestions
        }

        /// True when the argument may be omitted.
        public var isOptional: Bool {
            defaultValue != nil || kind == .flag
        }

        /// The kinds of values a parameter accepts.
        public enum Kind: Hashable, Sendable {
            /// A quoted string; a bare word is accepted too.
            case string
            /// A whole number.
            case integer
            /// A number; integers are accepted.
            case number
            /// A percentage written with `%`, between 0% and 100%.
            case percent
            /// A duration such as `250ms`.
            case duration
            /// An ISO 8601 date.
            case date
            /// `true` or `false`; the bare parameter name means `true`.
            case flag
            /// Any value with a JSON form (string, number, boolean, null, array, object).
            case json
            /// A spec; a word (an action name) or a quoted string holding a spec is accepted and parsed.
            case spec
            /// One of these words; an empty list accepts any word. A quoted string holding the word is accepted.
            case word([String])
            /// Any value, unchanged.
            case any

            /// How messages name the kind, e.g. "a duration".
            var phrase: String {
                switch self {
                case .string: return "a string"
                case .integer: return "an integer"
                case .number: return "a number"
                case .percent: return "a percentage"
                case .duration: return "a duration"
                case .date: return "a date"
                case .flag: return "true or false"
                case .json: return "a JSON value"
                case .spec: return "a spec"
                case .word(let words):
                    return words.isEmpty ? "a word" : "one of " + words.joined(separator: ", ")
                case .any: return "a value"
                }
            }
        }
    }
}
