import Synchronization

/// A named interception point for an `async` call (a network request, a database read).
///
/// ```swift
/// let fetchUser = AsyncSeam<UUID, User, any Error>(
///     "api.user", title: "Fetch user", category: "API", summary: "GET /users/{id}"
/// ) { id in try await api.user(id) }
/// ```
/// Delays suspend the calling task (and end early if it is cancelled); ``Behaviour/asyncClosure(_:)`` may await
/// the original.
public final class AsyncSeam<Input: Sendable, Output: Sendable, Failure: Error>: AnySeam, @unchecked Sendable {
    @usableFromInline let original: @Sendable (Input) async throws(Failure) -> Output
    let parts: SeamParts<Input, Output, Failure>
    /// The actions specs can use on this seam: its own first, then the generic ones its types allow.
    public var actions: [SeamAction<Input, Output, Failure>] { parts.actions }

    /// Declares an async seam around `original`; the parameters are those of ``Seam``.
    public init(
        _ id: SeamID, title: String, category: String, summary: String, stacking: Stacking = .replace,
        makeError: (@Sendable (String) -> Failure)? = nil, actions: [SeamAction<Input, Output, Failure>] = [],
        original: @escaping @Sendable (Input) async throws(Failure) -> Output
    ) {
        let info = SeamParts<Input, Output, Failure>.info(
            id, title: title, category: category, summary: summary, stacking: stacking, isAsync: true,
            canThrow: makeError != nil)
        self.parts = SeamParts(makeError: makeError, actions: actions)
        self.original = original
        super.init(info: info, actionSignatures: parts.signatures)
    }

    /// Calls the seam: the original, or the behaviour applied to it.
    @inlinable
    public func callAsFunction(_ input: Input) async throws(Failure) -> Output {
        #if !Chaos
            return try await original(input)  // built without the Chaos trait: nothing can change a seam
        #else
            let word = self.word.load(ordering: .relaxed)  // the seam's copy of its word (see ``AnySeam/word``)
            if _fastPath(word == 0) { return try await original(input) }
            if word & (SeamCore.addressMask | SeamCore.scopedBit | SeamCore.numberedBit) == 0 {
                core.countPlain()
                return try await countingErrors(input)
            }
            return try await chaosCall(input, word: word, counted: true)
        #endif
    }

    /// Calls the seam without counting the call.
    public func peek(_ input: Input) async throws(Failure) -> Output {
        #if !Chaos
            return try await original(input)
        #else
            let word = core.word.load(ordering: .relaxed)
            if word & (SeamCore.addressMask | SeamCore.scopedBit) == 0 { return try await original(input) }
            return try await Peek.$isActive.withValue(true) { () async -> Result<Output, Failure> in
                do throws(Failure) {
                    return .success(try await chaosCall(input, word: word, counted: false))
                } catch {
                    return .failure(error)
                }
            }.get()
        #endif
    }

    /// Runs the original for a counted call, counting the error it throws.
    @inlinable
    func countingErrors(_ input: Input) async throws(Failure) -> Output {
        do {
            return try await original(input)
        } catch {
            core.countError()
            throw error
        }
    }

    @usableFromInline
    func chaosCall(_ input: Input, word: UInt, counted: Bool) async throws(Failure) -> Output {
        if word & SeamCore.scopedBit != 0, let scope = ChaosScope.current {
            return try await scopedCall(input, scope: scope, counted: counted)
        }
        var served = false
        return try await registryCall(input, word: word, counted: counted, served: &served)
    }

