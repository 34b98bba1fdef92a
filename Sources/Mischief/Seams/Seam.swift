import Synchronization

/// A named interception point for a synchronous call.
///
/// Declare a seam once, next to the code it guards, and route the call through it:
/// ```swift
/// let clockNow = Seam<Void, Date, Never>(
///     "clock.now", title: "Current date", category: "Clock", summary: "What the app thinks the time is"
/// ) { Date() }
///
/// try Registry.shared.register(clockNow)   // at start, so a console lists it before its first call
/// let today = clockNow()                   // Date(), unless a behaviour says otherwise
/// ```
/// When nothing is applied and nobody observes, a call costs one relaxed atomic load and a branch before the
/// original. Test example:
/// ```swift
/// try registry.withMischief([Change(clockNow, .constant(.distantPast))]) {
///     #expect(clockNow() == .distantPast)
/// }
/// ```
public final class Seam<Input: Sendable, Output: Sendable, Failure: Error>: AnySeam, @unchecked Sendable {
    @usableFromInline let original: @Sendable (Input) throws(Failure) -> Output
    let parts: SeamParts<Input, Output, Failure>
    /// Behaviours' value-moving parts compiled for this seam's types where it was declared; nil uses the same parts
    /// compiled generically in the library.
    let runs: SpecialisedRuns<Input, Output, Failure>?
    /// Where the seam keeps what the original always gives, for a seam declared with a value
    /// (``init(_:title:category:summary:stacking:actions:value:)``), so ``read(_:_:)`` lends it in place instead of
    /// calling the original for a copy; immutable from init to deinit. (Kept only here, not also as a stored
    /// `Output?`: every byte of a seam object counts in a registry of 100,000.)
    @usableFromInline nonisolated(unsafe) let originalAddress: UnsafeMutablePointer<Output>?
    /// The actions specs can use on this seam: its own first, then the generic ones its types allow.
    public var actions: [SeamAction<Input, Output, Failure>] { parts.actions }

    /// Declares a seam around `original`.
    ///
    /// - Parameters:
    ///   - id: A unique dotted id such as `clock.now`.
    ///   - title: A short title for the console.
    ///   - category: The group the console lists it under.
    ///   - summary: One line on what it guards.
    ///   - stacking: How stacked layers combine; `.merge` for rule lists.
    ///   - makeError: How to turn a `throw("message")` behaviour into this seam's error; nil refuses them.
    ///   - actions: The seam's own spec actions, offered before the generic ones (which they replace by name).
    ///   - original: What the call does when nothing is changed.
    @inlinable  // so that behaviours move values as the seam's types (``SpecialisedRuns``), built where it is declared
    public convenience init(
        _ id: SeamID, title: String, category: String, summary: String, stacking: Stacking = .replace,
        makeError: (@Sendable (String) -> Failure)? = nil, actions: [SeamAction<Input, Output, Failure>] = [],
        original: @escaping @Sendable (Input) throws(Failure) -> Output
    ) {
        self.init(
            id, title: title, category: category, summary: summary, stacking: stacking, makeError: makeError,
            actions: actions, original: original, originalValue: nil, runs: .forTheseTypes)
    }

    @usableFromInline
    init(
        _ id: SeamID, title: String, category: String, summary: String, stacking: Stacking,
        makeError: (@Sendable (String) -> Failure)?, actions: [SeamAction<Input, Output, Failure>],
        original: @escaping @Sendable (Input) throws(Failure) -> Output, originalValue: Output?,
        runs: SpecialisedRuns<Input, Output, Failure>?
    ) {
        let info = SeamParts<Input, Output, Failure>.info(
            id, title: title, category: category, summary: summary, stacking: stacking, isAsync: false,
            canThrow: makeError != nil)
        self.parts = SeamParts(makeError: makeError, actions: actions)
        self.original = original
        self.runs = runs
        originalAddress = heapCopy(of: originalValue)
        super.init(info: info, actionSignatures: parts.signatures)
    }

    deinit {
        originalAddress?.deinitialize(count: 1).deallocate()
    }

