import Mischief

extension SleepScheduler {
    /// Moves the timeline forward by `duration`, resuming due sleepers one at a time; false when the timeline
    /// is real and cannot move. See ``ChaosClock/advance(by:)``.
    func advance(by duration: Duration) async -> Bool {
        precondition(duration >= .zero, "advance(by:) moves time forward only; got \(duration)")
        await beginAdvance()
        let (movable, tracker) = state.withLock { state in
            planTimer(&state)  // `advancing` is set: this stops the timer until the advance ends
            return (state.timeline.progress != nil, state.tracker)
        }
        if movable {
            // Work started before the advance first runs until it is idle, so its sleeps count.
            await tracker?.waitUntilIdle()
            var remaining = duration
            while let sleeper = nextStep(&remaining) {
                sleeper.continuation.resume()
                await settle(sleeper)
            }
        }
        endAdvance()
        return movable
    }

    /// Resumes the sleepers due now, one at a time, and returns when none is due and the tracking executor is
    /// idle. See ``ChaosClock/runUntilIdle()``.
    func runUntilIdle() async {
        await beginAdvance()
        let tracker = state.withLock { state in
            planTimer(&state)
            return state.tracker
        }
        if let tracker {
            await tracker.waitUntilIdle()
        } else {
            await guess()
        }
        var none = Duration.zero
        while let sleeper = nextStep(&none) {
            sleeper.continuation.resume()
            await settle(sleeper)
        }
        endAdvance()
    }

    /// Moves time to the earliest sleeper due within `remaining` and takes it, or moves the rest of the way.
    private func nextStep(_ remaining: inout Duration) -> Sleeper? {
        let (sleeper, left) = state.withLock { state -> (Sleeper?, Duration) in
            let now = state.timeline.chaos(atReal: Instants.realNow())
            // With nothing left to move, the sleepers already due are taken whatever the timeline.
            guard let first = state.sleepers.first, first.deadline <= now + remaining,
                state.timeline.progress != nil || remaining == .zero
            else {
                state.timeline.advance(by: remaining)
                return (nil, .zero)
            }
            let step = max(.zero, first.deadline - now)
            state.timeline.advance(by: step)
            state.sleepers.removeFirst()
            state.watch = Watch(task: first.task)
            return (first, remaining - step)
        }
        remaining = left
        return sleeper
    }

    /// Waits until the resumed sleeper's work is done with.
    ///
    /// A sleeper whose task prefers an ``IdleTrackingExecutor`` is done with when that executor is idle: it slept
    /// again, returned, or awaits something that is not running there. Any other is guessed at: it is done with when
    /// it sleeps on this clock again, or has returned from its sleep and not slept again within ``settleYields``
    /// yields.
    private func settle(_ sleeper: Sleeper) async {
        if let executor = sleeper.executor {
            await executor.waitUntilIdle()
            state.withLock { $0.watch = nil }
            return
        }
        if sleeper.task != nil {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    guard let watch = state.watch, !watch.returned, !watch.sleptAgain else { return true }
                    state.watch?.signal = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
        await guess()
        state.withLock { $0.watch = nil }
    }

    /// The yield heuristic: yields up to ``settleYields`` times, fewer once the watched sleeper sleeps again, and
    /// counts the guess.
    private func guess() async {
        state.withLock { $0.heuristicSettles += 1 }
        for _ in 0..<settleYields {
            if state.withLock({ $0.watch?.sleptAgain ?? false }) { break }
            await Task<Void, Never>.detached(priority: .background) { await Task.yield() }.value
        }
    }

    /// Waits for the advances started earlier to end; advances run one at a time.
    private func beginAdvance() async {
        await withCheckedContinuation { continuation in
            let proceed = state.withLock { state in
                guard state.advancing else {
                    state.advancing = true
                    return true
                }
                state.advanceQueue.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    /// Hands over to the next advance, or restarts the timer and wakes whoever real time made due.
    private func endAdvance() {
        let (next, due) = state.withLock { state -> (CheckedContinuation<Void, Never>?, [Sleeper]) in
            if !state.advanceQueue.isEmpty { return (state.advanceQueue.removeFirst(), []) }
            state.advancing = false
            let due = state.takeDue()
            planTimer(&state)
            return (nil, due)
        }
        next?.resume()
        for sleeper in due { sleeper.continuation.resume() }
    }
}
