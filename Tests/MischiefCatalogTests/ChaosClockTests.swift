import Foundation
import Mischief
import MischiefCatalog
import Testing

/// Readings, actions and argument errors of the chaos clock.
@Suite struct ChaosClockTests {
    let newYear2030 = Date(iso: "2030-01-01T00:00:00Z")

    @Test func offersItsActionsWithSteps() throws {
        let f = try ClockFixture()
        let actions = try #require(f.registry.actions(for: "test.clock"))
        #expect(actions.prefix(4).map(\.name) == ["shift", "freeze", "dilate", "virtual"])
        let oneDay = Spec.Value.duration(SpecDuration(.seconds(86_400)))
        let steps = actions.prefix(4).map { $0.mainParameter?.step }
        #expect(steps == [oneDay, oneDay, .number(1), oneDay])
        #expect(actions.prefix(4).allSatisfy { !$0.summary.isEmpty && $0.composes })
        #expect(actions.prefix(4).allSatisfy { $0.mainParameter.map { !$0.summary.isEmpty } == true })
        let info = f.registry.seams[0]
        #expect(info.title == "Current time" && info.category == "Clock")
        #expect(ChaosClock.shared.seam.info.id == "clock.now")
    }

    @Test func printsSpecsCanonically() throws {
        let f = try ClockFixture()
        let cases = [
            ("shift(+24h)", "shift(1d)"), ("shift(-90m)", "shift(-90m)"), ("shift(by: +10y)", "shift(10y)"),
            ("freeze(2030-01-01)", "freeze(2030-01-01T00:00:00Z)"), ("dilate(2.50)", "dilate(2.5)"),
            ("virtual", "virtual"), ("virtual(from: 2030-01-01T09:00+01:00)", "virtual(2030-01-01T08:00:00Z)"),
            ("freeze(2030-01-01) + shift(+1d)", "freeze(2030-01-01T00:00:00Z) + shift(1d)"),
        ]
        for (spec, canonical) in cases {
            #expect(try f.registry.canonical(spec: spec, for: "test.clock") == canonical)
        }
    }

    @Test func freezeStopsEveryReadingAtTheDate() throws {
        let f = try ClockFixture()
        try f.apply("freeze(2030-01-01)")
        #expect(f.clock.now == ChaosClock.Instant(durationSince1970: .seconds(1_893_456_000)))
        #expect(f.clock.date == newYear2030)
        #expect(f.clock.peekDate() == newYear2030)
        #expect(f.clock.now.date == f.clock.date)
        #expect(f.clock.seam.peek().isStopped)
        #expect(f.clock.seam.peek().realDate(forChaos: newYear2030) == nil)
    }

    @Test func shiftComposesWithFreezeAndMovesRealTime() throws {
        let f = try ClockFixture()
        try f.apply("freeze(2030-01-01) + shift(+1d)")
        #expect(f.clock.date == Date(iso: "2030-01-02T00:00:00Z"))
        try f.apply("freeze(2030-01-01) + shift(-90m) + shift(+30m)")
        #expect(f.clock.date == Date(iso: "2029-12-31T23:00:00Z"))
        try f.apply("shift(+10y)")
        #expect(abs(f.clock.date.timeIntervalSinceNow - 10 * 365 * 86_400) < 5)
        try f.apply("shift(-90m)")
        #expect(abs(f.clock.date.timeIntervalSinceNow + 5_400) < 5)
        // Shifted time runs at the real rate: a sleep lasts as long as without the shift.
        let timeline = f.clock.seam.peek()
        let chaos = timeline.date(atReal: newYear2030)
        #expect(chaos == newYear2030.addingTimeInterval(-5_400))
        #expect(timeline.realDate(forChaos: chaos.addingTimeInterval(5)) == newYear2030.addingTimeInterval(5))
    }

    @Test func dilateRunsFasterFromTheMomentItIsApplied() throws {
        let f = try ClockFixture()
        let before = Date()
        try f.apply("dilate(60)")
        let after = Date()
        let timeline = f.clock.seam.peek()
        #expect(timeline.rate == 60)
        // At the moment of applying, chaos time is real time; from then on a real second is a chaos minute.
        let applying = after.timeIntervalSince(before)
        #expect(abs(timeline.date(atReal: after).timeIntervalSince(after)) <= applying * 60 + 0.001)
        let reference = after.addingTimeInterval(10)
        let delta = timeline.date(atReal: reference + 1).timeIntervalSince(timeline.date(atReal: reference))
        #expect(abs(delta - 60) < 1e-3)
        let chaos = timeline.date(atReal: reference)
        let real = try #require(timeline.realDate(forChaos: chaos.addingTimeInterval(120)))
        #expect(abs(real.timeIntervalSince(reference) - 2) < 1e-3)
    }

