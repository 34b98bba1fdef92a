/// What ``Seam`` and ``AsyncSeam`` share besides their call paths: the declaration, the actions, the error maker,
/// and the steps that turn a spec or a behaviour into something the registry installs.
///
/// The two classes differ only in how a behaviour is compiled (`compileSync` or `compileAsync`) and in the box a
/// call runs; each passes that part in, so the rest is written once here.
///
/// It does not keep the seam's ``SeamInfo``: the seam has it (``AnySeam/info``) and passes it in, so a registered seam
/// holds its five strings once (issue 47, memory per registered seam).
struct SeamParts<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    /// The seam's own actions first, then the generic ones its types allow that it does not replace by name.
    let actions: [SeamAction<Input, Output, Failure>]
    let makeFailure: (@Sendable (String) -> Failure)?
    /// The actions' signatures, in their order.
    let signatures: [ActionSignature]

    /// The description of a seam of these types.
    static func info(
        _ id: SeamID, title: String, category: String, summary: String, stacking: Stacking, isAsync: Bool,
        canThrow: Bool
    ) -> SeamInfo {
        SeamInfo(
            id: id, title: title, category: category, summary: summary, stacking: stacking, isAsync: isAsync,
            canThrow: canThrow, signature: "(\(Input.self))\(isAsync ? " async" : "") -> \(Output.self)")
    }

    init(makeError: (@Sendable (String) -> Failure)?, actions own: [SeamAction<Input, Output, Failure>]) {
        makeFailure = makeError
        let generic = GenericActions.shared(for: (Input, Output, Failure).self, canThrow: makeError != nil)
        if own.isEmpty {
            actions = generic.actions  // shared with every seam of these types, as are their signatures
            signatures = generic.signatures
        } else {
            let names = Set(own.map(\.signature.name))
            actions = own + generic.actions.filter { !names.contains($0.signature.name) }
            signatures = actions.map(\.signature)
        }
    }

    /// Compiles `behaviour` with `compileNode` after checking it fits this seam's types.
    func compile<Run: Sendable>(
        _ behaviour: any Sendable, info: SeamInfo, context: LayerContext,
        with compileNode: (Behaviour<Input, Output, Failure>.Node, CompileContext<Failure>) throws(MischiefError)
            -> Run
    ) throws(MischiefError) -> any Sendable {
        guard let behaviour = behaviour as? Behaviour<Input, Output, Failure> else {
            throw .unsupported(info.id, "behaviour of type \(type(of: behaviour)) does not fit \(info.signature)")
        }
        try behaviour.node.checkDepth(seam: info.id)
        let compileContext = context.make(seam: info.id, isAsync: info.isAsync, makeFailure: makeFailure)
        let run = try compileNode(behaviour.node, compileContext)
        context.seeds = compileContext.seeds
        context.pauses = compileContext.pauses
        context.delays = compileContext.delays
        return run
    }

    /// Builds the behaviour `spec` describes with this seam's actions, and the spec's canonical text.
    func behaviour(
        from spec: Spec, info: SeamInfo, seed: UInt64?, sessionSeed: UInt64, fileAccess: FileAccess
    ) throws(SpecError) -> (behaviour: any Sendable, canonical: String) {
        let context = ActionContext(seam: info.id, seed: seed, sessionSeed: sessionSeed, fileAccess: fileAccess)
        let (behaviour, canonical) = try SpecBuilder(actions: actions, context: context).build(spec)
        return (behaviour, canonical)
    }

    /// The compiled runs of the active layers, newest first, as `Run`s: the one to use alone when a single run
    /// decides every call (one layer, or `.replace` stacking), or else all of them to try in turn.
    func stack<Run>(_ layers: [any Sendable], info: SeamInfo, as: Run.Type) -> (alone: Run?, all: [Run]) {
        let runs = layers.map { $0 as! Run }  // the registry only passes runs this seam's `compile` made
        return runs.count == 1 || info.stacking == .replace ? (runs[0], runs) : (nil, runs)
    }
}
