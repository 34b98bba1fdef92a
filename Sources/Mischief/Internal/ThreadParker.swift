/// Blocks one thread until another wakes it or a time passes: what a pause on a synchronous seam waits on.
///
/// It waits on a ``MonotonicCondition``, so moving the wall clock (a chaos clock, `settimeofday`, libfaketime) cannot
/// shorten or stretch the wait.
final class ThreadParker: @unchecked Sendable {
    // @unchecked: `woken` is only touched while `condition` is locked.
    private let condition = MonotonicCondition()
    private var woken = false

    /// Wakes the parked thread (or, if it has not parked yet, makes its park return at once).
    func wake() {
        condition.lock()
        woken = true
        condition.signal()
        condition.unlock()
    }

    /// Blocks until ``wake()`` or until `timeout` has passed; returns whether it was woken.
    func park(timeout: Duration) -> Bool {
        let deadline = MonotonicCondition.Deadline(after: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !woken {
            if !condition.wait(until: deadline) { break }
        }
        return woken
    }
}
