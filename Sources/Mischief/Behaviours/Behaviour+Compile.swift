#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one run of a compiled behaviour did. Not generic, so that returning it from the (unspecialised)
/// compiled closures costs no generic-metadata lookup per call.
@usableFromInline
enum Fired {
    /// It produced a value (in the `output` argument).
    case value
    /// It failed (the error is in the `failure` argument).
    case failure
    /// It did not fire: the call falls through.
    case skipped
}

/// A behaviour ready to run on a synchronous seam: one closure per node, built once at apply time.
///
/// It initialises the memory `output` points to when it returns `.value`, the memory `failure` points to when
/// it returns `.failure`, and neither when it is `.skipped`. Pointers rather than values, a generic result enum
/// or optionals: the closures are compiled unspecialised, where constructing a generic enum costs a
/// generic-metadata lookup on every call, and a value argument would need reabstraction thunks between the
/// specialised caller and the unspecialised closure; pointers look the same to both.
@usableFromInline
typealias SyncRun<Input, Output, Failure: Error> =
    @Sendable (UnsafePointer<Input>, UnsafeMutablePointer<Output>, UnsafeMutablePointer<Failure>) -> Fired

extension Behaviour.Node {
    /// Builds the closure tree that runs this behaviour for a synchronous seam. The nodes that move values are built
    /// with `runs`: a seam's own (see ``SpecialisedRuns``), compiled for its types, or by default the same closures
    /// compiled here, generically.
    func compileSync(
        original: @escaping @Sendable (Input) throws(Failure) -> Output, context: CompileContext<Failure>,
        runs: SpecialisedRuns<Input, Output, Failure> = .forTheseTypes
    ) throws(MischiefError) -> SyncRun<Input, Output, Failure> {
        func compile(_ node: Behaviour.Node) throws(MischiefError) -> SyncRun<Input, Output, Failure> {
            try node.compileSync(original: original, context: context, runs: runs)
        }
        switch self {
        case .original:
            return runs.original(original)
        case .constant(let value, _):
            return runs.constant(value)
        case .closure(let body):
            let counter = CallCounter()
            let reporter = context.reporter
            let seam = context.seam
            return { input, output, failure in
                let call = Call(
                    input: input.pointee, index: counter.next(), seam: seam, callOriginal: original, reporter: reporter)
                do throws(Failure) {
                    output.initialize(to: try body(call))
                    return .value
                } catch {
                    failure.initialize(to: error)
                    return .failure
                }
            }
        case .asyncClosure:
            throw context.unsupported("an async closure needs an AsyncSeam; use .closure on a synchronous seam")
        case .random(let seed, let generate):
            let seed = context.seed(seed)
            let counter = CallCounter()
            return { _, output, _ in
                var generator = SeededGenerator(seed: seed, stream: UInt64(counter.next()))
                output.initialize(to: generate(&generator))
                return .value
            }
        case .failure(let error):
            return { _, _, failure in
                failure.initialize(to: error)
                return .failure
            }
        case .failureMessage(let message):
            let error = try context.failure(message)
            return { _, _, failure in
                failure.initialize(to: error)
                return .failure
            }
        case .sequence(let nodes):
            guard !nodes.isEmpty else { throw context.unsupported("seq() needs at least one behaviour") }
            var boxes: [SyncBox<Input, Output, Failure>] = []
            for node in nodes { boxes.append(SyncBox(try compile(node))) }
            let counter = CallCounter()
            let list = RunList(boxes)
            return { input, output, failure in
                list.with(min(counter.next(), list.count - 1)) { $0.run(input, output, failure) }
            }
        case .match(let rules, let fallback):
            let list = try Self.compileRules(rules, original: original, context: context, runs: runs)
            let otherwise = try fallback.map { (node) throws(MischiefError) in try compile(node) }
            return Self.matchRun(list, otherwise: otherwise)
        case .delay(let duration, let then):
            let run = try compile(then)
            guard duration > .zero else { return run }
            let site = context.delaySite(duration)
            return { input, output, failure in
                // Blocks this thread (never a peek's) for the duration, or until the behaviour is reverted.
                if !Peek.isActive { _ = site.gate.holdBlocking(at: site, max: duration) }
                return run(input, output, failure)
            }
        case .pause(let max, let gate, let then):
            let run = try compile(then)
            let site = context.pauseSite(gate: gate, max: max)
            let reporter = context.reporter
            return { input, output, failure in
                // Blocks this thread (never a peek's); when the maximum passes the call goes on as if released.
                guard !Peek.isActive else { return run(input, output, failure) }
                switch site.gate.holdBlocking(at: site, max: max, input: { HeldCall.readable(input.pointee) }) {
                case .expired: reporter.report(pauseExpired(max))
                case .answered(let answer):
                    // A breakpoint's answer: what the release said the call returns (or throws), built for this seam.
                    let fired = (answer as! SyncBox<Input, Output, Failure>).run(input, output, failure)
                    if fired != .skipped { return fired }
                case .released, .cancelled: break
                }
                return run(input, output, failure)
            }
        case .log(let message, let then):
            let run = try compile(then)
            let site = LogSite(message: message, reporter: context.reporter)
            return { input, output, failure in
                site.record(input.pointee)
                return run(input, output, failure)
            }
        case .crash(let message):
            try context.checkCrashAllowed(message)
            let seam = context.seam
            return { _, _, _ in
                guard !Peek.isActive else { return .skipped }  // a peek gets what lies beneath
                Registry.endProcess(seam: seam, message: message)
            }
        case .probability(let percent, let seed, .call, let node):
            let run = try compile(node)
            let seed = context.seed(seed)
            let counter = CallCounter()
            return { input, output, failure in
                fires(percent: percent, seed: seed, index: counter.next()) ? run(input, output, failure) : .skipped
            }
        case .probability(let percent, let seed, .key, let node):
            let run = try compile(node)
            let seed = context.seed(seed)
            return { input, output, failure in
                fires(percent: percent, seed: seed, key: ChaosKey.current) ? run(input, output, failure) : .skipped
            }
        case .firstCalls(let count, let node):
            let run = try compile(node)
            let counter = CallCounter()
            return { input, output, failure in counter.next() < count ? run(input, output, failure) : .skipped }
        case .transform(let node, let body):
            return runs.transform(try compile(node), body)
        case .fallback(let nodes):
            var boxes: [SyncBox<Input, Output, Failure>] = []
            for node in nodes { boxes.append(SyncBox(try compile(node))) }
            let list = RunList(boxes)
            return { input, output, failure in firstFiring(list, input, output, failure) }
        case .labelled(_, let node):
            return try compile(node)
        }
    }
}

