import Mischief

/// One method of a hand-written protocol mock: its answers (a ``Stub``) and every call it received.
///
/// A mock is a class with one line per method, no code generation:
/// ```swift
/// final class MockWeatherAPI: WeatherAPI {
///     let forecast = FuncMock<String, Forecast>("forecast")
///     let save = ThrowingFuncMock<Forecast, Void>("save")
///     let unitValue = PropMock<UnitTemperature>("unit", .celsius)
///     let decode = AnyFuncMock("decode")
///
///     func forecast(for city: String) async -> Forecast { forecast.call(city) }
///     func save(_ forecast: Forecast) throws { try save.call(forecast) }
///     var unit: UnitTemperature { get { unitValue.get() } set { unitValue.set(newValue) } }
///     func decode<T: Decodable>(_ data: Data) -> T { decode.call(data) }
/// }
///
/// let api = MockWeatherAPI()
/// api.forecast.returns(.fixture)
/// api.forecast.when(.equal("Atlantis")).answers { city in Forecast(city: city, summary: "under water") }
/// #expect(api.forecast.calls == ["Tokyo"])
/// ```
/// Mocks are strict by default: a call no rule answers fails the test, naming the mock and the input, and then
/// returns the default (nil, `()`, `.fixture`). A method whose output has none stops the test process after
/// that failure, as it has nothing to return: stub it, or make the mock nice and give it a default answer.
public final class MockFunction<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    /// The answers; add rules with `returns`, `throws`, `answers`, `when`.
    public let stub: Stub<Input, Output, Failure>
    /// The id its calls are recorded under in a test's scope, `mock.<name>`, so expectations can order them
    /// among seam calls (`expect(api.fetch, calledBefore: cacheStore)`).
    public let callID: SeamID
    private let log = Locked<[Input]>([])

    /// A mock method named `name` for messages.
    public init(
        _ name: String, strict: Bool = true, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        stub = Stub(name: name, strict: strict, otherwise: .defaultValue, site: site)
        callID = MockFunction.callID(for: name)
    }

    /// Calls the mock: records the input (also in the test's scope, when there is one) and answers it.
    public func call(_ input: Input) throws(Failure) -> Output {
        record(input)
        do throws(Failure) {
            let output = try stub.respond(to: input) { () throws(Failure) in
                preconditionFailure(
                    "\(stub.name) has no answer for \(input) and \(Output.self) has no default: stub it")
            }
            recordInScope(input, .returned(output))
            return output
        } catch {
            recordInScope(input, .threw(error))
            throw error
        }
    }

    func record(_ input: Input) { log.withLock { $0.append(input) } }

    /// Records a call in the current task's scope, beside the seam calls made in it.
    func recordInScope(_ input: any Sendable, _ outcome: RecordedCall.Outcome) {
        guard let scope = ChaosScope.current, scope.recordsCalls else { return }
        scope.record(
            seam: callID, input: input, outcome: outcome, servedBy: .mock, task: withUnsafeCurrentTask { $0?.hashValue }
        )
    }

    /// `mock.<name>`, with what a seam id cannot hold replaced by `-`.
    static func callID(for name: String) -> SeamID {
        let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) ? $0 : "-" })
        return (try? SeamID("mock." + (cleaned.isEmpty ? "function" : cleaned))) ?? "mock.function"
    }

    /// The inputs of every call, in order.
    public var calls: [Input] { log.withLock { $0 } }
    /// How many times it was called.
    public var callCount: Int { log.withLock { $0.count } }

    /// Forgets the calls and the answers.
    public func reset() {
        log.withLock { $0.removeAll() }
        stub.reset()
    }

    /// Returns `value` for every input.
    @discardableResult public func returns(_ value: Output) -> Stub<Input, Output, Failure> { stub.returns(value) }
    /// Returns `values` in turn for every input, then the last from then on.
    @discardableResult public func returns(sequence values: [Output]) -> Stub<Input, Output, Failure> {
        stub.returns(sequence: values)
    }
    /// Throws `error` for every input.
    @discardableResult public func `throws`(_ error: Failure) -> Stub<Input, Output, Failure> { stub.throws(error) }
    /// Answers every input with `body`, which may call completion handlers the input carries.
    @discardableResult public func answers(
        _ body: @escaping @Sendable (Input) throws(Failure) -> Output
    ) -> Stub<Input, Output, Failure> {
        stub.answers(body)
    }
    /// The answers for the inputs `matcher` accepts.
    public func when(_ matcher: InputMatcher<Input>) -> Stub<Input, Output, Failure>.When { stub.when(matcher) }
}

extension MockFunction where Input == Void {
    /// Calls a mock method without arguments.
    public func call() throws(Failure) -> Output { try call(()) }
}

/// A mock method that does not throw: `let fetch = FuncMock<String, Int>("fetch")`.
public typealias FuncMock<Input: Sendable, Output: Sendable> = MockFunction<Input, Output, Never>
/// A mock method that throws: `let save = ThrowingFuncMock<User, Void>("save")`.
public typealias ThrowingFuncMock<Input: Sendable, Output: Sendable> = MockFunction<Input, Output, any Error>

/// A mock property: the value its getter returns, and every get and set.
public final class PropMock<Value: Sendable>: Sendable {
    private struct State {
        var value: Value
        var gets = 0
        var sets: [Value] = []
    }