    @Test func virtualStandsStillAtNowOrAtItsDate() throws {
        let f = try ClockFixture()
        try f.apply("virtual")
        let first = f.clock.now
        #expect(abs(first.date.timeIntervalSinceNow) < 5)
        #expect(f.clock.now == first)
        try f.apply("virtual(2030-01-01)")
        #expect(f.clock.date == newYear2030)
    }

    @Test func dateAndInstantAgreeUnderEveryAction() throws {
        let f = try ClockFixture()
        for spec in ["off", "shift(+1d)", "freeze(2030-01-01)", "dilate(1000)", "virtual", "dilate(3) + shift(-2h)"] {
            try f.apply(spec)
            let instant = f.clock.now
            let date = f.clock.date
            let peeked = f.clock.peekDate()
            let mapped = f.clock.seam.peek().date(atReal: Date())
            let rate = f.clock.seam.peek().rate
            // Read one after another, so they differ only by the time between readings (times the rate).
            let tolerance = max(1, rate) * 0.5
            #expect(abs(date.timeIntervalSince(instant.date)) <= tolerance, "\(spec)")
            #expect(abs(peeked.timeIntervalSince(date)) <= tolerance, "\(spec)")
            #expect(abs(mapped.timeIntervalSince(peeked)) <= tolerance, "\(spec)")
            #expect(instant.date >= Date(timeIntervalSince1970: 0), "\(spec)")
        }
        try f.apply("freeze(2030-01-01T12:34:56.789Z)")
        #expect(f.clock.now.description == "2030-01-01T12:34:56.789Z")
        #expect(abs(f.clock.date.timeIntervalSince(f.clock.now.date)) == 0)
    }

    @Test func reapplyingStartsAfresh() async throws {
        let f = try ClockFixture()
        let applied = try f.apply("virtual(2030-01-01)")
        #expect(await f.clock.advance(by: .seconds(3_600)))
        #expect(f.clock.date == newYear2030.addingTimeInterval(3_600))
        f.registry.revert(applied)
        try f.apply("virtual(2030-01-01)")
        #expect(f.clock.date == newYear2030)
    }

    /// `date` reads the timeline where the seam keeps it; on every path it is one counted call.
    @Test func eachDateIsOneCountedCallWhateverIsApplied() throws {
        let f = try ClockFixture()
        let observation = f.registry.observe()
        defer { withExtendedLifetime(observation) {} }
        _ = f.clock.date  // real
        try f.apply("shift(+1d)")
        #expect(abs(f.clock.date.timeIntervalSinceNow - 86_400) < 5)  // shifted: a sum leaves the call
        try f.apply("freeze(2030-01-01)")
        #expect(f.clock.date == Date(timeIntervalSince1970: 1_893_456_000))  // stopped: the timeline leaves it
        #expect(f.registry.snapshot().seam("test.clock")?.counters.calls == 3)
    }

    /// A behaviour that runs on each call (a sequence, a closure) cannot be read in place: the reading gives it up
    /// uncounted and makes the call in full, which counts it once; `now` is counted the same way.
    @Test func aBehaviourRunPerCallIsCountedOnceAReading() throws {
        let f = try ClockFixture()
        let observation = f.registry.observe()
        defer { withExtendedLifetime(observation) {} }
        // A sequence runs on each call (the clock's scheduler peeks at every change, which takes a step of it, so
        // both steps give one date here).
        try f.apply("seq(freeze(2030-01-01), freeze(2030-01-01))")
        #expect(f.clock.date == newYear2030)
        #expect(f.clock.date == newYear2030)
        #expect(f.clock.now.date == newYear2030)
        let counters = try #require(f.registry.snapshot().seam("test.clock")?.counters)
        #expect(counters.calls == 3)
        #expect(counters.chaosCalls == 3)
        #expect(counters.inFlight == 0)
    }

