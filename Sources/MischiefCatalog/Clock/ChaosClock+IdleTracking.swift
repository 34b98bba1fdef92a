import Mischief

extension ChaosClock {
    /// Runs `body` on an ``IdleTrackingExecutor``, so that ``advance(by:)`` and ``runUntilIdle()`` know when the
    /// work they wake is done instead of guessing by yielding.
    ///
    /// While `body` runs, an advance first waits until the executor is idle (so work started before it has reached
    /// its sleeps), then resumes each due sleeper whose task prefers the executor and waits until the executor is
    /// idle again: the sleeper has slept again, returned, or awaits something that does not run there. No
    /// `settleYields` yields are made for such sleepers, however many awaits they make before their next sleep.
    ///
    /// Which work that covers, checked on Swift 6.3.1: `body` itself when it is nonisolated (a test function that
    /// is not `@MainActor`), its child tasks (`async let`, task groups) and the default actors they call, and tasks
    /// made with `Task(executorPreference: executor)` from the executor `body` receives. Not covered, and settled by
    /// the yield heuristic as before: `Task {}` and `Task.detached {}` (they do not inherit the preference),
    /// `@MainActor` code and any actor with an executor of its own, callbacks on other threads. A covered task that
    /// sleeps inside a `@MainActor` function is woken on the executor but continues on the main actor, which is not
    /// waited for. Called from an actor, `body` stays on that actor; only its nonisolated children run on the
    /// executor.
    ///
    /// ```swift
    /// @Test func refreshesEveryMinute() async throws {
    ///     try registry.apply(spec: "virtual(2030-01-01)", to: "test.clock")
    ///     try await clock.withIdleTracking { _ in
    ///         async let refresher: Void = model.refreshEveryMinute(clock: clock)  // a child task: tracked
    ///         await clock.advance(by: .seconds(180))   // exactly three refreshes, with no guessing
    ///         #expect(model.refreshCount == 3)
    ///         #expect(clock.heuristicSettles == 0)
    ///         model.stop()
    ///         try await refresher
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, inherited: `body` runs there when there is one.
    ///   - body: The test's work; it receives the executor, for `Task(executorPreference:)`.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws. Swift infers a closure's `throws` from the `try`s it can see, and not from those
    ///   inside `#expect` or `#require`: a body whose only `try` is there needs `{ executor throws in`.
    /// - Precondition: No other `withIdleTracking` runs on this clock.
    public func withIdleTracking<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (IdleTrackingExecutor) async throws -> T
    ) async rethrows -> T {
        let executor = IdleTrackingExecutor()
        scheduler.startTracking(executor)
        defer { scheduler.stopTracking() }
        return try await withTaskExecutorPreference(executor, isolation: isolation) {
            try await body(executor)
        }
    }

    /// Resumes the sleepers that are due and returns when none is due and no tracked work can run.
    ///
    /// Inside ``withIdleTracking(isolation:_:)`` it waits until the executor is idle, resumes each sleeper due at
    /// the current time (as ``advance(by:)`` does, one at a time), and returns exactly when the executor has no
    /// runnable job and no sleeper is due. Time does not move. Outside it, or for sleepers whose tasks do not
    /// prefer the executor, it can only guess, yielding `settleYields` times as an advance does. Under a running
    /// timeline (real, `shift`, `dilate`) sleepers keep falling due: it returns once none is due when it checks.
    public func runUntilIdle() async {
        await scheduler.runUntilIdle()
    }

    /// How many times this clock's advances and ``runUntilIdle()`` fell back to the yield heuristic (`settleYields`)
    /// because the work they woke did not run on an ``IdleTrackingExecutor``.
    ///
    /// It stays 0 while every sleeper runs inside ``withIdleTracking(isolation:_:)``; a test can check it to prove
    /// its outcome did not rest on a guess.
    public var heuristicSettles: Int {
        scheduler.heuristicSettles
    }
}
