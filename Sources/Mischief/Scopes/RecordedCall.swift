/// One seam call made inside a ``ChaosScope``, whatever the seam's types.
public struct RecordedCall: Sendable, CustomStringConvertible {
    /// How the call ended.
    public enum Outcome: Sendable {
        /// It returned this value.
        case returned(any Sendable)
        /// It threw this error.
        case threw(any Error)
    }

    /// What decided the call.
    public enum Server: Hashable, Sendable, CustomStringConvertible {
        /// A scope's change, described as spec-like text.
        case scope(String)
        /// A change applied to the registry (the console's, a profile's).
        case registry
        /// Nothing: the original ran.
        case original
        /// A test's mock (MischiefTesting's `MockFunction`) answered: the call is recorded as `mock.<name>`.
        case mock

        /// `scope: constant(1)`, `registry`, `original` or `mock`.
        public var description: String {
            switch self {
            case .scope(let behaviour): "scope: \(behaviour)"
            case .registry: "registry"
            case .original: "original"
            case .mock: "mock"
            }
        }
    }

    /// The seam called.
    public let seam: SeamID
    /// The call's place among every call the scope recorded, from zero.
    public let index: Int
    /// What the caller passed.
    public let input: any Sendable
    /// What it got back.
    public let outcome: Outcome
    /// What decided the call.
    public let servedBy: Server
    /// An identity of the calling task (equal for calls from one task while it runs), or nil outside a task.
    public let task: Int?

    /// `#2 net.request("/weather") → threw offline [scope: throw("offline")]`.
    public var description: String {
        let result =
            switch outcome {
            case .returned(let value): RecordedCall.show(value)
            case .threw(let error): "threw \(error)"
            }
        return "#\(index) \(seam)(\(RecordedCall.show(input))) → \(result) [\(servedBy)]"
    }

    /// A value as Swift prints it (strings quoted), cut at 80 characters.
    static func show(_ value: Any) -> String {
        let text = (value as? String)?.debugDescription ?? String(describing: value)
        return text.count > 80 ? text.prefix(79) + "…" : text
    }
}

/// One call to a seam of known types, as a scope's `calls(of:)` lists them.
public struct SeamCall<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    /// The call as recorded, with its place and task.
    public let recorded: RecordedCall
    /// What the caller passed.
    public let input: Input
    /// What it got back.
    public let result: Result<Output, Failure>

    init?(_ recorded: RecordedCall) {
        guard let input = recorded.input as? Input else { return nil }
        switch recorded.outcome {
        case .returned(let value):
            guard let output = value as? Output else { return nil }
            result = .success(output)
        case .threw(let error):
            guard let failure = error as? Failure else { return nil }
            result = .failure(failure)
        }
        self.recorded = recorded
        self.input = input
    }

    /// The value returned, or nil when the call threw.
    public var output: Output? { try? result.get() }
    /// The error thrown, or nil when the call returned.
    public var error: Failure? {
        if case .failure(let failure) = result { return failure }
        return nil
    }
    /// What decided the call.
    public var servedBy: RecordedCall.Server { recorded.servedBy }
}
