import Synchronization

/// Changes that only one task tree sees, and a record of every seam call made in it: what tests run in.
///
/// A registry's changes are process-wide: every thread sees them, so two tests that change the same seam
/// differently cannot run at once. A scope's changes are seen only by the task that runs `run(_:)` and
/// the tasks it starts in structured ways (`async let`, task groups); other tasks, and a console, see the
/// registry as it is. Inside, a scope's changes come before the registry's: its layers decide a call first, and
/// a call they pass through goes on to the registry's layers, then the original. Scopes nest: an inner scope's
/// changes come before the outer one's.
///
/// ```swift
/// let scope = ChaosScope()
/// try scope.apply(clockNow, .constant(.distantPast))
/// try scope.apply(spec: "50% throw(\"offline\")", to: "net.request")
/// let date = scope.run { clockNow() }                  // .distantPast, in this task only
/// #expect(scope.calls(of: clockNow).count == 1)        // every call in the scope is recorded
/// ```
///
/// Nothing global changes when a scope's layers are added or dropped, so there is nothing to revert: when
/// `run(_:)` returns or throws, the task no longer sees them.
///
/// Cost: while no scope is active anywhere, seams keep their one-load fast path. While one is active, every
/// seam call in the process (inside a scope or not) takes the slow path and looks up the task's scope.
/// Unstructured tasks (`Task {}`, `Task.detached`) started inside `run` inherit the scope too (task-locals are
/// copied into `Task {}`, not into `Task.detached`); calls made on threads the scope's task did not start (a
/// `DispatchQueue`, a thread pool) see no scope.
public final class ChaosScope: Sendable, CustomStringConvertible {
    /// The innermost scope the current task runs in, if any.
    public static var current: ChaosScope? { bound }

    @TaskLocal static var bound: ChaosScope?

    /// A name for messages, such as the test's name.
    public let name: String
    /// The scope whose changes this one's come before: the task's scope when this one was made.
    public let parent: ChaosScope?
    /// The registry that specs name seams in and whose session seed random behaviours derive from.
    public let registry: Registry
    /// Whether calls made in the scope are recorded (see `calls`).
    public let isRecording: Bool

    let state = Locked(State())
    /// Whether the scope numbers the calls that come into it (``startNumbering()``): a published scope does.
    let numbering = Atomic<Bool>(false)
    private let seed: UInt64
    /// The recording this scope replays (``ScopedReplay``), which sees each of its calls come in and go out.
    @usableFromInline let replayer: ScopeReplayer?

    struct State: @unchecked Sendable {
        // @unchecked: the seams and their boxes are Sendable classes held type-erased; only touched under the lock.
        var seams: [ObjectIdentifier: ScopedSeam] = [:]
        var calls: [RecordedCall] = []
        /// The number the next layer gets (``ScopeLayer/id``).
        var nextLayer = 1
        /// Every layer applied from outside the scope (a console, the CLI, the control API), reverted ones too,
        /// oldest first: what a failing test says it had (`ChaosScope+Outside.swift`).
        var outside: [ScopeLayer] = []
        /// How many calls of each seam came into the scope, once it numbers them (``ChaosScope/startNumbering()``).
        var entered: [SeamID: Int]?
    }

    /// A seam's layers in this scope.
    struct ScopedSeam {
        let seam: AnySeam
        /// Compiled runs and their descriptions, oldest first, each with what the scope's table shows of it.
        var layers: [(run: any Sendable, description: String, shown: ScopeLayer, sites: [PauseSite])] = []
        /// The box made from `layers`, as the seam's calls run it.
        var box: AnyObject?
        /// The layers' descriptions, newest first: what recorded calls say served them.
        var description = ""
        /// Where the layers' pauses hold calls, oldest layer first.
        var pauses: [PauseSite] = []
        /// Where the layers' delays wait.
        var delays: [PauseSite] = []