extension Behaviour.Node {
    /// Compiles this behaviour into the box a synchronous seam installs. A `match` with no fallback also keeps its
    /// compiled rules in the box, so that stacked `merge` layers can be walked as one list of rules (see
    /// ``MergeStep``).
    func compileSyncBox(
        original: @escaping @Sendable (Input) throws(Failure) -> Output, context: CompileContext<Failure>,
        runs: SpecialisedRuns<Input, Output, Failure> = .forTheseTypes
    ) throws(MischiefError) -> SyncBox<Input, Output, Failure> {
        if let rules = matchRules {
            let list = try Self.compileRules(rules, original: original, context: context, runs: runs)
            return SyncBox(Self.matchRun(list, otherwise: nil), rules: list, replayable: isSelfContained)
        }
        return SyncBox(
            try compileSync(original: original, context: context, runs: runs), constant: constantValue,
            change: changeOfOriginal(runs: runs),
            replayable: isSelfContained)
    }

    /// The change this behaviour makes to the original's value, when it always runs the original and changes what
    /// it gives (`transform`, through labels; several in turn are one change): ``SyncBox/change``. Nil for any other
    /// behaviour.
    func changeOfOriginal(
        runs: SpecialisedRuns<Input, Output, Failure>
    ) -> (@Sendable (Output) throws(Failure) -> Output)? {
        switch self {
        case .labelled(_, let node):
            node.changeOfOriginal(runs: runs)
        case .transform(let node, let body):
            node.isOriginal ? body : node.changeOfOriginal(runs: runs).map { runs.then($0, body) }
        default:
            nil
        }
    }

    /// Whether this is the original, labelled or not.
    var isOriginal: Bool {
        switch self {
        case .original: true
        case .labelled(_, let node): node.isOriginal
        default: false
        }
    }

    /// Whether every value this behaviour gives comes from the behaviour alone (constants, seeded random values,
    /// errors, in any order or proportion), so a replay gives the same; false when one may come from the original
    /// or from code (`transform`, closures), which a replay does not make again.
    var isSelfContained: Bool {
        switch self {
        case .original, .closure, .asyncClosure, .transform:
            return false
        case .constant, .random, .failure, .failureMessage, .crash:
            return true
        case .sequence(let nodes):
            return nodes.allSatisfy { $0.isSelfContained }
        case .fallback(let nodes):
            return nodes.allSatisfy { $0.isSelfContained }
        case .match(let rules, let fallback):
            guard rules.allSatisfy({ $0.node.isSelfContained }) else { return false }
            return fallback?.isSelfContained ?? true
        case .delay(_, let node):
            return node.isSelfContained
        case .pause(_, _, let node):
            return node.isSelfContained
        case .log(_, let node):
            return node.isSelfContained
        case .probability(_, _, _, let node):
            return node.isSelfContained
        case .firstCalls(_, let node):
            return node.isSelfContained
        case .labelled(_, let node):
            return node.isSelfContained
        }
    }

