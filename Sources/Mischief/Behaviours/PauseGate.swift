import Synchronization

/// Holds the calls a ``Behaviour/pause(_:max:)`` behaviour catches until they are released: the handle a test
/// (or a console) uses to decide when a held call goes on.
///
/// A held call on an ``AsyncSeam`` suspends; on a ``Seam`` it blocks its thread. Every hold ends, at the latest,
/// when its maximum time has passed; it also ends when ``release()`` or ``release(_:)`` lets it go, when the
/// change that applied the pause is reverted (or the kill switch reverts it), when the registry goes away, and,
/// on an async seam, when the waiting task is cancelled. However a hold ends, the call then goes on with what
/// follows the pause (the original, or the rest of a `+` composition).
///
/// ```swift
/// let gate = PauseGate()
/// try registry.apply(fetchUser, .match([.when(2, .pause(gate))]))   // hold the request for user 2
/// async let second = fetchUser(2)
/// try await gate.waitUntilHeld(1)         // no sleeping: returns once the call is held
/// let first = try await fetchUser(1)      // runs, and fills the cache, while the second waits
/// gate.release()
/// _ = try await (first, second)
/// ```
///
/// One gate may serve several behaviours and seams; ``Registry/release(_:)`` releases only the calls held on
/// one seam. Without a gate of its own, a pause makes one when it is applied (spec `pause` does).
public final class PauseGate: Sendable {
    /// How long a pause holds a call when no maximum is given: 30 seconds.
    public static let defaultMax: Duration = .seconds(30)

    /// The longest maximum a pause accepts: one day.
    public static let longestMax: Duration = .seconds(86_400)

    private let state = Locked(State())

    /// Makes a gate with no calls held.
    public init() {}

    /// How many calls are held now.
    public var heldCount: Int { state.withLock { $0.held.count } }

    /// Releases every held call; returns how many.
    @discardableResult
    public func release() -> Int { release(Int.max) }

    /// Releases the `count` calls held longest (all of them when fewer are held); returns how many.
    @discardableResult
    public func release(_ count: Int) -> Int {
        precondition(count >= 0, "PauseGate.release(_:) needs a count of zero or more, got \(count)")
        let released = state.withLock { state in
            let taken = Array(state.held.prefix(count))
            state.held.removeFirst(taken.count)
            return taken
        }
        for waiter in released { waiter.wake() }
        return released.count
    }

    /// Waits, without polling, until at least `count` calls are held at once.
    ///
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func waitUntilHeld(_ count: Int = 1) async throws(CancellationError) {
        try await waitUntilHeld(count, at: nil)
    }