    /// Calls the seam: the original, or the behaviour applied to it.
    @inlinable
    public func callAsFunction(_ input: Input) throws(Failure) -> Output {
        #if !Chaos
            return try original(input)  // built without the Chaos trait: nothing can change a seam
        #else
            // The seam's own copy of its word: one load from the seam (see ``AnySeam/word``).
            let word = self.word.load(ordering: .relaxed)
            if _fastPath(word == 0) { return try original(input) }
            if word == SeamCore.countingBit {
                // Counted, nothing else: the count's common case here, the rest one call out of line, then the
                // original here, so that this path keeps no frame of its own around the original (see
                // ``SeamCore/countCall()``).
                core.countCall()
                // A seam that cannot throw calls its original as the path above does: the catch that counts errors
                // stays in the specialised code otherwise (the closure's typed-throws result is tested), and with it a
                // frame. Folded away where the seam's types are known.
                if Failure.self == Never.self { return try original(input) }
                return try countingErrors(input)
            }
            return try changedCall(input, word: word)
        #endif
    }

    /// A call whose word says more than that calls are counted: changed (a box), numbered, or in a test scope.
    /// Specialised for the caller's types but not inlined into it, so the call site keeps only the load and the
    /// branches, and entering is inlined here (inlined into every caller, it made its path too large for the compiler
    /// to inline the call at all). ``callAsFunction(_:)`` counts a call that is only counted itself, and never comes
    /// here with a word of zero; a retry with a word it has not looked at goes through ``retriedCall(_:word:)``.
    ///
    /// A behaviour the registry installed is entered here too, and a constant's value returned without another call:
    /// that is the path of every `.constant` the program meets. Other behaviours run out of line (``run(_:box:ticket:counted:served:)``),
    /// and so do test scopes.
    @inlinable @inline(never)
    func changedCall(_ input: Input, word: UInt) throws(Failure) -> Output {
        guard word & SeamCore.scopedBit == 0 else { return try scopedChaosCall(input, word: word) }
        guard let ticket = core.enter(word, counted: true) else {
            return try word & SeamCore.countingBit != 0 ? countingErrors(input) : original(input)
        }
        // As in `registryCall`: `enter` keeps the box alive until `leave`, so it is used without retaining it.
        let box = Unmanaged<SyncBox<Input, Output, Failure>>.fromOpaque(ticket.box)
        if let value = box._withUnsafeGuaranteedRef({ $0.constant }) {
            core.leave(ticket)
            return value
        }
        var served = false
        // One load and a compare for any other behaviour: the change's call is not made for it.
        guard box._withUnsafeGuaranteedRef({ $0.change != nil }) else {
            return try run(input, box: box, ticket: ticket, counted: true, served: &served)
        }
        switch box._withUnsafeGuaranteedRef({ $0.changeOriginal(original, input) }) {
        case .success(let value)?:
            core.leave(ticket)
            return value
        case .failure(let error)?:
            core.leave(ticket, failed: true)
            throw error
        case nil:
            return try run(input, box: box, ticket: ticket, counted: true, served: &served)
        }
    }

    /// A counted call with a word loaded again (after a numbered box was found replaced): what
    /// ``callAsFunction(_:)`` does with a word that is not zero.
    @inlinable @inline(never)
    func retriedCall(_ input: Input, word: UInt) throws(Failure) -> Output {
        if word & (SeamCore.addressMask | SeamCore.scopedBit | SeamCore.numberedBit) == 0 {
            if word & SeamCore.countingBit != 0 { core.countPlain() }
            return try word & SeamCore.countingBit != 0 ? countingErrors(input) : original(input)
        }
        return try changedCall(input, word: word)
    }

    /// A counted call while some test scope is active: the calling task's scope, else the registry.
    @inlinable @inline(never)
    func scopedChaosCall(_ input: Input, word: UInt) throws(Failure) -> Output {
        try chaosCall(input, word: word, counted: true)
    }