    /// The rules of a `match` with no fallback (labelled or not); nil for any other behaviour.
    var matchRules: [Behaviour.MatchRule]? {
        switch self {
        case .match(let rules, nil): rules
        case .labelled(_, let node): node.matchRules
        default: nil
        }
    }

    /// Each rule's test with its behaviour compiled into a box by `box`, in order.
    static func compileRules<Box>(
        _ rules: [Behaviour.MatchRule], box: (Behaviour.Node) throws(MischiefError) -> Box
    ) throws(MischiefError) -> RunList<CompiledRule<Input, Box>> {
        var compiled: [CompiledRule<Input, Box>] = []
        for rule in rules { compiled.append(CompiledRule(rule, try box(rule.node))) }
        return RunList(compiled)
    }

    /// Each rule's test with its compiled behaviour, in order.
    static func compileRules(
        _ rules: [Behaviour.MatchRule], original: @escaping @Sendable (Input) throws(Failure) -> Output,
        context: CompileContext<Failure>, runs: SpecialisedRuns<Input, Output, Failure> = .forTheseTypes
    ) throws(MischiefError) -> RunList<CompiledRule<Input, SyncBox<Input, Output, Failure>>> {
        try compileRules(rules) { (node) throws(MischiefError) in
            SyncBox(try node.compileSync(original: original, context: context, runs: runs))
        }
    }

    /// A `match`: the first rule whose test passes decides the call; with none, `otherwise` (or it falls through).
    static func matchRun(
        _ list: RunList<CompiledRule<Input, SyncBox<Input, Output, Failure>>>,
        otherwise: SyncRun<Input, Output, Failure>?
    ) -> SyncRun<Input, Output, Failure> {
        { input, output, failure in
            for index in 0..<list.count {
                let fired: Fired? = list.with(index) { rule in
                    rule.test(input) ? rule.box.run(input, output, failure) : nil
                }
                if let fired { return fired }
            }
            return otherwise?(input, output, failure) ?? .skipped
        }
    }
}

/// One step of stacked `merge` layers walked as a single list: a rule of a layer's `match` (its test, its box, and
/// where the next layer starts, for when the rule's behaviour does not fire), or a whole layer (a test that always
/// passes: an optional closure would be retained and released on every call). `Box` is a ``SyncBox`` or an
/// ``AsyncBox``.
///
/// A layer of rules costs one test per rule this way, with no call into the layer's own closure: ten layers of
/// non-matching rules are ten tests in one loop.
final class MergeStep<Input, Box: AnyObject & Sendable>: Sendable {
    let test: @Sendable (UnsafePointer<Input>) -> Bool
    let box: Box
    /// The step to go on with when `box` did not fire.
    let next: Int
    /// On a step of a run of equality rules in a row (``Behaviour/Rule/when(_:_:)``, in one layer or several), the
    /// run's search, its values from this step's on (`searchCount` of them) and the step after the run: a synchronous
    /// walk looks for the input among them in one call instead of calling each step's test. Zero `searchCount` on
    /// any other step. Kept in the step as plain fields, so a call reads them without retaining anything.
    let search: EqualSearch
    nonisolated(unsafe) let searchValues: UnsafeRawPointer?
    let searchCount: Int
    let searchEnd: Int
    /// Owns the values `searchValues` points into.
    let run: EqualityRun<Input>?

    private init(
        test: @escaping @Sendable (UnsafePointer<Input>) -> Bool, box: Box, next: Int, run: EqualityRun<Input>? = nil,
        offset: Int = 0
    ) {
        self.test = test
        self.box = box
        self.next = next
        self.run = run
        if let run {
            search = run.firstEqual
            searchValues = UnsafeRawPointer(run.base + offset)
            searchCount = run.count - offset
            searchEnd = run.end
        } else {
            search = { _, _, count in count }
            searchValues = nil
            searchCount = 0
            searchEnd = 0
        }
    }

