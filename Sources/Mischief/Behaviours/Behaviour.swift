/// What a seam does instead of, or around, its original.
///
/// Behaviours are values: build them with the static factories and combine them freely.
///
/// ```swift
/// let now = Seam<Void, Date, Never>("clock.now", title: "Now", category: "Clock", summary: "The wall clock") {
///     Date()
/// }
/// try registry.apply(now, .constant(Date(timeIntervalSince1970: 0)))
/// try registry.apply(fetch, .sequence([.throwing(URLError(.timedOut)), .original]))   // fail once, then work
/// try registry.apply(fetch, .probability(20, .throwing(message: "flaky")).delayed(by: .milliseconds(300)))
/// ```
///
/// A behaviour may *not fire* for a call (a missed probability, a used-up count, no matching rule): the call
/// then falls through, to the next behaviour of a ``fallback(_:)`` chain or, at the top, to the original.
public struct Behaviour<Input: Sendable, Output: Sendable, Failure: Error>: Sendable, CustomStringConvertible {
    indirect enum Node: Sendable {
        case original
        case constant(Output, label: String)
        case closure(@Sendable (Call<Input, Output, Failure>) throws(Failure) -> Output)
        case asyncClosure(@Sendable (AsyncCall<Input, Output, Failure>) async throws(Failure) -> Output)
        case random(seed: UInt64?, @Sendable (inout SeededGenerator) -> Output)
        case failure(Failure)
        case failureMessage(String)
        case sequence([Node])
        case match([MatchRule], fallback: Node?)
        case delay(Duration, then: Node)
        /// Holds the call until released or until the maximum time passes, then runs `then`; a nil gate gets
        /// one of its own when compiled.
        case pause(max: Duration, gate: PauseGate?, then: Node)
        /// Adds the call (the seam, `message`, its input) to the registry's event log, rate-limited, then runs
        /// `then`.
        case log(String, then: Node)
        /// Ends the process on purpose (refused unless the registry allows it).
        case crash(String)
        case probability(Double, seed: UInt64?, per: ProbabilityScope, Node)
        case firstCalls(Int, Node)
        case transform(Node, @Sendable (Output) throws(Failure) -> Output)
        case fallback([Node])
        case labelled(String, Node)
    }

    struct MatchRule: Sendable {
        let matches: @Sendable (Input) -> Bool
        /// `matches` on the input where it lies (see ``Rule/test``).
        let test: @Sendable (UnsafePointer<Input>) -> Bool
        /// The value an equality rule compares with (see ``Rule/equality``); nil for any other rule.
        var equality: Rule.Equality? = nil
        let node: Node
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    /// The behaviour as spec-like text, such as `3*return(1) -> off`.
    public var description: String { node.description }

    /// Prints as `label` instead of its structure (specs use this to keep their canonical text).
    public func labelled(_ label: String) -> Behaviour { Behaviour(.labelled(label, node)) }
}

// MARK: - Factories

extension Behaviour {
    /// Pass-through: the original runs. As a fallback it stops the chain (`off` in specs).
    public static var original: Behaviour { Behaviour(.original) }

    /// Always returns `value`.
    public static func constant(_ value: Output) -> Behaviour {
        Behaviour(.constant(value, label: describeValue(value)))
    }

    /// Runs `body` with the call: its input, its zero-based index and a way to call the original.
    public static func closure(
        _ body: @escaping @Sendable (Call<Input, Output, Failure>) throws(Failure) -> Output
    ) -> Behaviour {
        Behaviour(.closure(body))
    }

    /// Runs `body` with the call on an ``AsyncSeam``; it may suspend and call the original.
    public static func asyncClosure(
        _ body: @escaping @Sendable (AsyncCall<Input, Output, Failure>) async throws(Failure) -> Output
    ) -> Behaviour {
        Behaviour(.asyncClosure(body))
    }

    /// Returns values made by `generate` from a seeded generator: call *i* always gets the same value for the
    /// same seed. Without a seed the registry derives one from its session seed; either way the seed in use is
    /// shown in snapshots and events so a run can be replayed.
    public static func random(
        seed: UInt64? = nil, _ generate: @escaping @Sendable (inout SeededGenerator) -> Output
    ) -> Behaviour {
        Behaviour(.random(seed: seed, generate))
    }

    /// Throws `error`.
    public static func throwing(_ error: Failure) -> Behaviour { Behaviour(.failure(error)) }

    /// Throws the seam's own error made from `message`; refused at apply time on a seam that cannot throw or
    /// does not say how to make an error from a message.
    public static func throwing(message: String) -> Behaviour { Behaviour(.failureMessage(message)) }