    /// Calls the seam and hands its output to `body` where it lies: a constant behaviour's value is read in place,
    /// not copied. Counts, scopes and records are those of a call.
    ///
    /// For an output that holds a reference, such as the catalogue clock's `Timeline`, copying the constant out
    /// costs a retain and a release, more than the rest of a short reading:
    /// ```swift
    /// let date = clock.seam.read { $0.dateNow() }
    /// ```
    @inlinable @inline(__always)
    public func read<Result>(_ input: Input, _ body: (borrowing Output) -> Result) throws(Failure) -> Result {
        #if !Chaos
            return body(try original(input))
        #else
            let word = self.word.load(ordering: .relaxed)
            if _fastPath(word == 0) {
                if let originalAddress { return body(originalAddress.pointee) }
                return body(try original(input))
            }
            if word & (SeamCore.addressMask | SeamCore.scopedBit | SeamCore.numberedBit) == 0 {
                core.countPlain()
                return body(try countingErrors(input))
            }
            guard word & SeamCore.scopedBit == 0 else { return body(try chaosCall(input, word: word, counted: true)) }
            guard let ticket = core.enter(word, counted: true) else {
                return body(try word & SeamCore.countingBit != 0 ? countingErrors(input) : original(input))
            }
            // As in `registryCall`: `enter` keeps the box alive until `leave`, so it is used without retaining it.
            let box = Unmanaged<SyncBox<Input, Output, Failure>>.fromOpaque(ticket.box)
            if let address = box._withUnsafeGuaranteedRef({ $0.constantAddress }) {
                let read = body(address.pointee)
                core.leave(ticket)
                return read
            }
            var served = false
            return body(try run(input, box: box, ticket: ticket, counted: true, served: &served))
        #endif
    }

    /// Like ``read(_:_:)`` when the call's output is a value that lies somewhere (the original's value, or a constant
    /// behaviour's): hands its address to `body` (so a large value is read field by field, never copied) and counts
    /// the call. Nil, counting nothing, when the call would run code
    /// instead (a behaviour that is not a constant, a test scope's changes, an original without a value); the caller
    /// then makes the call in full.
    ///
    /// It runs no behaviour and no original, so it releases no object its caller can see: the catalogue clock's
    /// `date` calls it from a function marked `@_effects(releasenone)`, which spares a caller in another module a
    /// retain and a release of `ChaosClock.shared` on every reading.
    @inlinable @inline(__always)
    package func readIfInPlace<Result>(_ input: Input, _ body: (UnsafePointer<Output>) -> Result) -> Result? {
        guard let originalAddress else { return nil }
        #if !Chaos
            return body(originalAddress)
        #else
            let word = self.word.load(ordering: .relaxed)
            if _fastPath(word == 0) { return body(originalAddress) }
            if word & SeamCore.scopedBit != 0 { return nil }
            if word & (SeamCore.addressMask | SeamCore.numberedBit) == 0 {
                core.countPlain()
                return body(originalAddress)
            }
            guard let ticket = core.enter(word, counted: true) else { return body(originalAddress) }
            let box = Unmanaged<SyncBox<Input, Output, Failure>>.fromOpaque(ticket.box)
            guard let address = box._withUnsafeGuaranteedRef({ $0.constantAddress }) else {
                core.leave(ticket, uncounted: true)  // the full call that follows counts it
                return nil
            }
            let read = body(address)
            core.leave(ticket)
            return read
        #endif
    }

    /// Calls the seam without counting the call, so a console can read a value without inflating counts.
    ///
    /// Behaviours that depend on call order (sequences, first-N, call indices) still see the peek; `pause`, `delay`
    /// and `crash` let it through at once (see `Peek`).
    public func peek(_ input: Input) throws(Failure) -> Output {
        #if !Chaos
            return try original(input)
        #else
            let word = core.word.load(ordering: .relaxed)
            if word & (SeamCore.addressMask | SeamCore.scopedBit) == 0 { return try original(input) }
            return try Peek.$isActive.withValue(true) { () -> Result<Output, Failure> in
                do throws(Failure) {
                    return .success(try chaosCall(input, word: word, counted: false))
                } catch {
                    return .failure(error)
                }
            }.get()
        #endif
    }