        /// Remakes the box and the description after `layers` changed.
        mutating func rebuild() {
            box = seam.makeBox(layers: layers.reversed().map(\.run))
            description = layers.reversed().map(\.description).joined(separator: " | ")
        }
    }

    /// Makes a scope.
    ///
    /// - Parameters:
    ///   - name: A name for messages (a test's name, say).
    ///   - registry: Where specs find their seams; the shared registry by default.
    ///   - seed: The seed random behaviours without their own derive theirs from; the registry's session seed
    ///     when nil.
    ///   - parent: The scope whose changes this one's come before; the current task's scope by default.
    ///   - recording: Whether to record every call made in the scope.
    public init(
        _ name: String = "scope", registry: Registry = .shared, seed: UInt64? = nil,
        parent: ChaosScope? = ChaosScope.current, recording: Bool = true
    ) {
        self.name = name
        self.registry = registry
        self.seed = seed ?? registry.sessionSeed
        self.parent = parent
        self.isRecording = recording
        self.replayer = nil
    }

    /// A scope whose calls `replayer` follows (``ScopedReplay``): it records them and derives its random behaviours
    /// from the recorded session seed.
    init(_ name: String, registry: Registry, seed: UInt64, parent: ChaosScope?, replayer: ScopeReplayer) {
        self.name = name
        self.registry = registry
        self.seed = seed
        self.parent = parent
        self.isRecording = true
        self.replayer = replayer
    }

    /// The scope's name.
    public var description: String { "scope \(name)" }

    // MARK: Running

    /// Runs `body` in the scope: its seam calls see the scope's changes and are recorded.
    public func run<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        ScopeActivation.begin()
        defer { ScopeActivation.end() }
        let result: Result<R, E> = ChaosScope.$bound.withValue(self) {
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Awaits `body` in the scope: its seam calls, and those of the child tasks it starts, see the scope's
    /// changes and are recorded.
    public func run<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        ScopeActivation.begin()
        defer { ScopeActivation.end() }
        return try await ChaosScope.$bound.withValue(self, operation: body, isolation: isolation)
    }

    // MARK: Changes

    /// Adds `change` to the scope: it comes before the scope's earlier changes to the same seam, as a
    /// registry's do (the newest decides on a replacing seam; merging seams try each, newest first).
    ///
    /// - Throws: ``MischiefError`` when the behaviour does not fit the seam, or chaos is switched off.
    public func apply(_ change: Change) throws(MischiefError) {
        try apply([change])
    }

    /// Adds `changes` as a unit: if any is refused, none is added.
    public func apply(_ changes: [Change]) throws(MischiefError) {
        _ = try add(changes, source: nil)
    }

    /// Adds `changes` as a unit for `source` (nil: the scope's own code or traits); returns the layers as the scope's
    /// table shows them.
    func add(_ changes: [Change], source: String?) throws(MischiefError) -> [ScopeLayer] {
        if let reason = KillSwitch.reason { throw .disabled(reason: reason) }
        var compiled:
            [(
                AnySeam, run: any Sendable, description: String, pauses: [PauseSite], delays: [PauseSite],
                seed: UInt64, spec: String?
            )] = []
        for change in changes {
            let context = LayerContext(
                sessionSeed: change.seed ?? seed, label: change.behaviourText,
                allowsCrash: registry.allowsCrash, reporter: { _, _ in })
            let run = try change.seam.compile(change.behaviour, context: context)
            compiled.append(
                (
                    change.seam, run, change.behaviourText, context.pauses, context.delays, change.seed ?? seed,
                    change.spec
                ))
        }
        if compiled.contains(where: { !$0.pauses.isEmpty || !$0.delays.isEmpty }) { KillSwitch.track(self) }
        return state.withLock { state in
            var touched: Set<ObjectIdentifier> = []
            var added: [ScopeLayer] = []
            for (seam, run, description, pauses, delays, seed, spec) in compiled {
                let key = ObjectIdentifier(seam)
                let shown = ScopeLayer(
                    id: state.nextLayer, seam: seam.info.id, spec: spec ?? description, source: source, seed: seed,
                    isActive: true, hasPause: !pauses.isEmpty,
                    call: source == nil ? nil : state.entered.map { $0[seam.info.id] ?? 0 })
                state.nextLayer += 1
                state.seams[key, default: ScopedSeam(seam: seam)].layers.append(
                    (run, description, shown, pauses + delays))
                state.seams[key]!.pauses += pauses
                state.seams[key]!.delays += delays
                touched.insert(key)
                added.append(shown)
                if source != nil { state.outside.append(shown) }
            }
            for key in touched { state.seams[key]!.rebuild() }
            return added
        }
    }

