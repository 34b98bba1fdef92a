#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex and a condition variable whose timed waits run on the monotonic clock (on Linux), so a chaos
/// clock, `settimeofday` or libfaketime moving the wall clock cannot shorten or stretch them (libdispatch's timeouts
/// follow the wall clock). What ``ThreadParker`` and ``HousekeepingTimer`` wait on; the pthread values live at fixed
/// heap addresses for the condition's lifetime.
final class MonotonicCondition: @unchecked Sendable {
    // @unchecked: the pthread values are used only through pthread calls, which synchronise themselves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

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

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes one waiter (call holding the lock).
    func signal() { pthread_cond_signal(condition) }
    /// Waits until signalled, or spuriously (call holding the lock).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// A point `timeout` from now on the clock timed waits use.
    struct Deadline {
        #if canImport(Glibc)
            fileprivate var time = timespec()
        #else
            fileprivate var end: ContinuousClock.Instant
        #endif

        init(after timeout: Duration) {
            #if canImport(Glibc)
                clock_gettime(CLOCK_MONOTONIC, &time)
                let (seconds, attoseconds) = timeout.components
                let nanoseconds = Int(time.tv_nsec) + Int(attoseconds / 1_000_000_000)
                time.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
                time.tv_nsec = nanoseconds % 1_000_000_000
            #else
                end = ContinuousClock.now + timeout
            #endif
        }
    }

    /// Waits until signalled (or spuriously) or until `deadline` (call holding the lock); returns false once the
    /// deadline has passed.
    func wait(until deadline: Deadline) -> Bool {
        #if canImport(Glibc)
            var time = deadline.time
            return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
        #else
            let left = ContinuousClock.now.duration(to: deadline.end)
            guard left > .zero else { return false }
            let (seconds, attoseconds) = left.components
            var relative = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            return pthread_cond_timedwait_relative_np(condition, mutex, &relative) != ETIMEDOUT
        #endif
    }
}
