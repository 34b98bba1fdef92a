/// The clock leases are measured on: the server's monotonic clock, less the time the process was stopped (SIGSTOP, a
/// debugger, a machine put to sleep) or starved.
///
/// A lease measures a client's silence. A target that was stopped for 20 s heard nobody in that time, through no fault
/// of its clients, so that time must not count. Linux's monotonic clocks (`CLOCK_MONOTONIC`, `CLOCK_BOOTTIME`) go on
/// while a process is stopped and its CPU clock does not measure waiting, so no system clock says it; the server's own
/// beat does. The server reads this clock every ``beat`` (its reaper) and whenever it decides about a lease; a reading
/// that finds more than ``threshold`` since the one before counts the gap, less one beat, as a pause, and lease time
/// does not move during a pause.
///
/// A plain value, read with the raw time, so tests simulate "the process slept 25 s" by moving an injected clock 25 s
/// at once, and "the process ran 25 s" by moving it a beat at a time.
///
/// ```swift
/// var clock = LeaseClock()
/// clock.read(.seconds(1))    // 1 s
/// clock.read(.seconds(26))   // 1.25 s: a pause of 24.75 s
/// ```
struct LeaseClock: Sendable {
    /// How often the server reads the clock when nothing else does.
    static let beat: Duration = .milliseconds(250)
    /// A gap between readings longer than this is a pause. Well above a beat, so a busy loop is not taken for a
    /// stopped one; well under a client's silence (10 s), so a stop that makes clients give up is always one.
    static let threshold: Duration = .seconds(3)
    /// How long after a pause a lost events stream is taken for one its client gave up during the pause.
    static let afterPause: Duration = .seconds(5)

    /// The last raw reading.
    private var last: Duration?
    /// The pauses so far, added up.
    private(set) var paused: Duration = .zero
    /// The last pause: its length, and the lease time it ended at.
    private(set) var lastPause: (length: Duration, end: Duration)?

    /// The lease time at the raw time `raw` (the server's monotonic clock), noting a pause since the last reading.
    mutating func read(_ raw: Duration) -> Duration {
        if let last {
            let gap = raw - last
            if gap > Self.threshold {
                let pause = gap - Self.beat
                paused += pause
                lastPause = (pause, raw - paused)
            }
            self.last = max(last, raw)
        } else {
            last = raw
        }
        return (self.last ?? raw) - paused
    }

    /// The pause that ended at most ``afterPause`` before the lease time `now`, if any.
    func pause(endedBefore now: Duration) -> Duration? {
        guard let lastPause, now - lastPause.end <= Self.afterPause else { return nil }
        return lastPause.length
    }
}