    /// Waits until `count` calls are held at `site`, or on the whole gate when `site` is nil.
    func waitUntilHeld(_ count: Int, at site: PauseSite?) async throws(CancellationError) {
        let key = site.map(ObjectIdentifier.init)
        let id = state.withLock { $0.makeID() }
        let reached = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = state.withLock { state in
                    if state.heldCount(at: key) >= count { return true }
                    if Task.isCancelled { return false }
                    state.watchers.append(Watcher(id: id, site: key, count: count, continuation: continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let watcher = state.withLock { state in
                state.watchers.firstIndex { $0.id == id }.map { state.watchers.remove(at: $0) }
            }
            watcher?.continuation.resume(returning: false)
        }
        if !reached { throw CancellationError() }
    }

    // MARK: Holding (the compiled pause behaviours)

    /// How a hold ended.
    enum Outcome {
        /// Released (by the gate, the registry, a revert), or never held because its site was already open.
        case released
        /// Released with an answer: the compiled behaviour (a `SyncBox` or `AsyncBox` of the seam's types) the
        /// call runs instead of what follows the pause (see ``Registry/release(_:answer:holdNext:source:)``).
        case answered(any AnyObject & Sendable)
        /// Its maximum time passed.
        case expired
        /// Its task was cancelled (async seams only).
        case cancelled

        /// Whether the call went on because its maximum time passed.
        var isExpired: Bool {
            if case .expired = self { true } else { false }
        }
    }

    /// Blocks the calling thread until the call is released or `max` has passed. `input` is the held call's input
    /// as people read it (``HeldCall/readable(_:)``), made only once the call is held.
    func holdBlocking(at site: PauseSite, max: Duration, input: () -> String = { "" }) -> Outcome {
        let parker = ThreadParker()
        let answer = AnswerSlot()
        guard let id = admit(at: site, waking: .thread(parker, answer), input: input) else { return .released }
        if parker.park(timeout: max) { return answer.take().map(Outcome.answered) ?? .released }
        // The time is up, unless a release took the call off the list meanwhile (its wake-up is then on its way).
        if withdraw(id) != nil { return .expired }
        _ = parker.park(timeout: .seconds(1))  // the release that took it sets the answer before it wakes
        return answer.take().map(Outcome.answered) ?? .released
    }

    /// Suspends the calling task until the call is released, `max` has passed or the task is cancelled.
    func hold(at site: PauseSite, max: Duration, input: () -> String = { "" }) async -> Outcome {
        let id = state.withLock { $0.makeID() }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                guard admit(at: site, waking: .task(continuation), id: id, input: input) != nil else {
                    return continuation.resume(returning: Task.isCancelled ? .cancelled : .released)
                }
                // The timer starts once the call is on the list, so it cannot fire before there is a call to end.
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: max)
                    guard !Task.isCancelled else { return }
                    self?.withdraw(id)?.wake(.expired)
                }
                let alreadyGone = state.withLock { state in
                    guard let index = state.held.firstIndex(where: { $0.id == id }) else { return true }
                    state.held[index].timer = timer
                    return false
                }
                if alreadyGone { timer.cancel() }
            }
        } onCancel: {
            withdraw(id)?.wake(.cancelled)
        }
        return outcome
    }

    /// Releases the calls held at `site`; with `closing`, the site holds no call from now on. With an `answer`,
    /// each released call runs it instead of what follows the pause. Returns how many.
    func release(at site: PauseSite, closing: Bool, answer: (any AnyObject & Sendable)? = nil) -> Int {
        let released = state.withLock { state in
            if closing { site.isOpen.store(true, ordering: .relaxed) }
            let mine = state.held.filter { $0.site == ObjectIdentifier(site) }
            state.held.removeAll { $0.site == ObjectIdentifier(site) }
            return mine
        }
        for waiter in released { waiter.wake(answer.map(Outcome.answered) ?? .released) }
        return released.count
    }

    /// The inputs of the calls held at `site`, oldest first.
    func heldInputs(at site: PauseSite) -> [String] {
        state.withLock { state in state.held.filter { $0.site == ObjectIdentifier(site) }.map(\.input) }
    }

    /// How many calls are held at `site`.
    func heldCount(at site: PauseSite) -> Int {
        state.withLock { state in state.heldCount(at: ObjectIdentifier(site)) }
    }

    /// Puts a call on the list, unless its site is open; returns its id, or nil when it goes on at once.
    private func admit(
        at site: PauseSite, waking: Waiter.Waking, id: Int? = nil, input: () -> String = { "" }
    ) -> Int? {
        // Rendered before the lock (a value's description may be slow), and only for a site that may hold it.
        guard !site.isOpen.load(ordering: .relaxed) else { return nil }
        let text = input()
        let (admitted, satisfied) = state.withLock { state -> (Int?, [Watcher]) in
            // `isOpen` is only set under this lock, so a site closed by a revert never admits a call afterwards;
            // a cancelled task is not admitted either (its cancellation handler may already have looked).
            guard !site.isOpen.load(ordering: .relaxed) else { return (nil, []) }
            if case .task = waking, Task.isCancelled { return (nil, []) }
            let id = id ?? state.makeID()
            state.held.append(Waiter(id: id, site: ObjectIdentifier(site), waking: waking, input: text))
            guard !state.watchers.isEmpty else { return (id, []) }  // no need to count, call after call
            let total = state.held.count
            let here = state.heldCount(at: ObjectIdentifier(site))
            func isSatisfied(_ watcher: Watcher) -> Bool { watcher.count <= (watcher.site == nil ? total : here) }
            let satisfied = state.watchers.filter {
                isSatisfied($0) && ($0.site == nil || $0.site == ObjectIdentifier(site))
            }
            state.watchers.removeAll { isSatisfied($0) && ($0.site == nil || $0.site == ObjectIdentifier(site)) }
            return (id, satisfied)
        }
        for watcher in satisfied { watcher.continuation.resume(returning: true) }
        return admitted
    }

    /// Takes the call `id` off the list; nil when it is no longer on it.
    private func withdraw(_ id: Int) -> Waiter? {
        state.withLock { state in
            state.held.firstIndex { $0.id == id }.map { state.held.remove(at: $0) }
        }
    }

    private struct State {
        /// Held calls, oldest first.
        var held: [Waiter] = []
        var watchers: [Watcher] = []
        private var nextID = 0

        /// Calls held at the site with this identity, or on the whole gate for nil.
        func heldCount(at site: ObjectIdentifier?) -> Int {
            guard let site else { return held.count }
            return held.count { $0.site == site }
        }

        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }
    }

    /// A held call and how to wake it.
    private struct Waiter: @unchecked Sendable {
        // @unchecked: the continuation and parker are Sendable; the struct is only touched under the gate's lock.
        enum Waking {
            case thread(ThreadParker, AnswerSlot)
            case task(CheckedContinuation<Outcome, Never>)
        }

        let id: Int
        let site: ObjectIdentifier
        let waking: Waking
        /// The call's input as people read it.
        let input: String
        var timer: Task<Void, Never>?

        init(id: Int, site: ObjectIdentifier, waking: Waking, input: String) {
            self.id = id
            self.site = site
            self.waking = waking
            self.input = input
        }

        /// Lets the call go on (once: the caller took it off the list).
        func wake(_ outcome: Outcome = .released) {
            timer?.cancel()
            switch waking {
            case .thread(let parker, let slot):
                if case .answered(let answer) = outcome { slot.put(answer) }
                parker.wake()
            case .task(let continuation): continuation.resume(returning: outcome)
            }
        }
    }

    /// A task waiting for `count` held calls.
    private struct Watcher {
        let id: Int
        /// The site whose calls it counts; nil for the whole gate.
        let site: ObjectIdentifier?
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
    }
}

