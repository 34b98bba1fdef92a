import Mischief

extension ActionRow {
    /// A spec text to start from for this action, as the action picker prefills it and Space applies it.
    public struct Draft: Sendable, Equatable {
        /// The text, such as `shift(1d)` or `city("")`.
        public var text: String
        /// Where the cursor goes (in characters): the first blank to fill in, else the end.
        public var cursor: Int
        /// False when a required argument was left blank for the user to fill in.
        public var isComplete: Bool

        /// Creates a draft.
        public init(text: String, cursor: Int, isComplete: Bool) {
            self.text = text
            self.cursor = cursor
            self.isComplete = isComplete
        }
    }

    /// The action written with its main parameter's value (its default, else one step) and blanks for required
    /// parameters without a default; other parameters keep their defaults and are left out.
    ///
    /// `shift` with a step of 1d gives `shift(1d)`; `throw` gives `throw`; `city` (a required string) gives
    /// `city("")` with the cursor between the quotes.
    public var draft: Draft {
        var arguments: [String] = []
        var blank: Int?
        var prefix = name + "("
        for (position, parameter) in parameters.enumerated() where parameter.kind != "flag" {
            var value: String
            var isBlank = false
            if parameter.step != nil {
                value = parameter.defaultValue ?? parameter.step ?? ""
            } else if parameter.defaultValue != nil {
                continue
            } else {
                value = parameter.kind == "string" ? "\"\"" : ""
                isBlank = true
            }
            let label = position == 0 ? "" : parameter.name + ": "
            if !arguments.isEmpty {
                prefix += ", "
            }
            if isBlank, blank == nil {
                blank = prefix.count + label.count + (value.isEmpty ? 0 : 1)
            }
            value = label + value
            prefix += value
            arguments.append(value)
        }
        guard !arguments.isEmpty else {
            return Draft(text: name, cursor: name.count, isComplete: true)
        }
        let text = name + "(" + arguments.joined(separator: ", ") + ")"
        return Draft(text: text, cursor: blank ?? text.count, isComplete: blank == nil)
    }
}

extension SeamRow {
    /// The spec Space applies when the seam has no last-used one: the first action (other than `off`) whose
    /// draft needs nothing filled in; nil when there is none.
    public var defaultSpec: String? {
        actions.lazy.filter { $0.name != "off" }.map(\.draft).first { $0.isComplete }?.text
    }

    /// `spec` with its first nudgeable term's main parameter moved by `steps` steps, in canonical form.
    ///
    /// The first term (left to right, then along `->` fallbacks) whose action has a main parameter is nudged:
    /// `shift(1d)` by +1 with a step of a day gives `shift(2d)`. Returns nil when the spec does not parse, no
    /// term has a main parameter, or the value cannot move (see `Spec.Term.nudged(by:signatures:)`).
    public func nudged(_ spec: String, by steps: Int) -> String? {
        guard var parsed = try? Spec(parsing: spec) else {
            return nil
        }
        let signatures = actions.map(\.signature)
        let nudgeable = Set(actions.filter { $0.mainParameter != nil }.map(\.name))
        for (alternative, composition) in parsed.alternatives.enumerated() {
            for (index, term) in composition.terms.enumerated() where nudgeable.contains(term.action) {
                guard let moved = term.nudged(by: steps, signatures: signatures) else {
                    return nil
                }
                parsed.alternatives[alternative].terms[index] = moved
                return parsed.description
            }
        }
        return nil
    }
}
