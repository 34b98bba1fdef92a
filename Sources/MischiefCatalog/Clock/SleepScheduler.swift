import Mischief

/// The sleepers of one ``ChaosClock``: when each wakes, one real-time timer for the earliest, and the waiting
/// room of ``ChaosClock/advance(by:)``.
///
/// Deadlines are chaos times (durations since 1970). While the timeline runs, one timer task waits for the
/// real time of the earliest deadline; while it stands still there is no timer, and sleepers wake only by an
/// advance or a change of timeline.
final class SleepScheduler: Sendable {
    struct Sleeper: Sendable {
        /// Increases in the order sleeps start; breaks ties between equal deadlines.
        let id: UInt64
        let deadline: Duration
        /// The sleeping task's identity, so an advance can tell when it sleeps again.
        let task: Int?
        /// The idle-tracking executor the sleeping task prefers, if any: an advance that resumes it waits until
        /// that executor is idle instead of yielding.
        let executor: IdleTrackingExecutor?
        let continuation: CheckedContinuation<Void, any Error>
    }

    struct State: Sendable {
        var timeline = Timeline.real
        /// How many times the timeline was read after a change, and which reading `timeline` holds.
        var readings: UInt64 = 0
        var keptReading: UInt64 = 0
        /// Sorted by (deadline, id).
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var timer: Task<Void, Never>?
        var timerTarget: Duration?
        var timerGeneration: UInt64 = 0
        var advancing = false
        var advanceQueue: [CheckedContinuation<Void, Never>] = []
        /// The sleeper an advance has just resumed.
        var watch: Watch?
        /// Callers of ``ChaosClock/waitUntilSleeping(_:)``.
        var countWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// The executor of the running ``ChaosClock/withIdleTracking(isolation:_:)``, if one runs.
        var tracker: IdleTrackingExecutor?
        /// How many times an advance settled by yielding `settleYields` times rather than by knowing.
        var heuristicSettles = 0

        /// Removes and returns the sleepers due at the current chaos time, in wake order.
        mutating func takeDue() -> [Sleeper] {
            let now = timeline.chaos(atReal: Instants.realNow())
            let count = sleepers.firstIndex { $0.deadline > now } ?? sleepers.count
            defer { sleepers.removeFirst(count) }
            return Array(sleepers.prefix(count))
        }

        /// Removes and returns the waiters whose count of sleepers has been reached.
        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = countWaiters.filter { $0.count <= sleepers.count }.map(\.continuation)
            countWaiters.removeAll { $0.count <= sleepers.count }
            return ready
        }
    }

    /// What an advance knows about the sleeper it resumed last.
    struct Watch: Sendable {
        let task: Int?
        var returned = false
        var sleptAgain = false
        var signal: CheckedContinuation<Void, Never>?
    }

    let state = Locked(State())
    /// Reads the seam's timeline without counting the call.
    let read: @Sendable () -> Timeline
    /// How many times an advance yields, after a resumed sleeper has returned, before it deems it finished.
    let settleYields: Int

    init(settleYields: Int, read: @escaping @Sendable () -> Timeline) {
        self.settleYields = settleYields
        self.read = read
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }

    /// Suspends until `deadline`, an advance, a change that makes it due, or cancellation.
    func sleep(until deadline: Duration, task: Int?) async throws {
        let (id, executor) = state.withLock { state in
            defer { state.nextID += 1 }
            return (state.nextID, state.tracker.flatMap { $0.isPreferredByCurrentTask ? $0 : nil })
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                typealias Outcome = (immediate: Result<Void, any Error>?, waiters: [CheckedContinuation<Void, Never>])
                let (immediate, waiters) = state.withLock { state -> Outcome in
                    // The cancellation flag is set before the handler runs, so a handler that ran before this
                    // lock found nothing to cancel, and this check sees the flag.
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.timeline.chaos(atReal: Instants.realNow()) { return (.success(()), []) }
                    let index =
                        state.sleepers.firstIndex { ($0.deadline, $0.id) > (deadline, id) }
                        ?? state.sleepers.endIndex
                    state.sleepers.insert(
                        Sleeper(
                            id: id, deadline: deadline, task: task, executor: executor, continuation: continuation),
                        at: index)
                    if let task, state.watch?.task == task { state.watch?.sleptAgain = true }
                    if index == 0 { planTimer(&state) }
                    return (nil, state.takeSatisfiedWaiters())
                }
                for waiter in waiters { waiter.resume() }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let removed = state.withLock { state in
                state.sleepers.firstIndex { $0.id == id }.map { state.sleepers.remove(at: $0) }
            }
            removed?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Re-reads the timeline after an apply or revert: wakes those now due and replans the timer.
    ///
    /// The seam is read outside the lock (a behaviour may take its time). Of listeners running at once, the
    /// one that started last read last, after every change they announce, so only its reading is kept.
    func timelineChanged() {
        let reading = state.withLock { state in
            state.readings += 1
            return state.readings
        }
        let timeline = read()
        let due = state.withLock { state -> [Sleeper] in
            guard reading > state.keptReading else { return [] }
            state.keptReading = reading
            state.timeline = timeline
            let due = state.takeDue()
            planTimer(&state)
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Sets the timer for the earliest sleeper's real deadline; none while time stands still, nobody sleeps
    /// or an advance runs.
    func planTimer(_ state: inout State) {
        guard !state.advancing, let first = state.sleepers.first,
            let target = state.timeline.real(forChaos: first.deadline)
        else {
            state.timer?.cancel()
            state.timer = nil
            state.timerTarget = nil
            return
        }
        if state.timer != nil, state.timerTarget == target { return }
        state.timer?.cancel()
        state.timerGeneration += 1
        state.timerTarget = target
        let generation = state.timerGeneration
        // At most a day at a time, so far deadlines do not overflow the sleep; the timer replans when it fires.
        let wait = min(target - Instants.realNow(), .seconds(86_400))
        state.timer = Task { [weak self] in
            if wait > .zero {
                do { try await Task.sleep(for: wait) } catch { return }
            }
            self?.timerFired(generation)
        }
    }

    private func timerFired(_ generation: UInt64) {
        let due = state.withLock { state -> [Sleeper] in
            guard state.timerGeneration == generation else { return [] }
            state.timer = nil
            state.timerTarget = nil
            let due = state.takeDue()
            planTimer(&state)
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Tells a watching advance that `task` has returned from a sleep.
    func returned(task: Int?) {
        let signal = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let task, state.watch?.task == task else { return nil }
            state.watch?.returned = true
            defer { state.watch?.signal = nil }
            return state.watch?.signal
        }
        signal?.resume()
    }

    /// Returns once at least `count` sleepers wait.
    func waitUntilSleeping(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                guard state.sleepers.count < count else { return true }
                state.countWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Makes `executor` the one whose tasks' sleeps an advance settles by waiting for idleness.
    func startTracking(_ executor: IdleTrackingExecutor) {
        state.withLock { state in
            precondition(
                state.tracker == nil,
                "withIdleTracking is already running on this clock; run one at a time (nested or concurrent scopes "
                    + "would not know whose work to wait for)")
            state.tracker = executor
        }
    }

    /// Ends the tracking started by ``startTracking(_:)``; sleepers already tracked stay so.
    func stopTracking() {
        state.withLock { $0.tracker = nil }
    }

    var heuristicSettles: Int { state.withLock { $0.heuristicSettles } }
}
