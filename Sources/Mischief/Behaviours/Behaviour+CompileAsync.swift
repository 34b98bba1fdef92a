/// A behaviour ready to run on an ``AsyncSeam``; see ``SyncRun``.
@usableFromInline
typealias AsyncRun<Input, Output, Failure: Error> =
    @Sendable (Input, inout Output?, inout Failure?) async -> Fired

extension Behaviour.Node {
    /// Builds the closure tree that runs this behaviour for an async seam. Mirrors `compileSync`; the
    /// differences are that delays suspend (and end early when the task is cancelled) and closures are async.
    func compileAsync(
        original: @escaping @Sendable (Input) async throws(Failure) -> Output, context: CompileContext<Failure>
    ) throws(MischiefError) -> AsyncRun<Input, Output, Failure> {
        func compile(_ node: Behaviour.Node) throws(MischiefError) -> AsyncRun<Input, Output, Failure> {
            try node.compileAsync(original: original, context: context)
        }
        switch self {
        case .original:
            return { input, output, failure in
                do throws(Failure) {
                    output = try await original(input)
                    return .value
                } catch {
                    failure = error
                    return .failure
                }
            }
        case .asyncClosure(let body):
            let counter = CallCounter()
            let reporter = context.reporter
            let seam = context.seam
            return { input, output, failure in
                let call = AsyncCall(
                    input: input, index: counter.next(), seam: seam, callOriginal: original, reporter: reporter)
                do throws(Failure) {
                    output = try await body(call)
                    return .value
                } catch {
                    failure = error
                    return .failure
                }
            }
        case .closure:
            throw context.unsupported("a synchronous closure cannot call an async original; use .asyncClosure")
        case .sequence(let nodes):
            guard !nodes.isEmpty else { throw context.unsupported("seq() needs at least one behaviour") }
            var boxes: [AsyncBox<Input, Output, Failure>] = []
            for node in nodes { boxes.append(AsyncBox(try compile(node))) }
            let counter = CallCounter()
            let list = RunList(boxes)
            return { input, output, failure in
                // Retained across the suspension: the list keeps it alive anyway, but a guaranteed reference
                // cannot be held over an await.
                let box = list.with(min(counter.next(), list.count - 1)) { $0 }
                return await box.run(input, &output, &failure)
            }
        case .match(let rules, let fallback):
            let list = try Self.compileAsyncRules(rules, original: original, context: context)
            return Self.asyncMatchRun(
                list, otherwise: try fallback.map { (node) throws(MischiefError) in try compile(node) })
        case .delay(let duration, let then):
            let run = try compile(then)
            guard duration > .zero else { return run }
            let site = context.delaySite(duration)
            return { input, output, failure in
                // Cancellation, or a revert of the behaviour, ends the wait early; the call then goes on, since
                // `Failure` may not be able to carry a CancellationError.
                if !Peek.isActive { _ = await site.gate.hold(at: site, max: duration) }
                return await run(input, &output, &failure)
            }
        case .pause(let max, let gate, let then):
            let run = try compile(then)
            let site = context.pauseSite(gate: gate, max: max)
            let reporter = context.reporter
            return { input, output, failure in
                // Suspends; a cancelled task, a release or the maximum time passing all let the call go on (as
                // with delay, `Failure` may not be able to carry a CancellationError).
                guard !Peek.isActive else { return await run(input, &output, &failure) }
                switch await site.gate.hold(at: site, max: max, input: { HeldCall.readable(input) }) {
                case .expired: reporter.report(pauseExpired(max))
                case .answered(let answer):
                    // A breakpoint's answer: what the release said the call returns (or throws), built for this seam.
                    let fired = await (answer as! AsyncBox<Input, Output, Failure>).run(input, &output, &failure)
                    if fired != .skipped { return fired }
                case .released, .cancelled: break
                }
                return await run(input, &output, &failure)
            }
        case .log(let message, let then):
            let run = try compile(then)
            let site = LogSite(message: message, reporter: context.reporter)
            return { input, output, failure in
                site.record(input)
                return await run(input, &output, &failure)
            }
        case .probability(let percent, let seed, .call, let node):
            let run = try compile(node)
            let seed = context.seed(seed)
            let counter = CallCounter()
            return { input, output, failure in
                guard fires(percent: percent, seed: seed, index: counter.next()) else { return .skipped }
                return await run(input, &output, &failure)
            }
        case .probability(let percent, let seed, .key, let node):
            let run = try compile(node)
            let seed = context.seed(seed)
            return { input, output, failure in
                guard fires(percent: percent, seed: seed, key: ChaosKey.current) else { return .skipped }
                return await run(input, &output, &failure)
            }
        case .firstCalls(let count, let node):
            let run = try compile(node)
            let counter = CallCounter()
            return { input, output, failure in
                guard counter.next() < count else { return .skipped }
                return await run(input, &output, &failure)
            }
        case .transform(let node, let body):
            let run = try compile(node)
            return { input, output, failure in
                let fired = await run(input, &output, &failure)
                guard fired == .value, let value = output.take() else { return fired }
                do throws(Failure) {
                    output = try body(value)
                    return .value
                } catch {
                    failure = error
                    return .failure
                }
            }
        case .fallback(let nodes):
            var boxes: [AsyncBox<Input, Output, Failure>] = []
            for node in nodes { boxes.append(AsyncBox(try compile(node))) }
            let list = RunList(boxes)
            return { input, output, failure in await firstFiring(list, input, &output, &failure) }
        case .labelled(_, let node):
            return try compile(node)
        case .constant, .random, .failure, .failureMessage, .crash:
            // Leaves that never call the original nor wait (crash never returns): the synchronous form serves both kinds of seam.
            let run = try compileSync(original: { _ in preconditionFailure("unreachable") }, context: context)
            return { input, output, failure in
                withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { outputs in
                    withUnsafeTemporaryAllocation(of: Failure.self, capacity: 1) { failures in
                        let fired = withUnsafePointer(to: input) {
                            run($0, outputs.baseAddress!, failures.baseAddress!)
                        }
                        switch fired {
                        case .value: output = outputs.baseAddress!.move()
                        case .failure: failure = failures.baseAddress!.move()
                        case .skipped: break
                        }
                        return fired
                    }
                }
            }
        }
    }
}

