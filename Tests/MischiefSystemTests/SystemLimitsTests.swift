import CMischiefSystem
import Mischief
import Testing

@testable import MischiefSystem

#if canImport(Glibc)
    import Glibc
#endif

/// What no spec may do to the process through a system seam: a length of time past what the hooks' nanoseconds hold
/// saturates there, and an answer to a held call cannot make a connect wait.
@Suite(.serialized) struct SystemLimitsTests {  // serialized: the tests publish the one process-wide timeline
    static let year: Int64 = 365 * 86_400 * 1_000_000_000
    /// 2026-09-21, in nanoseconds since 1970.
    static let now: Int64 = 1_790_000_000 * 1_000_000_000

    /// `system.clock`'s hooks with `timeline` published, then the real timeline again.
    static func mapped(_ timeline: mischief_system_timeline, at real: Int64 = now) -> Int64 {
        var timeline = timeline
        mischief_system_clock_publish(&timeline)
        defer {
            var real = mischief_system_timeline()
            mischief_system_clock_publish(&real)
        }
        return mischief_system_clock_map(real)
    }

    @Test func aShiftPastTheLatestInstantStopsThereInsteadOfWrappingToThePast() {
        let later = Self.mapped(
            mischief_system_timeline(
                kind: 1, offset: 250 * Self.year, stopped: 0, real_anchor: 0, chaos_anchor: 0, factor: 0))
        #expect(later == .max, "shift(+250y) from 2026 is past 2262: the latest instant, not 1692")
        let frozen = Self.mapped(
            mischief_system_timeline(
                kind: 2, offset: 250 * Self.year, stopped: Self.now, real_anchor: 0, chaos_anchor: 0, factor: 0))
        #expect(frozen == .max)
        let earlier = Self.mapped(
            mischief_system_timeline(
                kind: 1, offset: -250 * Self.year, stopped: 0, real_anchor: 0, chaos_anchor: 0, factor: 0),
            at: -100 * Self.year)
        #expect(earlier == .min, "before 1678: the earliest instant, not the future")
        let dilated = Self.mapped(
            mischief_system_timeline(
                kind: 3, offset: 200 * Self.year, stopped: 0, real_anchor: 0, chaos_anchor: Self.now, factor: 1e300))
        #expect(dilated == .max)
        let fine = Self.mapped(
            mischief_system_timeline(kind: 1, offset: Self.year, stopped: 0, real_anchor: 0, chaos_anchor: 0, factor: 0)
        )
        #expect(fine == Self.now + Self.year)
    }

    #if os(Linux)
        /// What the clock_gettime hook answers on the wall clock with `timeline` published (its original the real
        /// `clock_gettime`), and the real clock just before and just after, in nanoseconds since 1970.
        static func hooked(_ timeline: mischief_system_timeline) -> (before: Int64, hooked: Int64, after: Int64) {
            typealias ClockGetTime = @convention(c) (clockid_t, UnsafeMutablePointer<timespec>) -> Int32
            let real: ClockGetTime = clock_gettime
            mischief_system_clock_original(0)!.pointee = unsafeBitCast(real, to: UnsafeMutableRawPointer.self)
            let hook = unsafeBitCast(mischief_system_clock_hook(0), to: ClockGetTime.self)
            var timeline = timeline
            mischief_system_clock_publish(&timeline)
            defer {
                var real = mischief_system_timeline()
                mischief_system_clock_publish(&real)
            }
            func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
            var time = timespec()
            _ = real(CLOCK_REALTIME, &time)
            let before = nanoseconds(time)
            #expect(hook(CLOCK_REALTIME, &time) == 0)
            #expect(time.tv_nsec >= 0 && time.tv_nsec < 1_000_000_000)
            let hooked = nanoseconds(time)
            _ = real(CLOCK_REALTIME, &time)
            return (before, hooked, nanoseconds(time))
        }

        /// The hook reads a shift or a stopped clock from one word when they fit it (±68 years of shift, a stopped
        /// time from 1970 to 2106) and from the whole timeline when they do not: the answers are the same.
        @Test func theHooksQuickWordAndTheGeneralPathAgree() {
            let second: Int64 = 1_000_000_000
            for offset in [86_400 * second, -1_500_000_000, 100 * Self.year, -60 * Self.year, 69 * Self.year] {
                let reading = Self.hooked(
                    mischief_system_timeline(
                        kind: 1, offset: offset, stopped: 0, real_anchor: 0, chaos_anchor: 0, factor: 0))
                #expect(reading.hooked >= reading.before + offset, "shift \(offset)")
                #expect(reading.hooked <= reading.after + offset, "shift \(offset)")
            }
            // 2030, 2200 (past 32 bits of seconds), 1960 (before 1970), and 2030 less a shift of a day.
            for (stopped, offset) in [
                (1_893_456_000 * second + 123, Int64(0)), (7_258_118_400 * second, 0), (-315_619_200 * second + 7, 0),
                (1_893_456_000 * second, -86_400 * second),
            ] {
                let reading = Self.hooked(
                    mischief_system_timeline(
                        kind: 2, offset: offset, stopped: stopped, real_anchor: 0, chaos_anchor: 0, factor: 0))
                #expect(reading.hooked == stopped + offset, "stopped at \(stopped), shift \(offset)")
            }
        }
    #endif

    @Test func aReleaseAnswerThatMakesTheConnectWaitIsRefusedAsDelayAndPauseAre() throws {
        let net = try NetFixture()
        try net.apply("pause")
        for answer in ["latency(by: 1h)", "refused + latency(by: 1h)", "50%latency(by: 200y)", "delay(1h)"] {
            #expect(throws: MischiefError.self, "\(answer)") {
                try net.registry.release(SystemSeams.netID, answer: answer)
            }
        }
        #expect(try net.registry.release(SystemSeams.netID, answer: "refused") == 0)
    }

    @Test func latenciesTooLongForNanosecondsAddUpWithoutTrapping() throws {
        let net = try NetFixture()
        try net.apply("latency(by: 200y) + latency(by: 200y)")
        let outcome = net.decide(connect("127.0.0.1"))
        #expect(outcome.delay == .seconds(400 * 365 * 86_400))
        #expect(outcome.delayNanoseconds == .max, "what the hooks sleep: until reverted")
        #expect(SystemNetOutcome(.real, delay: .milliseconds(250)).delayNanoseconds == 250_000_000)
        #expect(SystemNetOutcome(.real, delay: .seconds(-1)).delayNanoseconds == 0)
    }
}