    /// Runs the original for a counted call, counting the error it throws.
    @inlinable @inline(__always)
    func countingErrors(_ input: Input) throws(Failure) -> Output {
        do {
            return try original(input)
        } catch {
            core.countError()
            throw error
        }
    }

    @inlinable
    func chaosCall(_ input: Input, word: UInt, counted: Bool) throws(Failure) -> Output {
        if word & SeamCore.scopedBit != 0, let scope = ChaosScope.current {
            return try scopedCall(input, scope: scope, counted: counted)
        }
        var served = false
        return try registryCall(input, word: word, counted: counted, served: &served)
    }

    /// The call as the registry decides it; `served` is set when a registry behaviour fired.
    @inlinable
    func registryCall(_ input: Input, word: UInt, counted: Bool, served: inout Bool) throws(Failure) -> Output {
        guard let ticket = core.enter(word, counted: counted) else {
            // Counted as a plain call while counting is on (a test scope elsewhere sent it down this path).
            return try counted && word & SeamCore.countingBit != 0 ? countingErrors(input) : original(input)
        }
        // The box is used without retaining it: `enter` announced this call, so the registry keeps the box
        // alive until the call has left (see SeamCore).
        var box = Unmanaged<SyncBox<Input, Output, Failure>>.fromOpaque(ticket.box)
        if !counted, let plain = box._withUnsafeGuaranteedRef({ $0.uncounted }) {
            box = Unmanaged.passUnretained(plain)  // a peek: not a decision of the program's (kept alive by `box`)
        }
        if let value = box._withUnsafeGuaranteedRef({ $0.constant }) {
            // A constant is copied here, where the types are known, rather than through the unspecialised run.
            core.leave(ticket)
            served = true
            return value
        }
        return try run(input, box: box, ticket: ticket, counted: counted, served: &served)
    }

    /// Runs the box a call entered with `ticket`, and leaves. Out of line: its temporary buffers would give every
    /// chaos call's path (a constant's too) a larger frame and a stack guard.
    @inlinable @inline(never)
    func run(
        _ input: Input, box: Unmanaged<SyncBox<Input, Output, Failure>>, ticket: SeamCore.Ticket, counted: Bool,
        served: inout Bool
    ) throws(Failure) -> Output {
        // A box a recording or a replay numbers: the call takes its number there first, or, when the box was just
        // replaced, enters again (see CallNumbering).
        var number = 0
        if counted, let numbered = box._withUnsafeGuaranteedRef({ $0.numbered }) {
            guard let claimed = numbered.numbering.claim() else {
                core.leaveReplaced(ticket)
                return try retriedCall(input, word: core.word.load(ordering: .relaxed))
            }
            number = claimed
        }
        return try withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { (outputs) throws(Failure) in
            try withUnsafeTemporaryAllocation(of: Failure.self, capacity: 1) { (failures) throws(Failure) in
                let output = outputs.baseAddress.unsafelyUnwrapped
                let failure = failures.baseAddress.unsafelyUnwrapped
                let fired = withUnsafePointer(to: input) { input in
                    box._withUnsafeGuaranteedRef { box in
                        if number != 0, let numbered = box.numbered {
                            return numbered.run(input, number, output, failure)
                        }
                        return box.run(input, output, failure)
                    }
                }
                switch fired {
                case .value:
                    core.leave(ticket)
                    served = true
                    return output.move()
                case .failure:
                    core.leave(ticket, failed: counted)
                    served = true
                    throw failure.move()
                case .skipped:
                    core.leave(ticket, passedThrough: counted)
                    return try counted ? countingErrors(input) : original(input)
                }
            }
        }
    }

    // MARK: Installation (see SeamParts)

    override func compile(_ behaviour: any Sendable, context: LayerContext) throws(MischiefError) -> any Sendable {
        try parts.compile(behaviour, info: info, context: context) { node, context throws(MischiefError) in
            let node = originalAddress.map { node.folded(original: $0.pointee) } ?? node
            return try node.compileSyncBox(original: original, context: context, runs: runs ?? .forTheseTypes)
        }
    }

