import CMischiefTSan
import Synchronization

/// A value behind a `Synchronization.Mutex` that ThreadSanitizer can see.
///
/// On Linux `Mutex` waits on a futex that ThreadSanitizer does not intercept, so it reports every access the
/// mutex guards as a race, and because `withLock` is inlined the reports carry no frame to suppress. `Locked`
/// tells it: right after taking the lock it calls `__tsan_acquire`, right before releasing it `__tsan_release`,
/// both on this object's address. Those calls exist only in builds with `--sanitize=thread` (the C target
/// decides at compile time); otherwise they are empty C functions. Never on a seam's call path.
///
/// ```swift
/// let names = Locked<[String: Int]>([:])
/// names.withLock { $0["a", default: 0] += 1 }
/// ```
package final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: sending Value) { mutex = Mutex(value) }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let address = Unmanaged.passUnretained(self).toOpaque()
        return try mutex.withLock { (value) throws(E) -> sending Result in
            mischief_tsan_acquire(address)
            defer { mischief_tsan_release(address) }
            return try body(&value)
        }
    }
}

/// Whether this build runs under ThreadSanitizer (for tests that prove it reports real races).
package var isThreadSanitized: Bool { mischief_tsan_enabled() != 0 }
