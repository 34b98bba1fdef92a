extension Spec {
    /// Binds every term of every alternative, and checks that `+` only combines actions that compose.
    ///
    /// Nested specs in arguments are not bound; their seams decide what they mean.
    ///
    /// - Returns: the bound terms, alternatives × terms.
    /// - Throws: the first binding error, or "'return' does not compose with '+'" at the first term of a
    ///   composition whose action does not declare `composes`.
    public func bind(to signatures: [ActionSignature], seam: String) throws(SpecError) -> [[BoundAction]] {
        var result: [[BoundAction]] = []
        for composition in alternatives {
            var bound: [BoundAction] = []
            for term in composition.terms {
                let action = try term.bind(to: signatures, seam: seam)
                if composition.terms.count > 1, !action.signature.composes {
                    throw term.bindingError(
                        "'\(term.action)' does not compose with '+'",
                        at: term.actionLocation.start)
                }
                bound.append(action)
            }
            result.append(bound)
        }
        return result
    }
}
