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

    /// How long from `now` until wall-clock time is next a whole multiple of `period` (a full period when it is one
    /// already): what follows a registry on a period looks on those instants, so a period that divides a second
    /// has one fall on every second's turn, and the seconds a console shows turn on time.
    package static func delay(after now: Date, toNextMultipleOf period: Duration) -> Duration {
        let seconds = Double(period.components.seconds) + Double(period.components.attoseconds) * 1e-18
        guard seconds > 0 else { return .zero }
        var into = now.timeIntervalSince1970.truncatingRemainder(dividingBy: seconds)
        if into < 0 { into += seconds }  // before 1970
        return .seconds(seconds - into)
    }
}
