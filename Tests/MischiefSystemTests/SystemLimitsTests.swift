import CMischiefSystem
import Mischief
import Testing

@testable import MischiefSystem

/// What no spec may do to the process through a system seam: a length of time past what the hooks' nanoseconds hold
/// saturates there, and an answer to a held call cannot make a connect wait.
@Suite struct SystemLimitsTests {
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