    override func behaviour(
        from spec: Spec, seed: UInt64?, sessionSeed: UInt64, fileAccess: FileAccess
    ) throws(SpecError) -> (behaviour: any Sendable, canonical: String) {
        try parts.behaviour(from: spec, info: info, seed: seed, sessionSeed: sessionSeed, fileAccess: fileAccess)
    }

    override func makeBox(layers: [any Sendable]) -> AnyObject {
        let stack = parts.stack(layers, info: info, as: SyncBox<Input, Output, Failure>.self)
        // A new box even for one layer: the core tells boxes apart by identity while it retires them.
        if let alone = stack.alone { return SyncBox(alone.run, constant: alone.constant, change: alone.change) }
        // Layers that keep their rules are walked rule by rule in one list; others as they are.
        guard stack.all.contains(where: { $0.rules != nil }) else {
            let list = RunList(stack.all)
            return SyncBox { input, output, failure in firstFiring(list, input, output, failure) }
        }
        let steps = RunList(MergeStep.steps(stack.all, rules: \.rules))
        return SyncBox { input, output, failure in firstFiring(steps, input, output, failure) }
    }

    override func numberedBox(
        layers: [any Sendable], tape context: TapContext?, trigger: ReplayTrigger?, numbering: CallNumbering
    ) -> (box: AnyObject, tape: (any DecisionSource)?) {
        typealias Box = SyncBox<Input, Output, Failure>
        // What a peek runs (a console reading, not a call of the program: it takes no number and leaves no decision).
        let plain = layers.isEmpty ? Box { _, _, _ in .skipped } : makeBox(layers: layers) as! Box
        var run: NumberedSyncRun<Input, Output, Failure>.Run = { input, _, output, failure in
            plain.run(input, output, failure)
        }
        var tape: DecisionTape<Output, Failure>?
        if let context, !layers.isEmpty {
            let stack = parts.stack(layers, info: info, as: Box.self)
            let noted = DecisionTape<Output, Failure>(
                seam: info.id, layers: context.layers, replayable: stack.all.map(\.replayable))
            tape = noted
            // Each layer is run on its own, newest first, so the tape learns which one answered; the same order the
            // plain box follows (with `.replace` stacking, only the newest).
            let boxes = stack.alone.map { [$0] } ?? stack.all
            if boxes.count == 1 {
                let one = boxes[0].run  // one layer answers every call: call its run straight, as the plain box does
                run = { input, number, output, failure in
                    let fired = one(input, output, failure)
                    noted.note(fired, call: number, layer: 0, output, failure)
                    return fired
                }
            } else {
                let list = RunList(boxes)
                run = { input, number, output, failure in
                    for index in 0..<list.count {
                        let fired = list.with(index) { $0.run(input, output, failure) }
                        if fired != .skipped {
                            noted.note(fired, call: number, layer: index, output, failure)
                            return fired
                        }
                    }
                    noted.note(.skipped, call: number, layer: 0, output, failure)
                    return .skipped
                }
            }
        }
        if let trigger {
            let inner = run
            run = { input, number, output, failure in
                trigger.enter(number)
                return inner(input, number, output, failure)
            }
        }
        let numbered = NumberedSyncRun(numbering: numbering, run: run)
        let box = Box(
            { input, output, failure in plain.run(input, output, failure) }, uncounted: plain, numbered: numbered)
        return (box, tape)
    }
}

extension Seam where Failure == any Error {
    /// Declares a throwing seam whose `throw("message")` behaviours throw ``InjectedError``.
    @inlinable
    public convenience init(
        _ id: SeamID, title: String, category: String, summary: String, stacking: Stacking = .replace,
        actions: [SeamAction<Input, Output, Failure>] = [], original: @escaping @Sendable (Input) throws -> Output
    ) {
        self.init(
            id, title: title, category: category, summary: summary, stacking: stacking,
            makeError: { InjectedError($0) }, actions: actions, original: original)
    }
}

