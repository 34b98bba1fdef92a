import Mischief

extension SeamSnapshot {
    /// The spec Space applies when the seam has no last-used one: the first action (other than `off` and `pause`) whose
    /// draft needs nothing filled in; nil when there is none.
    public var defaultSpec: String? {
        // Not `pause` either: Space should never leave the target waiting.
        actions.lazy.filter { $0.name != "off" && $0.name != "pause" }.map(\.draft).first { $0.isComplete }?.text
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
        let nudgeable = Set(actions.filter { $0.mainParameter != nil }.map(\.name))
        for (alternative, composition) in parsed.alternatives.enumerated() {
            for (index, term) in composition.terms.enumerated() where nudgeable.contains(term.action) {
                guard let moved = term.nudged(by: steps, signatures: actions) else {
                    return nil
                }
                parsed.alternatives[alternative].terms[index] = moved
                return parsed.description
            }
        }
        return nil
    }
}

extension SeamSnapshot {
    /// The layers applied now, oldest first (the last answers on a replacing seam).
    public var activeLayers: [LayerSnapshot] { layers.filter { $0.status == .active } }
}
