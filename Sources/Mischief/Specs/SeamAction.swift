/// An action a seam understands in specs, such as `shift(+1d)` on `clock.now` or `city("Tokyo")` on
/// `location.current`: its signature (name, summary, parameters) and how it becomes a behaviour.
///
/// ```swift
/// let shift = SeamAction<Void, Date, Never>.transform(
///     ActionSignature("shift", summary: "moves the clock", parameters: [
///         .init("by", .duration, step: .duration(SpecDuration(.seconds(86_400))), summary: "how far"),
///     ], composes: true)
/// ) { action, _ in
///     let seconds = Double(action.duration("by")!.components.seconds)
///     return { $0.addingTimeInterval(seconds) }
/// }
/// ```
public struct SeamAction<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    /// What a bound action does within a `+` composition.
    public enum Effect: Sendable {
        /// Produces the call's value (return, throw, city): at most one per composition.
        case produce(Behaviour<Input, Output, Failure>)
        /// Changes the value of what comes before it, or of the original (accents, shift, jitter).
        case transform(@Sendable (Output) throws(Failure) -> Output)
        /// Wraps the whole composition (delay).
        case wrap(@Sendable (Behaviour<Input, Output, Failure>) -> Behaviour<Input, Output, Failure>)
    }

    /// Name, summary and parameters, as specs and consoles show them.
    public let signature: ActionSignature
    let make: @Sendable (BoundAction, ActionContext) throws(SpecError) -> Effect

    /// An action built from its bound arguments.
    public init(
        _ signature: ActionSignature,
        make: @escaping @Sendable (BoundAction, ActionContext) throws(SpecError) -> Effect
    ) {
        self.signature = signature
        self.make = make
    }

    /// An action that produces the value.
    public static func produce(
        _ signature: ActionSignature,
        _ make: @escaping @Sendable (BoundAction, ActionContext) throws(SpecError) -> Behaviour<Input, Output, Failure>
    ) -> SeamAction {
        SeamAction(signature) { (action, context) throws(SpecError) in .produce(try make(action, context)) }
    }

    /// An action that changes the value of what comes before it.
    public static func transform(
        _ signature: ActionSignature,
        _ make:
            @escaping @Sendable (BoundAction, ActionContext) throws(SpecError)
            -> @Sendable (Output) throws(Failure) -> Output
    ) -> SeamAction {
        SeamAction(signature) { (action, context) throws(SpecError) in .transform(try make(action, context)) }
    }
}

/// What an action's builder knows besides its arguments.
public struct ActionContext: Sendable {
    /// The seam the spec is for.
    public let seam: SeamID
    /// The seed of the profile the spec comes from, if it has one. Random parts without a seed of their own
    /// derive theirs from it (else from the registry's session seed).
    public let seed: UInt64?
    /// The registry's session seed.
    public let sessionSeed: UInt64
    /// Which files the spec may read: ``FileAccess/unrestricted`` for the user's own, confined for the control API.
    public let fileAccess: FileAccess

    /// The seed for random parts that have none of their own: the profile's, else the session's.
    public var randomSeed: UInt64 { seed ?? sessionSeed }

    /// A context for building `seam`'s actions.
    public init(seam: SeamID, seed: UInt64? = nil, sessionSeed: UInt64 = 0, fileAccess: FileAccess = .unrestricted) {
        self.seam = seam
        self.seed = seed
        self.sessionSeed = sessionSeed
        self.fileAccess = fileAccess
    }

    /// Reads the file an action's `argument` names, under ``fileAccess``: every action that reads a file does it here.
    ///
    /// - Parameters:
    ///   - path: The path the spec gave, as written.
    ///   - limit: The most bytes the action takes (at most the policy's own limit).
    ///   - argument: The action's parameter that named the file, for the error's column.
    ///   - action: The bound action being built.
    /// - Throws: A ``SpecError`` at `argument` saying why the file cannot be read.
    public func readFile(
        _ path: String, limit: Int? = nil, argument: String, of action: BoundAction
    ) throws(SpecError) -> [UInt8] {
        do throws(FileAccessError) {
            return try fileAccess.read(path, limit: limit)
        } catch {
            throw self.error(error.message, argument: argument, of: action)
        }
    }

    /// An error pointing at `argument` of `action` (or at the action when the argument was not written).
    public func error(_ message: String, argument: String? = nil, of action: BoundAction) -> SpecError {
        let term = action.term
        // A named argument, else the positional argument that filled the parameter, else the action's name.
        let positional = action.signature.parameters.filter { $0.kind != .flag }.map(\.name)
        let unlabelled = term.arguments.filter { $0.label == nil }
        let written = argument.flatMap { name in
            term.arguments.first { $0.label == name }
                ?? positional.firstIndex(of: name).flatMap { $0 < unlabelled.count ? unlabelled[$0] : nil }
        }
        let column = written?.location.start ?? term.actionLocation.start
        return SpecError(
            text: term.source ?? term.description, column: term.source == nil ? 1 : column, message: message)
    }
}
