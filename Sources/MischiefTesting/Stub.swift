import Mischief
import MischiefCatalog

/// The answers a stubbed seam or a mock function gives, by input: values, errors, closures, sequences.
///
/// The newest rule whose matcher accepts a call's input answers it; a rule with several answers gives them in
/// turn and then repeats its last. A call no rule accepts is *unstubbed*: a strict stub fails the test, naming
/// the stub and the input. Either kind then answers it as ``Unstubbed`` says: a stubbed seam runs its original
/// unless told to give the default value; a mock function, which has no original, gives the default (nil for an
/// optional output, `()` for `Void`, `.fixture` for a `Fixturable` one).
///
/// ```swift
/// let fetch = stub(api.fetchUser)                      // strict, in the current test scope
/// fetch.returns(.fixture)                              // every input
/// fetch.when(.equal(42)).throws(URLError(.notConnectedToInternet))
/// fetch.when(.equal(7)).returns(sequence: [ann, bob])  // ann, then bob from then on
/// ```
public final class Stub<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    /// One answer to one call.
    enum Answer: Sendable {
        case value(Output)
        case failure(Failure)
        case closure(@Sendable (Input) throws(Failure) -> Output)
    }

    struct Rule: Sendable {
        let matcher: InputMatcher<Input>
        let answers: [Answer]
        var used = 0
    }

    /// The stub's name in messages: the seam's id or the mock's name.
    public let name: String
    /// Whether an unstubbed call fails the test.
    public let isStrict: Bool
    /// What an unstubbed call gets.
    public let otherwise: Unstubbed
    let site: CallSite
    private let rules = Locked<[Rule]>([])

    init(name: String, strict: Bool, otherwise: Unstubbed, site: CallSite) {
        self.name = name
        self.isStrict = strict
        self.otherwise = otherwise
        self.site = site
    }

    // MARK: Answers for every input

    /// Returns `value` for every input (rules added later come first).
    @discardableResult public func returns(_ value: Output) -> Stub { when(.any).returns(value) }

    /// Returns `values` in turn for every input, then the last one from then on.
    @discardableResult public func returns(sequence values: [Output]) -> Stub {
        when(.any).returns(sequence: values)
    }

    /// Throws `error` for every input.
    @discardableResult public func `throws`(_ error: Failure) -> Stub { when(.any).throws(error) }

    /// Answers every input with `body`, which may call completion handlers the input carries.
    @discardableResult public func answers(_ body: @escaping @Sendable (Input) throws(Failure) -> Output) -> Stub {
        when(.any).answers(body)
    }

    /// The answers for the inputs `matcher` accepts.
    public func when(_ matcher: InputMatcher<Input>) -> When { When(stub: self, matcher: matcher) }

    /// Forgets every rule.
    public func reset() { rules.withLock { $0.removeAll() } }

    /// Adds answers for the inputs one matcher accepts; see ``Stub/when(_:)``.
    public struct When: Sendable {
        let stub: Stub
        let matcher: InputMatcher<Input>

        /// Returns `value`.
        @discardableResult public func returns(_ value: Output) -> Stub { stub.add(matcher, [.value(value)]) }
        /// Returns `values` in turn, then the last one from then on.
        @discardableResult public func returns(sequence values: [Output]) -> Stub {
            precondition(!values.isEmpty, "returns(sequence:) needs at least one value")
            return stub.add(matcher, values.map(Answer.value))
        }
        /// Throws `error`.
        @discardableResult public func `throws`(_ error: Failure) -> Stub { stub.add(matcher, [.failure(error)]) }
        /// Answers with `body`.
        @discardableResult public func answers(_ body: @escaping @Sendable (Input) throws(Failure) -> Output) -> Stub {
            stub.add(matcher, [.closure(body)])
        }
    }

    private func add(_ matcher: InputMatcher<Input>, _ answers: [Answer]) -> Stub {
        rules.withLock { $0.append(Rule(matcher: matcher, answers: answers)) }
        return self
    }

    // MARK: Answering

    /// The answer for `input`, or nil when no rule accepts it.
    func answer(for input: Input) -> Answer? {
        rules.withLock { rules in
            guard let index = rules.lastIndex(where: { $0.matcher.matches(input) }) else { return nil }
            let rule = rules[index]
            rules[index].used += 1
            return rule.answers[min(rule.used, rule.answers.count - 1)]
        }
    }

    /// Answers a call: a rule's answer, else (after failing the test when strict) the default value when
    /// ``otherwise`` asks for it and there is one; nil when the caller's fallback should run (the original).
    func resolve(_ input: Input) throws(Failure) -> Output? {
        guard let answer = answer(for: input) else {
            if isStrict { fail("Unstubbed call to \(name) with input \(input)", at: site) }
            if otherwise == .defaultValue, let value = defaultValue(Output.self) { return value }
            return nil
        }
        switch answer {
        case .value(let value): return value
        case .failure(let error): throw error
        case .closure(let body): return try body(input)
        }
    }

    /// Answers a call, running `fallback` when ``resolve(_:)`` has no answer.
    func respond(to input: Input, fallback: () throws(Failure) -> Output) throws(Failure) -> Output {
        if let output = try resolve(input) { return output }
        return try fallback()
    }
}