/// Runs `runs` in order until one fires; what it did, or `.skipped` when none did (fallbacks, stacked layers).
func firstFiring<Input, Output, Failure: Error>(
    _ runs: RunList<AsyncBox<Input, Output, Failure>>, _ input: Input, _ output: inout Output?,
    _ failure: inout Failure?
) async -> Fired {
    for index in 0..<runs.count {
        let box = runs.with(index) { $0 }  // retained: held across the await
        let fired = await box.run(input, &output, &failure)
        if fired != .skipped { return fired }
    }
    return .skipped
}

extension Behaviour.Node {
    /// Compiles this behaviour into the box an async seam installs; a `match` with no fallback also keeps its
    /// compiled rules, so that stacked `merge` layers are walked as one list of rules (``MergeStep``).
    func compileAsyncBox(
        original: @escaping @Sendable (Input) async throws(Failure) -> Output, context: CompileContext<Failure>
    ) throws(MischiefError) -> AsyncBox<Input, Output, Failure> {
        if let rules = matchRules {
            let list = try Self.compileAsyncRules(rules, original: original, context: context)
            return AsyncBox(Self.asyncMatchRun(list, otherwise: nil), rules: list, replayable: isSelfContained)
        }
        return AsyncBox(
            try compileAsync(original: original, context: context), constant: constantValue,
            replayable: isSelfContained)
    }

    /// Each rule's test with its compiled behaviour, in order.
    static func compileAsyncRules(
        _ rules: [Behaviour.MatchRule], original: @escaping @Sendable (Input) async throws(Failure) -> Output,
        context: CompileContext<Failure>
    ) throws(MischiefError) -> RunList<CompiledRule<Input, AsyncBox<Input, Output, Failure>>> {
        try compileRules(rules) { (node) throws(MischiefError) in
            AsyncBox(try node.compileAsync(original: original, context: context))
        }
    }

    /// A `match`: the first rule whose test passes decides the call; with none, `otherwise` (or it falls through).
    static func asyncMatchRun(
        _ list: RunList<CompiledRule<Input, AsyncBox<Input, Output, Failure>>>,
        otherwise: AsyncRun<Input, Output, Failure>?
    ) -> AsyncRun<Input, Output, Failure> {
        { input, output, failure in
            for index in 0..<list.count {
                let box = list.with(index) { rule in rule.matches(input) ? rule.box : nil }
                if let box { return await box.run(input, &output, &failure) }
            }
            guard let otherwise else { return .skipped }
            return await otherwise(input, &output, &failure)
        }
    }
}

/// Walks merge steps in order until one fires; what it did, or `.skipped` when none did.
func firstFiring<Input, Output, Failure: Error>(
    _ steps: RunList<MergeStep<Input, AsyncBox<Input, Output, Failure>>>, _ input: Input, _ output: inout Output?,
    _ failure: inout Failure?
) async -> Fired {
    var index = 0
    while index < steps.count {
        let step = steps.with(index) { $0 }  // retained: held across the await
        guard withUnsafePointer(to: input, { step.test($0) }) else {
            index += 1
            continue
        }
        let fired = await step.box.run(input, &output, &failure)
        if fired != .skipped { return fired }
        index = step.next
    }
    return .skipped
}