    /// The property's name for messages.
    public let name: String
    private let state: Locked<State>

    /// A mock property whose getter returns `value` until it is set.
    public init(_ name: String, _ value: Value) {
        self.name = name
        state = Locked(State(value: value))
    }

    /// The getter: counts the get and returns the current value.
    public func get() -> Value {
        state.withLock { state in
            state.gets += 1
            return state.value
        }
    }

    /// The setter: records the value and returns it from then on.
    public func set(_ value: Value) {
        state.withLock { state in
            state.sets.append(value)
            state.value = value
        }
    }

    /// Makes the getter return `value` without counting a set.
    public func returns(_ value: Value) { state.withLock { $0.value = value } }
    /// How many times the getter ran.
    public var getCount: Int { state.withLock { $0.gets } }
    /// The values set, in order.
    public var sets: [Value] { state.withLock { $0.sets } }

    /// Forgets the gets and sets (the value stays).
    public func reset() {
        state.withLock { state in
            state.gets = 0
            state.sets = []
        }
    }
}

/// A mock for a generic method: inputs and outputs of any type, cast where the method returns.
///
/// ```swift
/// let decode = AnyFuncMock("decode")
/// func decode<T: Decodable>(_ data: Data) -> T { decode.call(data) }
/// mock.decode.returns(User.fixture)
/// ```
public final class AnyFuncMock: Sendable {
    /// The answers; their values are cast to the type each call returns.
    public let function: MockFunction<[any Sendable], any Sendable, any Error>

    /// A mock generic method named `name`.
    public init(
        _ name: String, strict: Bool = true, fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        function = MockFunction(name, strict: strict, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Calls the mock with `arguments` and returns its answer as `T`. An answer of another type, an error, or no
    /// answer when `T` has no default fails the test and stops it, as there is nothing to return.
    public func call<T>(_ arguments: any Sendable..., as type: T.Type = T.self) -> T {
        do {
            return try answer(arguments)
        } catch {
            fail("\(name) threw \(error) from a call that cannot throw", at: function.stub.site)
            preconditionFailure("\(name) threw \(error) from a call that cannot throw")
        }
    }

    /// Calls the mock with `arguments` and returns its answer as `T`, or throws its error.
    public func callThrowing<T>(_ arguments: any Sendable..., as type: T.Type = T.self) throws -> T {
        try answer(arguments)
    }

    private struct Unanswered: Error {}

    private var name: String { function.stub.name }

    private func answer<T>(_ arguments: [any Sendable]) throws -> T {
        function.record(arguments)
        let value: any Sendable
        do {
            value = try function.stub.respond(to: arguments) { throw Unanswered() }
        } catch is Unanswered {
            if let value = defaultValue(T.self) {
                function.recordInScope(arguments, .returned(String(describing: value)))  // T need not be Sendable
                return value
            }
            preconditionFailure("\(name) has no answer for \(arguments) and \(T.self) has no default: stub it")
        } catch {
            function.recordInScope(arguments, .threw(error))
            throw error
        }
        function.recordInScope(arguments, .returned(value))
        if let value = value as? T { return value }
        fail("\(name) answered \(value), which is not a \(T.self)", at: function.stub.site)
        preconditionFailure("\(name) answered \(value), which is not a \(T.self)")
    }

    /// Returns `value` for every call.
    @discardableResult public func returns(_ value: any Sendable) -> Stub<[any Sendable], any Sendable, any Error> {
        function.returns(value)
    }
    /// The id its calls are recorded under in a test's scope, `mock.<name>`.
    public var callID: SeamID { function.callID }
    /// The arguments of every call, in order.
    public var calls: [[any Sendable]] { function.calls }
    /// How many times it was called.
    public var callCount: Int { function.callCount }
    /// Forgets the calls and the answers.
    public func reset() { function.reset() }
}

/// Expects `mock` to have been called `count` times (among calls whose input `matcher` accepts) by the end of the
/// current test scope; without one, checks it now.
public func expect<Input, Output, Failure>(
    _ mock: MockFunction<Input, Output, Failure>, _ count: CallCount, where matcher: InputMatcher<Input> = .any,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let check: @Sendable () -> Void = {
        let calls = mock.calls
        let matching = calls.filter(matcher.matches)
        guard !count.admits(matching.count) else { return }
        let filter = matcher.description == "any input" ? "" : " with \(matcher)"
        let listed =
            calls.isEmpty
            ? "It received no calls."
            : "Its calls:\n" + calls.enumerated().map { "  #\($0.offset) \($0.element)" }.joined(separator: "\n")
        fail(
            "Expected \(mock.stub.name) to be called \(count)\(filter), but it was called \(times(matching.count)).\n"
                + listed, at: site)
    }
    if let scope = TestScope.current {
        scope.addCheck { _ in check() }
    } else {
        check()
    }
}

/// A seam or a mock method: something whose calls a test's scope records, so `expect(_:calledBefore:)` can order
/// them.
public protocol RecordedCallSource {
    /// The id its calls are recorded under: a seam's id, or `mock.<name>`.
    var callID: SeamID { get }
}

/// Every seam is a source of recorded calls, so `expect(_:calledBefore:)` can order a seam among mocks.
extension AnySeam: RecordedCallSource {
    /// The seam's id.
    public var callID: SeamID { info.id }
}

extension MockFunction: RecordedCallSource {}
extension AnyFuncMock: RecordedCallSource {}
