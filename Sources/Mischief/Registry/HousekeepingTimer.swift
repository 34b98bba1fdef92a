#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The registry's housekeeping thread: it reverts layers whose time to live has run out and evaluates the guards,
/// even while nobody calls the registry.
///
/// It is started by the first layer with a time to live or the first guard, and asks the registry (through a weak
/// reference, so it never keeps the registry alive) to expire what is due, evaluate the guards, and for its next
/// deadline (a time to live, or the next guard round); then it waits on a
/// ``MonotonicCondition`` until that deadline or until ``wake()`` (a deadline changed). Never
/// libdispatch, whose timeouts follow the wall clock. ``stop()`` (the registry's deinit) ends it.
final class HousekeepingTimer: @unchecked Sendable {
    // @unchecked: `started`, `stopped`, `woken` and `round` are only touched while `condition` is locked.
    private let condition = MonotonicCondition()
    private var started = false
    private var stopped = false
    private var woken = false
    /// What the thread asks each round: expire what is due, and how long until the next deadline (nil: none);
    /// `.none` once the registry is gone.
    private var round: (@Sendable () -> Duration??)?

    /// Sets what the thread does each round (before it starts).
    func attach(_ round: @escaping @Sendable () -> Duration??) {
        condition.lock()
        self.round = round
        condition.unlock()
    }

    /// Makes the thread look at the deadlines again if it runs.
    func poke() {
        condition.lock()
        woken = true
        condition.signal()
        condition.unlock()
    }

    /// Makes the thread look at the deadlines again, starting it the first time.
    func wake() {
        condition.lock()
        let start = !started && !stopped && round != nil
        started = started || start
        woken = true
        condition.signal()
        condition.unlock()
        if start { startThread() }
    }

    /// Ends the thread (at once if it waits; after its round if it is in one).
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func startThread() {
        // pthread_create fails only when the process can start no more threads; there is then no housekeeping.
        if case .success(let thread) = POSIXThread.start({ self.run() }) { thread.detach() }
    }

    private func run() {
        while true {
            condition.lock()
            woken = false
            let isStopped = stopped
            let round = self.round
            condition.unlock()
            if isStopped { return }
            guard let next = round?() else { return }  // the registry is gone
            condition.lock()
            if !woken && !stopped {
                if let next {
                    wait(next)  // timed out, woken or spuriously: the next round asks the registry again
                } else {
                    while !woken && !stopped { condition.wait() }
                }
            }
            condition.unlock()
        }
    }

    /// Waits (holding the lock) at most `timeout`, capped at an hour, or until signalled.
    private func wait(_ timeout: Duration) {
        guard timeout > .zero else { return }
        _ = condition.wait(until: MonotonicCondition.Deadline(after: min(timeout, .seconds(3_600))))
    }
}