extension Seam where Input == Void {
    /// Declares a seam whose original always gives `value`: a description that callers read the world through, not a
    /// reading itself (the catalogue clock's seam gives a `Timeline`, and dates are worked out from it).
    ///
    /// A behaviour that only changes the original's value, such as the clock's `shift(+1d)` or
    /// `freeze(2030-01-01) + shift(+1d)`, is then worked out once, when it is applied, and its calls cost what a
    /// constant's do instead of running the change on every call. So declare a seam this way only when its changes
    /// (`transform`, the `map`s of its actions) depend on nothing but the value they are given.
    ///
    /// - Parameters:
    ///   - id: A unique dotted id such as `clock.now`.
    ///   - title: A short title for the console.
    ///   - category: The group the console lists it under.
    ///   - summary: One line on what it guards.
    ///   - stacking: How stacked layers combine.
    ///   - actions: The seam's own spec actions, offered before the generic ones (which they replace by name).
    ///   - value: What every call gives when nothing is changed.
    @inlinable  // so that the original, `{ value }`, is compiled for the seam's types where it is declared
    public convenience init(
        _ id: SeamID, title: String, category: String, summary: String, stacking: Stacking = .replace,
        actions: [SeamAction<Input, Output, Failure>] = [], value: Output
    ) {
        self.init(
            id, title: title, category: category, summary: summary, stacking: stacking, makeError: nil,
            actions: actions, original: { value }, originalValue: value, runs: .forTheseTypes)
    }

    /// Calls a seam that takes no input.
    @inlinable
    public func callAsFunction() throws(Failure) -> Output { try self(()) }

    /// Calls the seam and hands its output to `body` where it lies; see ``read(_:_:)``.
    @inlinable @inline(__always)
    public func read<Result>(_ body: (borrowing Output) -> Result) throws(Failure) -> Result { try read((), body) }

    /// Reads a seam that takes no input without counting the call.
    public func peek() throws(Failure) -> Output { try peek(()) }
}

extension Behaviour.Node {
    /// This behaviour on a seam whose original always gives `value` and whose changes depend only on the value they
    /// are given: a change of that value (`transform`, through labels) becomes the constant it always gives.
    func folded(original value: Output) -> Behaviour.Node {
        switch self {
        case .labelled(let label, let node): .labelled(label, node.folded(original: value))
        case .transform: fixedValue(original: value).map { .constant($0, label: "") } ?? self
        default: self
        }
    }

    /// The value this behaviour always gives when the original gives `value`; nil when that is not known here (a
    /// change that throws is left to run, and throw, on each call).
    private func fixedValue(original value: Output) -> Output? {
        switch self {
        case .original: value
        case .constant(let constant, _): constant
        case .labelled(_, let node): node.fixedValue(original: value)
        case .transform(let node, let change): node.fixedValue(original: value).flatMap { try? change($0) }
        default: nil
        }
    }

    /// The value of a plain constant (labelled or not), which boxes keep for the call path; nil for any other
    /// behaviour.
    var constantValue: Output? {
        switch self {
        case .constant(let value, _): value
        case .labelled(_, let node): node.constantValue
        default: nil
        }
    }
}