    /// The call as the registry decides it; `served` is set when a registry behaviour fired.
    func registryCall(
        _ input: Input, word: UInt, counted: Bool, served: inout Bool
    ) async throws(Failure) -> Output {
        guard let ticket = core.enter(word, counted: counted, mayMigrate: true) else {
            // Counted as a plain call while counting is on (a test scope elsewhere sent it down this path).
            return try await counted && word & SeamCore.countingBit != 0 ? countingErrors(input) : original(input)
        }
        // Not retained: the registry keeps the box alive until this call has left (see SeamCore), even across
        // suspensions, because the call leaves on the shard it entered (a shared one, which any thread may write).
        unowned(unsafe) let box = Unmanaged<AsyncBox<Input, Output, Failure>>.fromOpaque(ticket.box)
            .takeUnretainedValue()
        if let value = box.constant {
            core.leave(ticket)
            served = true
            return value
        }
        // A box a recording or a replay numbers: the call takes its number there first, or, when the box was just
        // replaced, enters again (see CallNumbering).
        var number = 0
        if counted, let numbered = box.numbered {
            guard let claimed = numbered.numbering.claim() else {
                core.leaveReplaced(ticket)
                return try await chaosCall(input, word: core.word.load(ordering: .relaxed), counted: counted)
            }
            number = claimed
        }
        var output: Output?
        var failure: Failure?
        let fired =
            if number != 0, let numbered = box.numbered {
                await numbered.run(input, number, &output, &failure)
            } else {
                await box.run(input, &output, &failure)
            }
        switch fired {
        case .value:
            core.leave(ticket)
            served = true
            return output.unsafelyUnwrapped
        case .failure:
            core.leave(ticket, failed: counted)
            served = true
            throw failure.unsafelyUnwrapped
        case .skipped:
            core.leave(ticket, passedThrough: counted)
            return try await counted ? countingErrors(input) : original(input)
        }
    }

    // MARK: Installation (see SeamParts)

    override func compile(_ behaviour: any Sendable, context: LayerContext) throws(MischiefError) -> any Sendable {
        try parts.compile(behaviour, info: info, context: context) { node, context throws(MischiefError) in
            try node.compileAsyncBox(original: original, context: context)
        }
    }

    override func behaviour(
        from spec: Spec, seed: UInt64?, sessionSeed: UInt64, fileAccess: FileAccess
    ) throws(SpecError) -> (behaviour: any Sendable, canonical: String) {
        try parts.behaviour(from: spec, info: info, seed: seed, sessionSeed: sessionSeed, fileAccess: fileAccess)
    }

    override func makeBox(layers: [any Sendable]) -> AnyObject {
        let stack = parts.stack(layers, info: info, as: AsyncBox<Input, Output, Failure>.self)
        // A new box even for one layer: the core tells boxes apart by identity while it retires them.
        if let alone = stack.alone { return AsyncBox(alone.run, constant: alone.constant) }
        // Layers that keep their rules are walked rule by rule in one list, as on a synchronous seam.
        guard stack.all.contains(where: { $0.rules != nil }) else {
            let list = RunList(stack.all)
            return AsyncBox { input, output, failure in await firstFiring(list, input, &output, &failure) }
        }
        let steps = RunList(MergeStep.steps(stack.all, rules: \.rules))
        return AsyncBox { input, output, failure in await firstFiring(steps, input, &output, &failure) }
    }

    override func numberedBox(
        layers: [any Sendable], tape context: TapContext?, trigger: ReplayTrigger?, numbering: CallNumbering
    ) -> (box: AnyObject, tape: (any DecisionSource)?) {
        typealias Box = AsyncBox<Input, Output, Failure>
        // What a peek runs (a console reading, not a call of the program: it takes no number and leaves no decision).
        let plain = layers.isEmpty ? Box { _, _, _ in .skipped } : makeBox(layers: layers) as! Box
        var run: NumberedAsyncRun<Input, Output, Failure>.Run = { input, _, output, failure in
            await plain.run(input, &output, &failure)
        }
        var tape: DecisionTape<Output, Failure>?
        if let context, !layers.isEmpty {
            let stack = parts.stack(layers, info: info, as: Box.self)
            let noted = DecisionTape<Output, Failure>(
                seam: info.id, layers: context.layers, replayable: stack.all.map(\.replayable))
            tape = noted
            let list = RunList(stack.alone.map { [$0] } ?? stack.all)
            run = { input, number, output, failure in
                for index in 0..<list.count {
                    let layer = list.with(index) { $0 }
                    let fired = await layer.run(input, &output, &failure)
                    guard fired != .skipped else { continue }
                    Self.note(fired, call: number, layer: index, output, failure, on: noted)
                    return fired
                }
                Self.note(.skipped, call: number, layer: 0, nil, nil, on: noted)
                return .skipped
            }
        }
        if let trigger {
            let inner = run
            run = { input, number, output, failure in
                trigger.enter(number)
                return await inner(input, number, &output, &failure)
            }
        }
        let box = Box(
            { input, output, failure in await plain.run(input, &output, &failure) },
            numbered: NumberedAsyncRun(numbering: numbering, run: run))
        return (box, tape)
    }