/// What a call no rule answers gets, after a strict stub has failed the test.
public enum Unstubbed: Sendable {
    /// The seam's original.
    case original
    /// nil for an optional output, `()` for `Void`, `.fixture` for a `Fixturable` one; the original (or, for a
    /// mock, a stop) when the output has none.
    case defaultValue
}

/// The value an unstubbed call returns: nil for an optional, `()` for `Void`, `.fixture` for a ``Fixturable``.
func defaultValue<T>(_ type: T.Type) -> T? {
    if let optional = T.self as? any ExpressibleByNilLiteral.Type { return optional.init(nilLiteral: ()) as? T }
    if T.self == Void.self { return () as? T }
    if let fixturable = T.self as? any Fixturable.Type { return fixturable.fixture as? T }
    return nil
}

/// Stubs a synchronous `seam` in the current test scope: its calls in the test get the stub's answers; other
/// tasks, and other tests, see the seam as it was.
///
/// - Parameters:
///   - seam: The seam to stub; it need not be registered anywhere.
///   - strict: Whether a call no rule answers fails the test (naming the seam and the input).
///   - otherwise: What such a call gets then: the original (the default), or the default value.
///   - fileID: The file a failure is reported at; leave the default, the caller's.
///   - filePath: The file's full path, for XCTest; leave the default.
///   - line: The line a failure is reported at; leave the default.
///   - column: The column a failure is reported at; leave the default.
public func stub<Input, Output, Failure>(
    _ seam: Seam<Input, Output, Failure>, strict: Bool = true, otherwise: Unstubbed = .original,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Stub<Input, Output, Failure> {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let stub = Stub<Input, Output, Failure>(
        name: seam.info.id.rawValue, strict: strict, otherwise: otherwise, site: site)
    install(on: seam, site: site) { (scope) throws(MischiefError) in
        try scope.apply(
            seam,
            Behaviour.closure { (call) throws(Failure) in
                try stub.respond(to: call.input) { () throws(Failure) in try call.original() }
            }.labelled("stub"))
    }
    return stub
}

/// Stubs an async `seam` in the current test scope; see the synchronous form.
public func stub<Input, Output, Failure>(
    _ seam: AsyncSeam<Input, Output, Failure>, strict: Bool = true, otherwise: Unstubbed = .original,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Stub<Input, Output, Failure> {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let stub = Stub<Input, Output, Failure>(
        name: seam.info.id.rawValue, strict: strict, otherwise: otherwise, site: site)
    install(on: seam, site: site) { (scope) throws(MischiefError) in
        try scope.apply(
            seam,
            Behaviour.asyncClosure { (call) async throws(Failure) in
                if let output = try stub.resolve(call.input) { return output }
                return try await call.original()
            }.labelled("stub"))
    }
    return stub
}

/// Applies a stub's behaviour to the current test scope with `apply`, failing the test at `site` when there is
/// no scope or the seam refuses it.
private func install(on seam: AnySeam, site: CallSite, _ apply: (ChaosScope) throws(MischiefError) -> Void) {
    guard let scope = currentScope(for: "stub(\(seam.info.id))", site: site) else { return }
    do throws(MischiefError) {
        try apply(scope.chaos)
    } catch {
        fail("Mischief could not stub \(seam.info.id): \(error)", at: site)
    }
}
