import Foundation
import Mischief

/// The target's clock: wall-clock dates and a `Clock` for sleeps, both governed by one seam, so the time can
/// be shifted, frozen, sped up or made virtual while the program runs.
///
/// Read the time and sleep through it instead of `Date()` and `ContinuousClock`:
/// ```swift
/// let clock = ChaosClock.shared                 // seam "clock.now"
/// try Registry.shared.register(clock.seam)
///
/// let today = clock.date                        // a Date, as the target sees it
/// try await Task.sleep(for: .seconds(5), clock: clock)
///
/// try Registry.shared.apply(spec: "shift(+1d)", to: "clock.now")    // tomorrow; sleeps last as long
/// try Registry.shared.apply(spec: "dilate(60)", to: "clock.now")    // a minute passes every second
/// ```
/// The seam's actions: `shift(±duration)` moves the time by an offset and composes with the others
/// (`freeze(2030-01-01) + shift(+1d)`); `freeze(date)` stops it at a date; `dilate(factor)` makes it run faster
/// from the moment it is applied; `virtual` (or `virtual(date)`) stops it, to be moved by ``advance(by:)``.
///
/// Test example, with no real waiting. Inside ``withIdleTracking(isolation:_:)`` the body and its child tasks
/// run on an executor that counts runnable jobs, so an advance knows when the work it woke is done:
/// ```swift
/// let clock = ChaosClock(id: "test.clock")
/// let registry = Registry(sessionSeed: 1)
/// try registry.register(clock.seam)
/// try registry.apply(spec: "virtual(2030-01-01)", to: "test.clock")
/// try await clock.withIdleTracking { _ throws in   // `throws`: the closure's only `try`s are in nested code
///     async let woke = { try await clock.sleep(for: .seconds(60)); return clock.date }()
///     await clock.advance(by: .seconds(60))   // waits for the child to sleep, wakes it, waits until it is idle
///     #expect(try await woke == Date(timeIntervalSince1970: 1_893_456_060))
/// }
/// ```
/// Work in `Task {}` does not run there; an advance then settles each woken sleeper by yielding `settleYields`
/// times, a guess (``heuristicSettles`` counts them):
/// ```swift
/// let timer = Task { try await clock.sleep(for: .seconds(60)); return clock.date }
/// await clock.waitUntilSleeping(1)
/// await clock.advance(by: .seconds(60))
/// #expect(try await timer.value == Date(timeIntervalSince1970: 1_893_456_120))
/// ```
public final class ChaosClock: Clock, Sendable {
    /// The clock targets use unless they make their own; its seam id is `clock.now`.
    public static let shared = ChaosClock()

    /// The seam behind every reading; register it so consoles can change it:
    /// `try registry.register(clock.seam)`.
    public let seam: Seam<Void, Timeline, Never>
    let scheduler: SleepScheduler

    /// Makes a clock with a seam of its own.
    ///
    /// - Parameters:
    ///   - id: The seam's id; tests use ids of their own so they run in parallel.
    ///   - settleYields: How many times ``advance(by:)`` yields, after a resumed sleeper has returned from its
    ///     sleep, before it takes the sleeper as finished and resumes the next one: the fallback for sleepers
    ///     that do not run inside ``withIdleTracking(isolation:_:)``, which need no yields.
    public convenience init(id: SeamID = "clock.now", settleYields: Int = 20) {
        self.init(
            id: id, title: "Current time",
            summary: "What the target thinks the time is: its dates and its clock's sleeps", settleYields: settleYields)
    }

    /// A clock whose seam has a title and summary of its own, with the clock's actions: the `system.clock` seam's.
    package init(id: SeamID, title: String, summary: String, settleYields: Int = 20) {
        let seam = Seam<Void, Timeline, Never>(
            id, title: title, category: "Clock", summary: summary, actions: ClockActions.all, value: .real)
        self.seam = seam
        self.scheduler = SleepScheduler(settleYields: max(0, settleYields)) { seam.peek() }
        seam.onChange { [weak self] in self?.scheduler.timelineChanged() }
    }

    /// The current chaos time (a counted seam call).
    public var now: Instant {
        @inlinable get { Instant(durationSince1970: nowInPlace() ?? nowInFull()) }
    }

    /// The current chaos time as a `Date`: the same reading as ``now`` to a `Date`'s precision (a counted seam call).
    ///
    /// With nothing applied it costs `Date()` and the seam's own check; under `shift` it adds one sum, and while time
    /// stands still (`freeze`, `virtual`) it reads no clock at all. The timeline is read where the seam keeps it
    /// (`Seam.read`), and only a sum leaves the call: copying the timeline out would retain and release its advance
    /// offset, which cost more than the sum.
    ///
    /// Inlined into the caller, so that reading `ChaosClock.shared.date` from another module costs what reading a
    /// clock of that module does (the reading is made in `dateInPlace()`, which says why).
    public var date: Date {
        @inlinable get { dateInPlace() ?? dateInFull() }
    }

