#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Blocks one thread until another wakes it or a time passes: what a pause on a synchronous seam waits on.
///
/// A pthread mutex and condition variable on the monotonic clock (on Linux), so a chaos clock, `settimeofday` or
/// libfaketime moving the wall clock cannot shorten or stretch the wait (libdispatch's timeouts follow the wall
/// clock). The pthread values live at fixed heap addresses for the parker's lifetime.
final class ThreadParker: @unchecked Sendable {
    // @unchecked: `mutex`, `condition` and `woken` are only touched between pthread_mutex_lock and unlock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var woken = false

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

    /// Wakes the parked thread (or, if it has not parked yet, makes its park return at once).
    func wake() {
        pthread_mutex_lock(mutex)
        woken = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until ``wake()`` or until `timeout` has passed; returns whether it was woken.
    func park(timeout: Duration) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        #if canImport(Glibc)
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
            deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            while !woken {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
        #else
            let end = ContinuousClock.now + timeout
            while !woken {
                let left = ContinuousClock.now.duration(to: end)
                guard left > .zero else { break }
                let (seconds, attoseconds) = left.components
                var relative = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                if pthread_cond_timedwait_relative_np(condition, mutex, &relative) == ETIMEDOUT { break }
            }
        #endif
        return woken
    }
}
