#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The registry's housekeeping thread: it reverts changes whose time to live has run out and evaluates the guards,
/// even while nobody calls the registry.
///
/// It is started by the first change with a time to live or the first guard, and asks the registry (through a weak
/// reference, so it never keeps the registry alive) to expire what is due, evaluate the guards, and for its next
/// deadline (a time to live, or the next guard round); then it waits on a
/// condition variable of the monotonic clock until that deadline or until ``wake()`` (a deadline changed). Never
/// libdispatch, whose timeouts follow the wall clock. ``stop()`` (the registry's deinit) ends it.
final class HousekeepingTimer: @unchecked Sendable {
    // @unchecked: `started`, `stopped`, `woken` and `round` are only touched between pthread_mutex_lock and unlock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var started = false
    private var stopped = false
    private var woken = false
    /// What the thread asks each round: expire what is due, and how long until the next deadline (nil: none);
    /// `.none` once the registry is gone.
    private var round: (@Sendable () -> Duration??)?

    /// A timer whose thread is not started yet.
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Glibc)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #else
            pthread_cond_init(condition, nil)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Sets what the thread does each round (before it starts).
    func attach(_ round: @escaping @Sendable () -> Duration??) {
        pthread_mutex_lock(mutex)
        self.round = round
        pthread_mutex_unlock(mutex)
    }

    /// Makes the thread look at the deadlines again if it runs.
    func poke() {
        pthread_mutex_lock(mutex)
        woken = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Makes the thread look at the deadlines again, starting it the first time.
    func wake() {
        pthread_mutex_lock(mutex)
        let start = !started && !stopped && round != nil
        started = started || start
        woken = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        if start { startThread() }
    }

    /// Ends the thread (at once if it waits; after its round if it is in one).
    func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    private func startThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let result = pthread_create(
            &thread, nil,
            { context in
                #if canImport(Glibc)
                    let timer = Unmanaged<HousekeepingTimer>.fromOpaque(context!).takeRetainedValue()
                #else
                    let timer = Unmanaged<HousekeepingTimer>.fromOpaque(context).takeRetainedValue()
                #endif
                timer.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<HousekeepingTimer>.fromOpaque(context).release()
            return
        }
        #if canImport(Glibc)
            pthread_detach(thread)
        #else
            if let thread { pthread_detach(thread) }
        #endif
    }

    private func run() {
        while true {
            pthread_mutex_lock(mutex)
            woken = false
            let isStopped = stopped
            let round = self.round
            pthread_mutex_unlock(mutex)
            if isStopped { return }
            guard let next = round?() else { return }  // the registry is gone
            pthread_mutex_lock(mutex)
            if !woken && !stopped {
                if let next {
                    wait(next)  // timed out, woken or spuriously: the next round asks the registry again
                } else {
                    while !woken && !stopped { pthread_cond_wait(condition, mutex) }
                }
            }
            pthread_mutex_unlock(mutex)
        }
    }

    /// Waits (holding the mutex) at most `timeout` on the monotonic clock, or until signalled.
    private func wait(_ timeout: Duration) {
        guard timeout > .zero else { return }
        let capped = min(timeout, .seconds(3_600))
        #if canImport(Glibc)
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let (seconds, attoseconds) = capped.components
            let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
            deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            _ = pthread_cond_timedwait(condition, mutex, &deadline)
        #else
            let (seconds, attoseconds) = capped.components
            var relative = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            _ = pthread_cond_timedwait_relative_np(condition, mutex, &relative)
        #endif
    }
}