/// Where a release's answer waits for a thread held on a synchronous seam: set before the thread is woken.
final class AnswerSlot: Sendable {
    private let answer = Locked<(any AnyObject & Sendable)?>(nil)

    func put(_ value: any AnyObject & Sendable) { answer.withLock { $0 = value } }

    func take() -> (any AnyObject & Sendable)? {
        answer.withLock { slot in
            defer { slot = nil }; return slot
        }
    }
}

/// One pause in one applied behaviour: where its calls are held, and whether it still holds them.
///
/// The registry keeps each layer's sites, so it can release the calls a seam holds and, when the layer is
/// reverted, close the site so that a call still on its way in does not stay held afterwards.
final class PauseSite: Sendable {
    let gate: PauseGate
    let max: Duration
    /// Set once, under the gate's lock, when the layer goes.
    let isOpen = Atomic<Bool>(false)

    init(gate: PauseGate, max: Duration) {
        self.gate = gate
        self.max = max
    }

    /// How many calls are held here now.
    var heldCount: Int { gate.heldCount(at: self) }

    /// Releases the calls held here, with an answer they run instead of what follows the pause when given;
    /// returns how many.
    @discardableResult
    func release(answer: (any AnyObject & Sendable)? = nil) -> Int {
        gate.release(at: self, closing: false, answer: answer)
    }

    /// The inputs of the calls held here, oldest first.
    var heldInputs: [String] { gate.heldInputs(at: self) }

    /// Waits until `count` calls are held here.
    func waitUntilHeld(_ count: Int) async throws(CancellationError) {
        try await gate.waitUntilHeld(count, at: self)
    }

    /// Releases the calls held here and holds none from now on.
    func close() { _ = gate.release(at: self, closing: true) }
}