    /// Call *i* gets behaviour *i*; once the list is used up, the last one repeats.
    public static func sequence(_ behaviours: [Behaviour]) -> Behaviour {
        Behaviour(.sequence(behaviours.map(\.node)))
    }

    /// Waits `duration`, then runs the original. An async seam suspends (and stops waiting when its task is
    /// cancelled); a synchronous seam blocks the calling thread.
    public static func delay(_ duration: Duration) -> Behaviour { Behaviour(.delay(duration, then: .original)) }

    /// Holds each call until it is released, then runs the original: makes a race deterministic ("hold the
    /// second request until the first has been cached").
    ///
    /// An async seam suspends the call (a cancelled task stops waiting); a synchronous seam blocks the calling
    /// thread. A hold ends when `gate` releases it (``PauseGate/release()``), when ``Registry/release(_:)``
    /// releases the seam, when the change is reverted (the kill switch and an ended control session revert
    /// too), or when `max` has passed (the registry's event log says so); every way, the call then goes on.
    ///
    /// - Parameters:
    ///   - gate: The gate that holds the calls, to release them and wait for them from code; nil makes one
    ///     when the behaviour is applied (release through the registry then).
    ///   - max: The longest a call is held: more than zero and at most ``PauseGate/longestMax``.
    public static func pause(_ gate: PauseGate? = nil, max: Duration = PauseGate.defaultMax) -> Behaviour {
        Behaviour.original.paused(gate, max: max)
    }

    /// Logs each call to the registry's event log, then runs the original (`log("message")` in specs).
    ///
    /// The event names the seam and says `message` and a short rendering of the input (cut at 80 characters).
    /// A hot seam cannot flood the log: each `log` records at most 10 calls a second
    /// and counts the rest, and the next event it records says how many it left out ("and 1200 more").
    public static func log(_ message: String) -> Behaviour { Behaviour.original.logged(message) }

    /// Ends the process on purpose, for crash-recovery tests (`crash("message")` in specs): writes `message` to
    /// standard error and exits with status ``Registry/crashExitStatus`` (86), running the process's exit
    /// handlers (a console in the process restores the terminal; a control server removes its socket).
    ///
    /// Refused when applied, with a ``MischiefError`` saying how to allow it, unless the registry allows crashes
    /// (``Registry/allowsCrash``, `MISCHIEF_ALLOW_CRASH=1`, or the `allowCrash` option of a control server).
    public static func crash(_ message: String) -> Behaviour { Behaviour(.crash(message)) }

    /// Runs `behaviour` for `percent` percent of calls (0–100), or of keys, chosen by a seeded generator; the other
    /// calls fall through.
    ///
    /// Per call (`10%` in specs), each call is drawn on its own. Per key (`10%@key`), each ``ChaosKey`` is drawn
    /// once, from a hash of the key and the seed, so "10% of users" is the same users on every call and in every
    /// run with the same seed; a call without a key never fires:
    /// ```swift
    /// try registry.apply(orders, .probability(10, per: .key, .throwing(message: "unavailable")))
    /// ChaosKey.$current.withValue("user-42") { _ = try? orders() }   // always fails, or never, for user-42
    /// ```
    ///
    /// - Parameters:
    ///   - percent: The share, 0–100.
    ///   - scope: What is drawn: each call (the default) or each key (see ``ProbabilityScope``).
    ///   - behaviour: What the chosen calls get.
    ///   - seed: The seed; nil derives one from the registry's session seed, the seam and the behaviour.
    public static func probability(
        _ percent: Double, per scope: ProbabilityScope = .call, _ behaviour: Behaviour, seed: UInt64? = nil
    ) -> Behaviour {
        precondition(percent >= 0 && percent <= 100, "probability must be between 0 and 100, got \(percent)")
        return Behaviour(.probability(percent, seed: seed, per: scope, behaviour.node))
    }

    /// Runs `behaviour` for the first `count` calls that reach it; later calls fall through.
    public static func first(_ count: Int, _ behaviour: Behaviour) -> Behaviour {
        precondition(count > 0, "first(_:_:) needs a positive count, got \(count)")
        return Behaviour(.firstCalls(count, behaviour.node))
    }

    /// Runs the original and passes its output through `body`.
    public static func transform(_ body: @escaping @Sendable (Output) throws(Failure) -> Output) -> Behaviour {
        Behaviour(.transform(.original, body))
    }

    /// Tries each behaviour in order until one fires (`a -> b` in specs).
    public static func fallback(_ behaviours: [Behaviour]) -> Behaviour {
        Behaviour(.fallback(behaviours.map(\.node)))
    }