/// The installed form of a synchronous seam's behaviour.
@usableFromInline
final class SyncBox<Input, Output: Sendable, Failure: Error>: Sendable {
    @usableFromInline let run: SyncRun<Input, Output, Failure>
    /// The value every call gets, when the behaviour is a plain constant: the call path returns it without
    /// running `run`.
    @usableFromInline let constant: Output?
    /// Where the box keeps a copy of `constant`, so ``Seam/read(_:_:)`` can lend it in place (`pointee` is an
    /// address, not a copy); immutable from init to deinit.
    @usableFromInline nonisolated(unsafe) let constantAddress: UnsafeMutablePointer<Output>?
    /// The change the behaviour makes to the original's value, when it is a `transform` of the original (through
    /// labels; see ``Behaviour/Node/changeOfOriginal(runs:)``): the call path then calls the original and this, as
    /// the caller's types, instead of `run` with its buffers.
    @usableFromInline let change: (@Sendable (Output) throws(Failure) -> Output)?
    /// The compiled rules, when the behaviour is a `match` with no fallback: stacked `merge` layers walk them in one
    /// list (``MergeStep``) instead of calling `run`.
    let rules: RunList<CompiledRule<Input, SyncBox>>?
    /// The box a peek runs instead of this one, when this one notes its calls' decisions for a recording or a
    /// replay (a peek is a console reading, not a call of the program).
    @usableFromInline let uncounted: SyncBox?
    /// Whether the values this layer gives come from its behaviour alone, not from the original or a closure (see
    /// ``Recording/Decision/live``).
    let replayable: Bool
    /// Set while a recording or a replay numbers the seam's calls: each call takes its number and runs this
    /// instead of ``run`` (see ``CallNumbering``).
    @usableFromInline let numbered: NumberedSyncRun<Input, Output, Failure>?

    init(
        _ run: @escaping SyncRun<Input, Output, Failure>, constant: Output? = nil,
        change: (@Sendable (Output) throws(Failure) -> Output)? = nil,
        rules: RunList<CompiledRule<Input, SyncBox>>? = nil,
        uncounted: SyncBox? = nil, replayable: Bool = true, numbered: NumberedSyncRun<Input, Output, Failure>? = nil
    ) {
        self.numbered = numbered
        self.run = run
        self.constant = constant
        self.change = change
        self.rules = rules
        self.uncounted = uncounted
        self.replayable = replayable
        constantAddress = heapCopy(of: constant)
    }

    deinit {
        constantAddress?.deinitialize(count: 1).deallocate()
    }

    /// ``change`` applied to what `original` gives for `input`: nil, calling neither, when the box has no change.
    @inlinable @inline(__always)
    func changeOriginal(
        _ original: (Input) throws(Failure) -> Output, _ input: Input
    ) -> Result<Output, Failure>? {
        do throws(Failure) {
            // Called through `?`, not bound to a constant first: a copy of the closure would retain its context. `?`
            // evaluates the argument only when there is a change.
            guard let value = try change?(try original(input)) else { return nil }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    /// Runs the behaviour for `input`: its result, or nil when it did not fire. Inlinable, so a test scope's call
    /// (`scopedCall`) builds the result as its own types: unspecialised, each call looked up the generic metadata of
    /// `Result<Output, Failure>` and its optional, 80% of a scoped `.constant` call's 4,380 instructions.
    @inlinable
    func fire(_ input: Input) -> Result<Output, Failure>? {
        withUnsafeTemporaryAllocation(of: Output.self, capacity: 1) { outputs in
            withUnsafeTemporaryAllocation(of: Failure.self, capacity: 1) { failures in
                let output = outputs.baseAddress.unsafelyUnwrapped
                let failure = failures.baseAddress.unsafelyUnwrapped
                switch withUnsafePointer(to: input, { run($0, output, failure) }) {
                case .value: return .success(output.move())
                case .failure: return .failure(failure.move())
                case .skipped: return nil
                }
            }
        }
    }
}

/// What a numbered box runs: its calls' numbering, and the behaviour given each call's number.
@usableFromInline
final class NumberedSyncRun<Input, Output: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Run =
        @Sendable (
            UnsafePointer<Input>, Int, UnsafeMutablePointer<Output>, UnsafeMutablePointer<Failure>
        ) -> Fired
    @usableFromInline let numbering: CallNumbering
    @usableFromInline let run: Run

    init(numbering: CallNumbering, run: @escaping Run) {
        self.numbering = numbering
        self.run = run
    }
}

/// A copy of `value` at an address of its own, for the owner to deinitialize and free; nil for nil.
func heapCopy<Value>(of value: Value?) -> UnsafeMutablePointer<Value>? {
    guard let value else { return nil }
    let address = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    address.initialize(to: value)
    return address
}
