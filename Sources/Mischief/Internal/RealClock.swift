import CMischiefClock

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The wall clock as the system keeps it, for Mischief's own readings: the catalogue clock's real time, the time a
/// console's data was taken. While system seams rebind `clock_gettime` (`system.clock`), `Date()` may be the
/// target's chaos; these never are, so a clock seam never stacks on the system one.
@usableFromInline
package enum RealClock {
    /// The real wall-clock time (CLOCK_REALTIME) as a duration since 1970, to the nanosecond.
    @inlinable @inline(__always)
    package static func now() -> Duration {
        var spec = timespec()
        mischief_clock_real_gettime(CLOCK_REALTIME, &spec)
        return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
    }

    /// The real wall-clock time in seconds since 1970, as `Date()` reads it.
    @inlinable @inline(__always)
    package static func seconds() -> Double {
        mischief_clock_real_seconds()
    }

    /// The real date now: `Date()` as it would be without system seams.
    @inlinable @inline(__always)
    package static func date() -> Date {
        Date(timeIntervalSince1970: seconds())
    }
}