    /// Adds `behaviour` to a synchronous `seam`, in this scope only.
    public func apply<Input, Output, Failure>(
        _ seam: Seam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>
    ) throws(MischiefError) {
        try apply(Change(seam, behaviour))
    }

    /// Adds `behaviour` to an async `seam`, in this scope only.
    public func apply<Input, Output, Failure>(
        _ seam: AsyncSeam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>
    ) throws(MischiefError) {
        try apply(Change(seam, behaviour))
    }

    /// Adds the change `spec` describes to the seam `id` of the scope's registry, in this scope only.
    ///
    /// - Throws: ``MischiefError/unknownSeam(_:)`` when the registry has no such seam, or
    ///   ``MischiefError/invalidSpec(_:_:)`` with the column and what was expected.
    public func apply(spec: String, to id: SeamID, seed: UInt64? = nil) throws(MischiefError) {
        try apply(registry.change(spec: spec, for: id, seed: seed))
    }

    /// Adds every entry of `profile` as a unit, with the profile's seed.
    public func apply(profile: Profile) throws(MischiefError) {
        var changes: [Change] = []
        for entry in profile.entries {
            changes.append(try registry.change(spec: entry.spec, for: entry.seam, seed: profile.seed))
        }
        try apply(changes)
    }

    /// Drops the scope's changes to `seam`; calls see the parent scope's, or the registry's, again. Calls its
    /// pauses hold go on at once.
    public func revert(_ seam: AnySeam) {
        let dropped = state.withLock { state in
            let dropped = state.seams.removeValue(forKey: ObjectIdentifier(seam))
            state.retire(Set(dropped?.layers.map(\.shown.id) ?? []))
            return dropped
        }
        for site in (dropped?.pauses ?? []) + (dropped?.delays ?? []) { site.close() }
    }

    /// Drops every change of the scope (its record of calls stays), and lets every call its pauses hold go on.
    ///
    /// MischiefTesting's `TestScope` does this when its test ends, so a call a `Task {}` made in the test is not left held.
    public func revertAll() {
        let dropped = state.withLock { state in
            defer {
                state.retire(Set(state.seams.values.flatMap { $0.layers.map(\.shown.id) }), numbered: false)
                state.seams.removeAll()
            }
            return state.seams.values.flatMap { $0.pauses + $0.delays }
        }
        for site in dropped { site.close() }
    }

    /// Drops the layer at `index` (oldest first) of the scope's changes to `seam`: a replayed revert.
    func removeLayer(of seam: AnySeam, at index: Int) {
        state.withLock { state in
            let key = ObjectIdentifier(seam)
            guard let entry = state.seams[key], entry.layers.indices.contains(index) else { return }
            let removed = state.seams[key]!.layers.remove(at: index)
            state.retire([removed.shown.id])
            if state.seams[key]!.layers.isEmpty {
                state.seams[key] = nil
            } else {
                state.seams[key]!.rebuild()
            }
        }
    }

    // MARK: Held calls

    /// Releases the calls held by the scope's pauses on `seam` (see ``Behaviour/pause(_:max:)`` and spec
    /// `pause`); returns how many. The pauses go on holding later calls.
    @discardableResult
    public func release(_ seam: AnySeam) -> Int {
        pauses(of: seam).reduce(0) { $0 + $1.release() }
    }