    /// Frozen time reads no clock and takes no lock: the stopped date, the shift and the advance as one sum.
    @Test func frozenTimeIsTheSumOfItsDateShiftAndAdvance() async throws {
        let f = try ClockFixture()
        try f.apply("freeze(2030-01-01) + shift(+1d)")
        #expect(f.clock.date == newYear2030.addingTimeInterval(86_400))
        #expect(await f.clock.advance(by: .milliseconds(1_500)))
        #expect(f.clock.date == newYear2030.addingTimeInterval(86_401.5))
        #expect(f.clock.date == f.clock.peekDate())
        #expect(f.clock.now.date == newYear2030.addingTimeInterval(86_401.5))
    }

    @Test func advanceMovesShiftedAndDilatedTimeButNotRealTime() async throws {
        let f = try ClockFixture()
        #expect(await f.clock.advance(by: .seconds(3_600)) == false)
        #expect(abs(f.clock.date.timeIntervalSinceNow) < 5)
        try f.apply("shift(+1d)")
        #expect(await f.clock.advance(by: .seconds(3_600)))
        #expect(abs(f.clock.date.timeIntervalSinceNow - 90_000) < 5)
        try f.apply("dilate(2)")
        #expect(await f.clock.advance(by: .seconds(7_200)))
        #expect(abs(f.clock.date.timeIntervalSinceNow - 7_200) < 5)
    }

    @Test(arguments: [
        ("dilate(0)", 8, "dilate needs a factor greater than 0 and at most 1e9 (2 runs twice as fast, 0.5 at"),
        ("dilate(factor: -2)", 8, "greater than 0"),
        ("shift(+1d) + dilate(1e12)", 21, "at most 1e9"),
        (#"freeze("nonsense")"#, 8, "'freeze' takes a date for 'at'"),
        ("freeze", 1, "missing argument 'at' for 'freeze'"),
        ("shift(2030-01-01)", 7, "'shift' takes a duration for 'by'"),
        ("shift(+1d) + freeze(2030-01-01)", 14, "put it first"),
        ("freeze(2030-01-01) + virtual", 22, "both make the value"),
    ])
    func refusesBadArgumentsWithColumns(_ spec: String, _ column: Int, _ message: String) throws {
        let f = try ClockFixture()
        let error = try #require(f.refusal(spec))
        #expect(error.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(f.clock.seam.peek().isReal)
    }

    @Test func behavioursInCodeMatchTheSpecs() async throws {
        let f = try ClockFixture()
        try f.registry.apply(f.clock.seam, .freeze(at: newYear2030).shifted(by: .seconds(86_400)))
        #expect(f.clock.date == Date(iso: "2030-01-02T00:00:00Z"))
        #expect(await f.clock.advance(by: .seconds(3_600)))
        #expect(
            f.clock.seam.peek().description
                == "stopped at 2030-01-01T00:00:00Z, shifted by 1d, advanced by 1h")
        #expect(f.registry.snapshot().seam("test.clock")?.behaviourText == "freeze(2030-01-01T00:00:00Z) + shift(1d)")
        try f.registry.apply(f.clock.seam, .virtual(from: newYear2030))
        #expect(f.clock.date == newYear2030)
        try f.registry.apply(f.clock.seam, .dilate(by: 2.5))
        #expect(f.clock.seam.peek().rate == 2.5)
        #expect(f.clock.seam.peek().description.hasPrefix("×2.5 from "))
        try f.registry.apply(f.clock.seam, .shift(by: .seconds(-60)))
        #expect(abs(f.clock.date.timeIntervalSinceNow + 60) < 5)
        f.registry.revertAll()
        #expect(f.clock.seam.peek().isReal && f.clock.seam.peek().description == "real")
    }

    @Test func instantsRoundTripThroughCodableAndDate() throws {
        let instant = ChaosClock.Instant("2030-01-01T12:00:00Z").advanced(by: .milliseconds(1_500))
        let decoded = try JSONDecoder().decode(ChaosClock.Instant.self, from: JSONEncoder().encode(instant))
        #expect(decoded == instant)
        #expect(instant.description == "2030-01-01T12:00:01.5Z")
        #expect(ChaosClock.Instant(instant.date) == instant)
        #expect(instant.duration(to: instant.advanced(by: .seconds(-3))) == .seconds(-3))
        #expect(ChaosClock.Instant(durationSince1970: .seconds(-1)).description == "1969-12-31T23:59:59Z")
    }

    @Test func clockTypesAreSendable() {
        let values: [any Sendable] = [ChaosClock.shared, ChaosClock.Instant(Date()), Timeline.real]
        #expect(values.count == 3)
    }
}