    /// Matches the input against ordered rules; the first match wins. Without a match the call falls through
    /// to `otherwise`, or, when that is nil, to whatever lies beneath (the original at the top).
    public static func match(_ rules: [Rule], otherwise: Behaviour? = nil) -> Behaviour {
        Behaviour(
            .match(
                rules.map {
                    MatchRule(matches: $0.matches, test: $0.test, equality: $0.equality, node: $0.behaviour.node)
                },
                fallback: otherwise?.node))
    }

    /// One rule of ``match(_:otherwise:)``.
    public struct Rule: Sendable {
        let matches: @Sendable (Input) -> Bool
        /// The same test on the input where it lies, for the compiled call path: an equality rule compares there
        /// without copying the input (a copy through the value witness table is most of a rule's cost in the
        /// unspecialised code that runs it).
        let test: @Sendable (UnsafePointer<Input>) -> Bool
        /// Set for a rule made by ``when(_:_:)``: the value it compares with, and a search for the input among such
        /// values, built where the input's type is known. Stacked `merge` layers of equality rules then look for the
        /// input among all their values in one call (``EqualityRun``) instead of calling each rule's test.
        let equality: Equality?
        let behaviour: Behaviour

        /// An equality rule's value, and a search that serves a run of such rules.
        @usableFromInline
        struct Equality: Sendable {
            /// The value the rule compares the input with.
            let value: Input
            /// The index of the first of `count` values at `values` (of the input's type) equal to the input, or `count`
            /// when none is.
            let firstEqual: EqualSearch

            @usableFromInline
            init(
                value: Input,
                firstEqual: @escaping EqualSearch
            ) {
                self.value = value
                self.firstEqual = firstEqual
            }
        }

        /// A rule that applies `behaviour` when `matches` says so.
        public init(_ matches: @escaping @Sendable (Input) -> Bool, _ behaviour: Behaviour) {
            self.init(matches, test: { matches($0.pointee) }, behaviour)
        }

        @usableFromInline
        init(
            _ matches: @escaping @Sendable (Input) -> Bool, test: @escaping @Sendable (UnsafePointer<Input>) -> Bool,
            equality: Equality? = nil, _ behaviour: Behaviour
        ) {
            self.matches = matches
            self.test = test
            self.equality = equality
            self.behaviour = behaviour
        }
    }
}

/// A search for a call's input among `count` values of its type laid out from `values`: the index of the first equal to
/// it, or `count`. Raw pointers, so the type is the same at every abstraction: a closure of a type that names the
/// generic input would be wrapped in a reabstraction thunk each time it is stored at another one, and called through
/// all of them.
@usableFromInline
typealias EqualSearch = @Sendable (_ input: UnsafeRawPointer, _ values: UnsafeRawPointer, _ count: Int) -> Int

extension Behaviour.Rule where Input: Equatable {
    /// A rule that applies `behaviour` to calls whose input equals `input`.
    @inlinable
    public static func when(_ input: Input, _ behaviour: Behaviour) -> Self {
        Self(
            { $0 == input }, test: { $0.pointee == input },
            equality: Equality(value: input) { called, values, count in
                let called = called.assumingMemoryBound(to: Input.self)
                let values = values.assumingMemoryBound(to: Input.self)
                var index = 0
                while index < count, !(called.pointee == values[index]) { index &+= 1 }
                return index
            }, behaviour)
    }
}

extension Behaviour where Output: ExpressibleByNilLiteral {
    /// Returns nil (`nil` in specs); only for seams whose output is optional.
    public static var returningNil: Behaviour { Behaviour(.constant(nil, label: "nil")) }
}

extension Behaviour where Output: RandomValue {
    /// Returns random values of the output type (numbers, booleans, strings, or any ``RandomValue``).
    public static func random(seed: UInt64? = nil) -> Behaviour {
        Behaviour(.random(seed: seed, { generator in Output.random(using: &generator) }))
    }
}

// MARK: - Combinators

extension Behaviour {
    /// Waits `duration` before this behaviour.
    public func delayed(by duration: Duration) -> Behaviour { Behaviour(.delay(duration, then: node)) }

    /// Holds each call (see ``pause(_:max:)``) before this behaviour.
    public func paused(_ gate: PauseGate? = nil, max: Duration = PauseGate.defaultMax) -> Behaviour {
        precondition(
            max > .zero && max <= PauseGate.longestMax,
            "pause needs a maximum above zero and at most a day, got \(max)")
        return Behaviour(.pause(max: max, gate: gate, then: node))
    }