    /// The steps of `layers` (newest first): each layer's rules when it keeps them, else the layer itself. Two or
    /// more equality rules in a row share an ``EqualityRun``.
    static func steps(_ layers: [Box], rules: (Box) -> RunList<CompiledRule<Input, Box>>?) -> [MergeStep] {
        // Each rule is kept as its object, so its search stays where the rule keeps it: taken out of a tuple in an array,
        // a closure comes wrapped in reabstraction thunks that every call would go through.
        var parts:
            [(test: @Sendable (UnsafePointer<Input>) -> Bool, box: Box, next: Int, rule: CompiledRule<Input, Box>?)] =
                []
        for layer in layers {
            guard let rules = rules(layer) else {
                parts.append(({ _ in true }, layer, parts.count + 1, nil))
                continue
            }
            let end = parts.count + rules.count
            for index in 0..<rules.count {
                rules.with(index) { parts.append(($0.test, $0.box, end, $0)) }
            }
        }
        var steps: [MergeStep] = []
        var start = 0
        while start < parts.count {
            var end = start
            while end < parts.count, parts[end].rule?.equalSearch != nil { end += 1 }
            if end - start >= 2 {
                let first = parts[start].rule!
                let run = EqualityRun(
                    values: parts[start..<end].map { $0.rule!.equalityValue! }, firstEqual: first.equalSearch!, end: end
                )
                for index in start..<end {
                    let part = parts[index]
                    steps.append(
                        MergeStep(test: part.test, box: part.box, next: part.next, run: run, offset: index - start))
                }
                start = end
            } else {
                let part = parts[start]
                steps.append(MergeStep(test: part.test, box: part.box, next: part.next))
                start += 1
            }
        }
        return steps
    }
}

/// The values of equality rules in a row among merge steps, where one search looks for the input among them all: ten
/// stacked layers of `.when(value, …)` rules cost one call that compares ten values in the caller's type, not ten
/// calls of a test.
final class EqualityRun<Input>: @unchecked Sendable {
    // @unchecked: `base` is written in init only and read afterwards; the values are Sendable.
    /// The values, in step order.
    let base: UnsafeMutablePointer<Input>
    let count: Int
    /// The index of the first of `count` values equal to the input, or `count` (from one of the rules; they all
    /// compare the same type with its `==`).
    let firstEqual: EqualSearch
    /// The index of the step after the run.
    let end: Int

    init(values: [Input], firstEqual: @escaping EqualSearch, end: Int) {
        count = values.count
        base = UnsafeMutablePointer.allocate(capacity: max(1, values.count))
        base.initialize(from: values, count: values.count)
        self.firstEqual = firstEqual
        self.end = end
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

/// Walks merge steps in order until one fires; what it did, or `.skipped` when none did. A run of equality rules is
/// searched in one call from the step the walk is at.
@inline(__always)
func firstFiring<Input, Output, Failure: Error>(
    _ steps: RunList<MergeStep<Input, SyncBox<Input, Output, Failure>>>, _ input: UnsafePointer<Input>,
    _ output: UnsafeMutablePointer<Output>, _ failure: UnsafeMutablePointer<Failure>
) -> Fired {
    var index = 0
    while index < steps.count {
        // The step that matches from `index` on, or, when none does before it, the step to go on with.
        let (matched, at) = steps.with(index) { step -> (Bool, Int) in
            let count = step.searchCount
            guard count > 0 else { return step.test(input) ? (true, index) : (false, index &+ 1) }
            let found = step.search(UnsafeRawPointer(input), step.searchValues.unsafelyUnwrapped, count)
            return found == count ? (false, step.searchEnd) : (true, index &+ found)
        }
        guard matched else {
            index = at
            continue
        }
        let (fired, next) = steps.with(at) { step in (step.box.run(input, output, failure), step.next) }
        if fired != .skipped { return fired }
        index = next
    }
    return .skipped
}

/// Runs `runs` in order until one fires; what it did, or `.skipped` when none did (fallbacks, stacked layers).
@inline(__always)
func firstFiring<Input, Output, Failure: Error>(
    _ runs: RunList<SyncBox<Input, Output, Failure>>, _ input: UnsafePointer<Input>,
    _ output: UnsafeMutablePointer<Output>, _ failure: UnsafeMutablePointer<Failure>
) -> Fired {
    for index in 0..<runs.count {
        let fired = runs.with(index) { $0.run(input, output, failure) }
        if fired != .skipped { return fired }
    }
    return .skipped
}

/// The event a pause reports when it lets a call go because its maximum time passed.
func pauseExpired(_ max: Duration) -> String {
    "pause: a held call went on after its maximum of \(describeDuration(max)), unreleased"
}

/// Blocks the calling thread for `duration` (a delay on a synchronous seam).
func sleepBlocking(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    guard seconds > 0 || attoseconds > 0 else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR {
        request = remaining
    }
}