    /// The reading when the timeline lies in place (nothing applied, or a `shift`, `freeze` or `virtual`, which are
    /// constants of the seam): nil when the seam must run a behaviour, which ``dateInFull()`` does.
    ///
    /// `@_effects(releasenone)`, and true to it: it takes a ticket, reads the timeline and the real clock, and leaves,
    /// running no behaviour and no code of the caller's. A caller in another module reads `ChaosClock.shared` from a
    /// global it sees only through an accessor, and without this promise the compiler retains and releases the clock
    /// around the call for fear that the call frees it: two atomic operations, some 20 ns, more than half a `Date()`
    /// (issue 32; `Benchmarks/run.sh`, rows `shared.off` and `shared.hoisted`). Not inlined, so the promise stands.
    @usableFromInline @inline(never) @_effects(releasenone)
    func dateInPlace() -> Date? {
        seam.readIfInPlace((), Timeline.reading(at:))?.date
    }

    /// The reading as a full seam call, for behaviours that run on each call (a closure, a pause, a sequence).
    @usableFromInline @inline(never)
    func dateInFull() -> Date {
        seam.read { $0.reading() }.date
    }

    /// ``now`` when the timeline lies in place; see ``dateInPlace()``.
    @usableFromInline @inline(never) @_effects(releasenone)
    func nowInPlace() -> Duration? {
        seam.readIfInPlace((), { $0.pointee.chaos(atReal: Instants.realNow()) })
    }

    /// ``now`` as a full seam call.
    @usableFromInline @inline(never)
    func nowInFull() -> Duration {
        seam.read { $0.chaos(atReal: Instants.realNow()) }
    }

    /// The target's time as a `Date`, without counting the call, for consoles.
    public func peekDate() -> Date {
        Instants.date(seam.peek().chaos(atReal: Instants.realNow()))
    }

    /// One nanosecond.
    public var minimumResolution: Duration {
        .nanoseconds(1)
    }

    /// Suspends until chaos time reaches `deadline`.
    ///
    /// Under `shift` a sleep lasts as long as without it; under `dilate(N)` a sleep of d lasts d/N of real
    /// time; while time stands still (`freeze`, `virtual`) it ends only when the clock is advanced past
    /// `deadline` or the action is reverted (then at its real deadline, at once if that has passed). A
    /// deadline that has passed returns at once.
    ///
    /// - Parameters:
    ///   - deadline: The chaos-time instant to wake at.
    ///   - tolerance: Ignored: sleepers wake as close to their deadline as the system allows.
    /// - Throws: `CancellationError` when the task is cancelled; the sleep ends at once.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let task = withUnsafeCurrentTask { $0?.hashValue }
        defer { scheduler.returned(task: task) }
        try await scheduler.sleep(until: deadline.durationSince1970, task: task)
    }

    /// Moves time forward by `duration`, resuming every sleeper due within it, one at a time.
    ///
    /// Sleepers resume in order of deadline, then of when they started sleeping; time stands at each one's
    /// deadline while it runs. After each, the advance waits until that sleeper's work is done with, in one of two
    /// ways:
    /// - inside ``withIdleTracking(isolation:_:)``, for a sleeper whose task runs on its executor (the body's
    ///   nonisolated code and its child tasks): until the executor has no runnable job. Exact, with no yields; the
    ///   advance also waits for that idleness before it moves time at all;
    /// - otherwise (`Task {}`, `Task.detached`, `@MainActor` code, or no tracking): a guess. Until the task sleeps
    ///   on this clock again, or has returned from its sleep and not slept again within `settleYields` yields (it
    ///   finished, or awaits something else: it is not waited for any longer). ``heuristicSettles`` counts these.
    ///
    /// A sleep started meanwhile that falls due within the window is resumed by the same advance. Advances run one
    /// at a time.
    ///
    /// While time stands still it moves exactly by `duration`; under `shift` and `dilate` the offset grows by
    /// `duration`, so time jumps forward and keeps running. With nothing applied, time is real and cannot
    /// move: nothing happens.
    ///
    /// - Returns: False when time is real and was not moved.
    /// - Precondition: `duration` is not negative.
    @discardableResult
    public func advance(by duration: Duration) async -> Bool {
        await scheduler.advance(by: duration)
    }

    /// The number of tasks sleeping on this clock.
    public var sleeperCount: Int {
        scheduler.sleeperCount
    }

    /// Returns once at least `count` tasks sleep on this clock, so a test can advance knowing they wait.
    ///
    /// It waits until then even when its own task is cancelled.
    public func waitUntilSleeping(_ count: Int) async {
        await scheduler.waitUntilSleeping(count)
    }
}