    /// Logs each call (see ``log(_:)``) before this behaviour.
    public func logged(_ message: String) -> Behaviour { Behaviour(.log(message, then: node)) }

    /// This behaviour for the first `count` calls only.
    public func first(_ count: Int) -> Behaviour { .first(count, self) }

    /// This behaviour for `percent` percent of calls, or of keys (see ``probability(_:per:_:seed:)``).
    public func probability(_ percent: Double, per scope: ProbabilityScope = .call, seed: UInt64? = nil) -> Behaviour {
        .probability(percent, per: scope, self, seed: seed)
    }

    /// Passes this behaviour's output through `body`.
    public func map(_ body: @escaping @Sendable (Output) throws(Failure) -> Output) -> Behaviour {
        Behaviour(.transform(node, body))
    }

    /// Falls back to `other` when this behaviour does not fire.
    public func otherwise(_ other: Behaviour) -> Behaviour { .fallback([self, other]) }
}

// MARK: - Description

func describeValue(_ value: some Any) -> String {
    switch value {
    case let string as String: return "return(\(quoted(string)))"
    case let optional as any OptionalDescribable where optional.isNil: return "nil"
    default: return "return(\(value))"
    }
}

/// What `log` says when the spec gives no message.
let logDefaultMessage = "called"
/// What `crash` says when the spec gives no message.
let crashDefaultMessage = "crashed by Mischief"

/// A string as specs quote it.
func quoted(_ string: String) -> String { SpecFormat.quoted(string) }

protocol OptionalDescribable { var isNil: Bool { get } }
extension Optional: OptionalDescribable { var isNil: Bool { self == nil } }

func describeDuration(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let nanoseconds = Int128(seconds) * 1_000_000_000 + Int128(attoseconds / 1_000_000_000)
    let sign = nanoseconds < 0 ? "-" : ""
    let magnitude = nanoseconds.magnitude
    let units: [(UInt128, String)] = [
        (86_400_000_000_000, "d"), (3_600_000_000_000, "h"), (60_000_000_000, "m"), (1_000_000_000, "s"),
        (1_000_000, "ms"), (1_000, "us"),
    ]
    for (size, name) in units where magnitude % size == 0 && magnitude != 0 {
        return "\(sign)\(magnitude / size)\(name)"
    }
    return "\(sign)\(magnitude)ns"
}

extension Behaviour.Node: CustomStringConvertible {
    var description: String {
        switch self {
        case .original: return "off"
        case .constant(_, let label): return label
        case .closure: return "closure"
        case .asyncClosure: return "closure"
        case .random(let seed, _): return seed.map { "random(seed: \($0))" } ?? "random"
        case .failure(let error): return "throw(\(quoted(String(describing: error))))"
        case .failureMessage(let message): return "throw(\(quoted(message)))"
        case .sequence(let nodes): return "seq(\(nodes.map(\.description).joined(separator: ", ")))"
        case .match(let rules, let fallback):
            let rest = fallback.map { " -> \($0)" } ?? ""
            return "match(\(rules.count) rule\(rules.count == 1 ? "" : "s"))\(rest)"
        case .delay(let duration, let then):
            if case .original = then { return "delay(\(describeDuration(duration)))" }
            return "delay(\(describeDuration(duration))) + \(then)"
        case .pause(let max, _, let then):
            let term = max == PauseGate.defaultMax ? "pause" : "pause(\(describeDuration(max)))"
            if case .original = then { return term }
            return "\(term) + \(then)"
        case .log(let message, let then):
            let term = message == logDefaultMessage ? "log" : "log(\(quoted(message)))"
            if case .original = then { return term }
            return "\(term) + \(then)"
        case .crash(let message): return message == crashDefaultMessage ? "crash" : "crash(\(quoted(message)))"
        case .probability(let percent, _, let scope, let node):
            let keyed = scope == .key ? "@key " : ""
            return "\(SpecFormat.number(percent))%\(keyed)\(node.termDescription)"
        case .firstCalls(let count, let node): return "\(count)*\(node.termDescription)"
        case .transform(let node, _):
            if case .original = node { return "transform" }
            return "\(node) + transform"
        case .fallback(let nodes): return nodes.map(\.description).joined(separator: " -> ")
        case .labelled(let label, _): return label
        }
    }

    /// The description as one term, wrapped in `seq(…)` when it is a chain, so prefixes read unambiguously.
    var termDescription: String {
        let text = description
        return text.contains(" + ") || text.contains(" -> ") ? "seq(\(text))" : text
    }
}