    /// Releases every call held by the scope's pauses; returns how many.
    @discardableResult
    public func releaseAll() -> Int {
        let sites = state.withLock { state in state.seams.values.flatMap(\.pauses) }
        return sites.reduce(0) { $0 + $1.release() }
    }

    /// How many calls the scope's pauses on `seam` hold now.
    public func heldCount(of seam: AnySeam) -> Int {
        pauses(of: seam).reduce(0) { $0 + $1.heldCount }
    }

    /// Waits, without polling, until the scope's newest pause on `seam` holds `count` calls: for tests that
    /// apply `pause` as a spec and so have no ``PauseGate`` of their own.
    ///
    /// - Throws: ``MischiefError/unsupported(_:_:)`` when the scope applies no pause to the seam, or
    ///   `CancellationError` when the waiting task is cancelled.
    public func waitUntilHeld(_ seam: AnySeam, _ count: Int = 1) async throws {
        guard let site = pauses(of: seam).last else {
            throw MischiefError.unsupported(seam.info.id, "\(self) applies no pause to it, so no call can be held")
        }
        try await site.waitUntilHeld(count)
    }

    private func pauses(of seam: AnySeam) -> [PauseSite] {
        state.withLock { state in state.seams[ObjectIdentifier(seam)]?.pauses ?? [] }
    }

    /// What the scope does to `seam`, as spec-like text newest first; nil when it leaves it alone.
    public func behaviourText(of seam: AnySeam) -> String? {
        state.withLock { state in state.seams[ObjectIdentifier(seam)]?.description }
    }

    // MARK: Calls

    /// Every call made in the scope (and its inner scopes), in the order they were made.
    public var calls: [RecordedCall] { state.withLock { $0.calls } }

    /// The calls made to a synchronous `seam` in the scope, in order.
    public func calls<Input, Output, Failure>(of seam: Seam<Input, Output, Failure>) -> [SeamCall<
        Input, Output, Failure
    >] {
        typedCalls(of: seam.info.id)
    }

    /// The calls made to an async `seam` in the scope, in order.
    public func calls<Input, Output, Failure>(of seam: AsyncSeam<Input, Output, Failure>) -> [SeamCall<
        Input, Output, Failure
    >] {
        typedCalls(of: seam.info.id)
    }

    /// Forgets the calls recorded so far.
    public func clearCalls() {
        state.withLock { $0.calls.removeAll() }
    }

    private func typedCalls<Input, Output, Failure>(of id: SeamID) -> [SeamCall<Input, Output, Failure>] {
        calls.filter { $0.seam == id }.compactMap(SeamCall.init)
    }

    // MARK: The call path

    /// This scope's box for `seam` and its description, if the scope changes it.
    @usableFromInline
    func layer(for seam: AnySeam) -> (box: AnyObject, description: String)? {
        let key = ObjectIdentifier(seam)
        return state.withLock { state in
            state.seams[key].flatMap { entry in entry.box.map { ($0, entry.description) } }
        }
    }

    /// Whether this scope or one around it records calls.
    @usableFromInline
    package var recordsCalls: Bool {
        var scope: ChaosScope? = self
        while let current = scope {
            if current.isRecording { return true }
            scope = current.parent
        }
        return false
    }

    /// Records a call in this scope and every recording scope around it.
    package func record(
        seam: SeamID, input: any Sendable, outcome: RecordedCall.Outcome, servedBy: RecordedCall.Server, task: Int?
    ) {
        var scope: ChaosScope? = self
        while let current = scope {
            if current.isRecording {
                current.state.withLock { state in
                    state.calls.append(
                        RecordedCall(
                            seam: seam, index: state.calls.count, input: input, outcome: outcome, servedBy: servedBy,
                            task: task))
                }
            }
            scope = current.parent
        }
    }
}
