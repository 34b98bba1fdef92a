import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a `log` behaviour records its calls: the message, and a limit on how many events it adds to the
/// registry's event log, so a hot seam cannot flood the log or keep the registry's lock busy.
///
/// Each site logs at most ``eventsPerSecond`` calls in any one-second window and counts the others; the next
/// event it logs says how many it left out. A call it does not log costs a coarse clock read and two relaxed
/// atomic operations, and never takes the registry's lock.
final class LogSite: Sendable {
    /// The most calls one site logs per second.
    static let eventsPerSecond = 10

    let message: String
    let reporter: EventReporter
    /// Start of the current window, in nanoseconds of the coarse monotonic clock.
    private let windowStart = Atomic<Int64>(Int64.min / 2)
    /// Calls that reached the site in the current window.
    private let inWindow = Atomic<Int>(0)
    /// Calls not logged since the last logged one.
    private let skipped = Atomic<Int>(0)

    init(message: String, reporter: EventReporter) {
        self.message = message
        self.reporter = reporter
    }

    /// Logs this call, unless the site has logged its share of the current second.
    func record<Input>(_ input: Input) {
        let now = Self.coarseNanoseconds()
        let start = windowStart.load(ordering: .relaxed)
        if now &- start >= 1_000_000_000,
            windowStart.compareExchange(expected: start, desired: now, ordering: .relaxed).exchanged
        {
            inWindow.store(0, ordering: .relaxed)
        }
        guard inWindow.wrappingAdd(1, ordering: .relaxed).oldValue < Self.eventsPerSecond else {
            skipped.wrappingAdd(1, ordering: .relaxed)
            return
        }
        let left = skipped.exchange(0, ordering: .relaxed)
        reporter.report(LogSite.text(message, input: input, skipped: left))
    }

    /// `message — input 42 (and 17 more calls not logged)`; a seam without input shows none.
    static func text<Input>(_ message: String, input: Input, skipped: Int) -> String {
        var text = message
        if Input.self != Void.self { text += " — input \(RecordedCall.show(input))" }
        if skipped > 0 { text += " (and \(skipped) more call\(skipped == 1 ? "" : "s") not logged)" }
        return text
    }

    /// A monotonic clock read of a few nanoseconds (a millisecond-scale resolution is plenty for a window).
    private static func coarseNanoseconds() -> Int64 {
        var now = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        #else
            clock_gettime(CLOCK_MONOTONIC, &now)
        #endif
        return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
    }
}