    /// Notes an async call's decision, whose value and error are optionals rather than slots.
    private static func note(
        _ fired: Fired, call: Int, layer: Int, _ output: Output?, _ failure: Failure?,
        on tape: DecisionTape<Output, Failure>
    ) {
        withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { outputs in
            withUnsafeTemporaryAllocation(of: Failure.self, capacity: 1) { failures in
                let out = outputs.baseAddress.unsafelyUnwrapped
                let fail = failures.baseAddress.unsafelyUnwrapped
                switch fired {
                case .value: out.initialize(to: output.unsafelyUnwrapped)
                case .failure: fail.initialize(to: failure.unsafelyUnwrapped)
                case .skipped: break
                }
                tape.note(fired, call: call, layer: layer, out, fail)
                switch fired {
                case .value: out.deinitialize(count: 1)
                case .failure: fail.deinitialize(count: 1)
                case .skipped: break
                }
            }
        }
    }
}

extension AsyncSeam where Failure == any Error {
    /// Declares a throwing async seam whose `throw("message")` behaviours throw ``InjectedError``.
    public convenience init(
        _ id: SeamID, title: String, category: String, summary: String, stacking: Stacking = .replace,
        actions: [SeamAction<Input, Output, Failure>] = [],
        original: @escaping @Sendable (Input) async throws -> Output
    ) {
        self.init(
            id, title: title, category: category, summary: summary, stacking: stacking,
            makeError: { InjectedError($0) }, actions: actions, original: original)
    }
}

extension AsyncSeam where Input == Void {
    /// Calls a seam that takes no input.
    @inlinable
    public func callAsFunction() async throws(Failure) -> Output { try await self(()) }
}

/// The installed form of an async seam's behaviour.
final class AsyncBox<Input, Output: Sendable, Failure: Error>: Sendable {
    let run: AsyncRun<Input, Output, Failure>
    /// The value every call gets, when the behaviour is a plain constant (see ``SyncBox``).
    let constant: Output?
    /// The compiled rules, when the behaviour is a `match` with no fallback (see ``SyncBox``).
    let rules: RunList<CompiledRule<Input, AsyncBox>>?
    /// Whether the values this layer gives come from its behaviour alone (see ``SyncBox``).
    let replayable: Bool
    /// Set while a recording or a replay numbers the seam's calls (see ``SyncBox/numbered``).
    let numbered: NumberedAsyncRun<Input, Output, Failure>?

    init(
        _ run: @escaping AsyncRun<Input, Output, Failure>, constant: Output? = nil,
        rules: RunList<CompiledRule<Input, AsyncBox>>? = nil, replayable: Bool = true,
        numbered: NumberedAsyncRun<Input, Output, Failure>? = nil
    ) {
        self.numbered = numbered
        self.run = run
        self.constant = constant
        self.rules = rules
        self.replayable = replayable
    }
}

/// What a numbered async box runs: its calls' numbering, and the behaviour given each call's number.
final class NumberedAsyncRun<Input, Output: Sendable, Failure: Error>: Sendable {
    typealias Run = @Sendable (Input, Int, inout Output?, inout Failure?) async -> Fired
    let numbering: CallNumbering
    let run: Run

    init(numbering: CallNumbering, run: @escaping Run) {
        self.numbering = numbering
        self.run = run
    }
}
