// Code written without Mischief, as a third-party library is: it reads the wall clock with `Date()`, `time()`,
// `gettimeofday` and `clock_gettime` directly. The system seams' tests check what it sees.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Wall-clock readings made the way code that knows nothing of Mischief makes them.
public enum ThirdParty {
    /// `Date()`, in seconds since 1970.
    public static func date() -> Double {
        Date().timeIntervalSince1970
    }

    /// `time(nil)`.
    public static func time() -> Double {
        Double(Glibc.time(nil))
    }

    /// `gettimeofday`, in seconds since 1970.
    public static func timeOfDay() -> Double {
        var value = timeval()
        gettimeofday(&value, nil)
        return Double(value.tv_sec) + Double(value.tv_usec) / 1e6
    }

    /// `clock_gettime(CLOCK_REALTIME)`, in seconds since 1970.
    public static func realtime() -> Double {
        read(CLOCK_REALTIME)
    }

    /// `clock_gettime(CLOCK_MONOTONIC)`, in seconds since boot: never changed by system seams.
    public static func monotonic() -> Double {
        read(CLOCK_MONOTONIC)
    }

    private static func read(_ clock: clockid_t) -> Double {
        var value = timespec()
        clock_gettime(clock, &value)
        return Double(value.tv_sec) + Double(value.tv_nsec) / 1e9
    }
}
