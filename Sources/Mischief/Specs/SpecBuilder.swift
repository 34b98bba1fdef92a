/// Turns a parsed spec into a behaviour for one seam, using the seam's actions.
///
/// - `a -> b`: a fallback chain.
/// - `a + b + c`: one composition: at most one action produces the value; actions that transform the value
///   apply after it, left to right; wrapping actions (delay) wrap the whole composition.
/// - `p%` (or `p%@key`) and `n*` on a composition's first term apply to the whole composition; on a later term
///   they are an error, since "half of an accent" means nothing. They count only the calls the composition takes:
///   when it is a `match` with no fallback (rules with a host or a path), the calls its rules accept.
struct SpecBuilder<Input: Sendable, Output: Sendable, Failure: Error> {
    typealias Built = Behaviour<Input, Output, Failure>
    let actions: [SeamAction<Input, Output, Failure>]
    let context: ActionContext

    var signatures: [ActionSignature] { actions.map(\.signature) }

    /// The behaviour and the spec's canonical text.
    func build(_ spec: Spec) throws(SpecError) -> (behaviour: Built, canonical: String) {
        var behaviours: [Built] = []
        var compositions: [Spec.Composition] = []
        for composition in spec.alternatives {
            let (behaviour, canonical) = try build(composition)
            behaviours.append(behaviour)
            compositions.append(canonical)
        }
        let canonical = Spec(alternatives: compositions).description
        let behaviour = behaviours.count == 1 ? behaviours[0] : .fallback(behaviours)
        return (behaviour.labelled(canonical), canonical)
    }

    private func build(_ composition: Spec.Composition) throws(SpecError) -> (Built, Spec.Composition) {
        var producer: (Built, Spec.Term)?
        var transforms: [@Sendable (Output) throws(Failure) -> Output] = []
        var wraps: [@Sendable (Built) -> Built] = []
        var canonicalTerms: [Spec.Term] = []
        let first = composition.terms[0]
        for (index, term) in composition.terms.enumerated() {
            if index > 0, term.probability != nil || term.count != nil {
                throw term.bindingError(
                    "put '%' and '*' on the first action of a '+' composition; they apply to all of it",
                    at: term.location.start)
            }
            var bare = term
            bare.probability = nil
            bare.count = nil
            let (effect, canonical) = try effect(of: bare)
            canonicalTerms.append(canonical)
            switch effect {
            case .produce(let behaviour):
                if let (_, earlier) = producer {
                    throw term.bindingError(
                        "'\(earlier.action)' and '\(term.action)' both make the value; a '+' composition takes one",
                        at: term.actionLocation.start)
                }
                if !transforms.isEmpty {
                    throw term.bindingError(
                        "'\(term.action)' replaces the value the actions before it changed; put it first",
                        at: term.actionLocation.start)
                }
                producer = (behaviour, term)
            case .transform(let transform):
                transforms.append(transform)
            case .wrap(let wrap):
                wraps.append(wrap)
            }
        }
        if composition.terms.count > 1 {
            for (term, canonical) in zip(composition.terms, canonicalTerms)
            where !(actions.first { $0.signature.name == canonical.action }?.signature.composes ?? true) {
                throw term.bindingError("'\(term.action)' does not compose with '+'", at: term.actionLocation.start)
            }
        }
        var behaviour = producer?.0 ?? .original
        for transform in transforms { behaviour = behaviour.map(transform) }
        for wrap in wraps.reversed() { behaviour = wrap(behaviour) }
        if first.count != nil || first.probability != nil {
            // Counted among the calls the composition takes, not every call of the seam (see countingTakenCalls).
            behaviour = behaviour.countingTakenCalls { taken in
                var modified = taken
                if let count = first.count { modified = .first(count, modified) }
                if let percent = first.probability {
                    modified = .probability(percent, per: first.probabilityScope, modified)
                }
                return modified
            }
        }
        canonicalTerms[0].probability = first.probability
        canonicalTerms[0].probabilityScope = first.probabilityScope
        canonicalTerms[0].count = first.count
        return (behaviour, Spec.Composition(terms: canonicalTerms))
    }

    private func effect(of term: Spec.Term) throws(SpecError) -> (SeamAction<Input, Output, Failure>.Effect, Spec.Term)
    {
        if term.action == "seq" {
            return try sequence(term)
        }
        var term = term
        if term.action == "print", !actions.contains(where: { $0.signature.name == "print" }) {
            term.action = "log"  // `print` is another name for the generic `log`; it prints back as `log`
        }
        let bound = try term.bind(to: signatures, seam: context.seam.rawValue)
        let action = actions.first { $0.signature.name == bound.signature.name }!
        return (try action.make(bound, context), bound.canonicalTerm)
    }

    /// `seq(a, b, …)`: every argument is a spec for this seam.
    private func sequence(_ term: Spec.Term) throws(SpecError) -> (SeamAction<Input, Output, Failure>.Effect, Spec.Term)
    {
        guard !term.arguments.isEmpty else {
            throw term.bindingError(
                "seq() needs at least one behaviour, such as seq(throw, off)", at: term.location.start)
        }
        var steps: [Built] = []
        var canonical = term
        for (index, argument) in term.arguments.enumerated() {
            if let label = argument.label {
                throw term.bindingError(
                    "seq takes specs without labels, found '\(label):'", at: argument.location.start)
            }
            let nested: Spec
            switch argument.value {
            case .spec(let spec): nested = spec
            case .word(let word):
                nested = Spec(
                    Spec.Term(
                        action: word, location: argument.location, actionLocation: argument.location,
                        source: term.source))
            case .string(let text):
                do { nested = try Spec(parsing: text) } catch {
                    throw term.bindingError("in seq: \(error.message)", at: argument.location.start)
                }
            default:
                throw term.bindingError(
                    "seq takes specs such as return(1) or off, found \(argument.value)",
                    at: argument.location.start)
            }
            let (behaviour, text) = try build(withSource(nested, term.source))
            steps.append(behaviour)
            canonical.arguments[index].value = Self.argumentValue(text)
        }
        return (.produce(.sequence(steps)), canonical)
    }

    private func withSource(_ spec: Spec, _ source: String?) -> Spec {
        var spec = spec
        for a in spec.alternatives.indices {
            for t in spec.alternatives[a].terms.indices { spec.alternatives[a].terms[t].source = source }
        }
        return spec
    }

    /// A nested spec's canonical text as an argument value: a bare word when it is one.
    private static func argumentValue(_ canonical: String) -> Spec.Value {
        // Canonical text always parses (the round-trip tests hold it to that); fall back to a string, not a crash.
        guard let spec = try? Spec(parsing: canonical) else { return .string(canonical) }
        if spec.alternatives.count == 1, spec.alternatives[0].terms.count == 1 {
            let term = spec.alternatives[0].terms[0]
            if term.arguments.isEmpty, term.probability == nil, term.count == nil { return .word(term.action) }
        }
        return .spec(spec)
    }
}
