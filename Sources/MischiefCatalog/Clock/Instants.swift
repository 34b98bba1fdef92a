import Foundation
import Mischief

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Time as a `Duration` since 1970-01-01T00:00:00Z: reading the real clock, converting to and from `Date`,
/// and scaling without traps.
enum Instants {
    /// The real wall-clock time (CLOCK_REALTIME), to the nanosecond, never the `system.clock` seam's chaos.
    @inline(__always)
    static func realNow() -> Duration {
        RealClock.now()
    }

    /// A date as a duration since 1970.
    static func duration(_ date: Date) -> Duration {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        guard whole.isFinite, whole.magnitude < 9e15 else {
            return .seconds(whole.isNaN ? 0 : whole < 0 ? -9e15 : 9e15)
        }
        return .seconds(Int64(whole)) + .nanoseconds(Int64(((seconds - whole) * 1e9).rounded()))
    }

    /// A duration since 1970 as a date.
    static func date(_ duration: Duration) -> Date {
        Date(timeIntervalSince1970: duration.seconds)
    }

    /// A spec's date as a duration since 1970.
    static func duration(_ date: SpecDate) -> Duration {
        .seconds(date.seconds) + .nanoseconds(Int64(date.nanoseconds))
    }

    /// `duration · factor`, clamped to ±10¹⁵ s (some 30 million years) instead of trapping on overflow.
    static func scale(_ duration: Duration, by factor: Double) -> Duration {
        if factor == 1 { return duration }
        let (seconds, attoseconds) = duration.components
        let wholeSeconds = Double(seconds) * factor
        let limit = 1e15
        guard wholeSeconds.magnitude < limit else { return .seconds(wholeSeconds < 0 ? -limit : limit) }
        // Scale whole seconds and the fraction apart, so small factors keep nanosecond precision.
        let whole = wholeSeconds.rounded(.towardZero)
        let fraction = (wholeSeconds - whole) + Double(attoseconds) * 1e-18 * factor
        return .seconds(Int64(whole)) + .seconds(fraction)
    }

    /// The ISO 8601 text of a duration since 1970, e.g. `2030-01-01T00:00:00Z`.
    static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = attoseconds / 1_000_000_000
        return SpecDate(seconds: seconds, nanoseconds: Int32(nanoseconds)).description
    }
}
