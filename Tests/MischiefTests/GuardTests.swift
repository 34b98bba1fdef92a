import Foundation
import Mischief
import Testing

/// Guards on a manual clock: counters move by calling seams, time by advancing the clock, and
/// `checkGuards()` runs what the housekeeping thread runs each round. Nothing here sleeps.
@Suite struct GuardTests {
    final class Health: Sendable {
        let healthy = Locked(true)
    }

    struct Guarded {
        let clock = ManualRegistryClock()
        let registry: Registry
        let request = Seam<Int, Int, any Error>("net.request", title: "Request", category: "Net", summary: "") { $0 }
        let checkout = Seam<Int, Int, any Error>("api.checkout", title: "Checkout", category: "API", summary: "") {
            $0
        }
        let health = Health()
        let db: Seam<Void, Bool, Never>

        init(onItsOwn: Bool = false) throws {
            registry = Registry(sessionSeed: 1, clock: clock, expiresOnItsOwn: onItsOwn)
            let health = self.health
            db = Seam<Void, Bool, Never>("health.db", title: "DB health", category: "Health", summary: "") {
                health.healthy.withLock { $0 }
            }
            try registry.register(request, checkout, db)
        }

        /// Calls `seam` `count` times, ignoring what it throws.
        func call(_ seam: Seam<Int, Int, any Error>, _ count: Int) {
            for index in 0..<count { _ = try? seam(index) }
        }

        func tick(_ seconds: Int = 1) { clock.advance(by: .seconds(seconds)) }
    }

    // MARK: Parsing

    @Test(arguments: [
        ("errors(net.request) > 50% over 10s", "errors(net.request) > 50% over 10s"),
        ("  errors( net.request )>50%   over 10s min 5", "errors(net.request) > 50% over 10s"),
        ("errors(net.request) > 12.5% over 1m min 20", "errors(net.request) > 12.5% over 1m min 20"),
        ("no-success(api.checkout) for 30s", "no-success(api.checkout) for 30s"),
        ("check(health.db)", "check(health.db)"),
        ("check(health.db) fails 1 time", "check(health.db)"),
        ("check(health.db) fails 3 times", "check(health.db) fails 3 times"),
    ])
    func conditionsParseAndPrintCanonically(text: String, canonical: String) throws {
        let condition = try Guard.Condition(parsing: text)
        #expect(condition.description == canonical)
        #expect(try Guard.Condition(parsing: canonical) == condition)
    }

    @Test func conditionsParseIntoTheirParts() throws {
        #expect(
            try Guard.Condition(parsing: "errors(net.request) > 50% over 10s")
                == .errorRate(seam: "net.request", above: 0.5, over: .seconds(10), minimumCalls: 5))
        #expect(
            try Guard.Condition(parsing: "no-success(api.checkout) for 30s")
                == .noSuccess(seam: "api.checkout", for: .seconds(30)))
        #expect(
            try Guard.Condition(parsing: "check(health.db) fails 3 times") == .check(seam: "health.db", failures: 3))
    }

    @Test(arguments: [
        ("errorz(net.request) > 50% over 10s", 1, "expected errors(SEAM) > P% over DURATION"),
        ("", 1, "not the end"),
        ("errors net.request", 8, "expected '(', found 'net.request'"),
        ("errors() > 50% over 10s", 8, "expected a seam id"),
        ("errors(net.request) 50% over 10s", 21, "expected '>', found '50%'"),
        ("errors(net.request) > 50 over 10s", 25, "expected '%' after 50"),
        ("errors(net.request) > half over 10s", 23, "expected a percentage such as 50%, found 'half'"),
        ("errors(net.request) > 100% over 10s", 23, "below 100%"),
        ("errors(net.request) > 50% during 10s", 27, "expected 'over', found 'during'"),
        ("errors(net.request) > 50% over 10", 32, "expected a duration"),
        ("errors(net.request) > 50% over 2d", 32, "at most 1d"),
        ("errors(net.request) > 50% over 10s min 0", 40, "a number of calls must be 1"),
        ("errors(net.request) > 50% over 10s please", 36, "expected the end, found 'please'"),
        ("no-success(api.checkout) in 30s", 26, "expected 'for', found 'in'"),
        ("check(health.db) fails 3", 25, "expected 'times' after the count"),
        ("check(health.db x)", 17, "expected ')', found 'x)'"),
        ("check(Health)", 7, "'Health' is not a seam id"),
    ])
    func badConditionsSayWhereAndWhatWasExpected(text: String, column: Int, message: String) {
        #expect {
            try Guard.Condition(parsing: text)
        } throws: { error in
            guard let error = error as? SpecError else { return false }
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            return error.column == column && error.message.contains(message)
        }
    }

    // MARK: Trips from counters

    @Test func anErrorRateTripsAndRevertsEverything() throws {
        let g = try Guarded()
        try g.registry.apply(spec: #"7*throw("down") -> off"#, to: "net.request")
        try g.registry.apply(spec: "return(1)", to: "api.checkout")
        let id = try g.registry.addGuard(Guard(parsing: "errors(net.request) > 50% over 10s"))
        g.call(g.request, 10)  // 7 errors in 10 calls
        g.tick()
        #expect(g.registry.checkGuards() == [id])
        #expect(g.registry.snapshot().layers.allSatisfy { $0.status != .active })
        #expect((try? g.checkout(5)) == 5)
        let status = try #require(g.registry.guards.first)
        #expect(status.isTripped)
        #expect(status.state == .tripped(at: .seconds(1), reason: status.reasonText))
        let trip = try #require(g.registry.events().first { $0.kind == .guardTripped })
        #expect(trip.seam == "net.request")
        #expect(trip.source == "code")
        #expect(
            trip.message
                == "guard 1 tripped (errors(net.request) > 50% over 10s): 7 of 10 calls threw (70%) over 10s, "
                + "more than 50%; reverted everything (2 layers)")
        #expect(trip.description.hasPrefix("guard-tripped net.request guard 1 tripped"))
        let reverted = g.registry.events().filter { $0.kind == .reverted }
        #expect(reverted.count == 2)
        #expect(reverted.allSatisfy { $0.message.hasSuffix(" (applied by spec): guard 1 tripped") })
        #expect(reverted.allSatisfy { $0.source == "guard 1" })  // the guard asked
        #expect(g.registry.checkGuards().isEmpty)  // tripped once; stays tripped
    }

    @Test func anErrorRateNeedsTheMinimumNumberOfCalls() throws {
        let g = try Guarded()
        try g.registry.apply(spec: #"throw("down")"#, to: "net.request")
        try g.registry.addGuard(Guard(parsing: "errors(net.request) > 50% over 10s"))
        g.call(g.request, 4)  // 4 of 4 threw, but fewer than 5 calls
        g.tick()
        #expect(g.registry.checkGuards().isEmpty)
        #expect(g.registry.snapshot().seam("net.request")?.status == .active)
        g.call(g.request, 1)
        g.tick()
        #expect(g.registry.checkGuards().count == 1)
    }

    @Test func anErrorRateBelowTheThresholdOrOutsideTheWindowDoesNotTrip() throws {
        let g = try Guarded()
        try g.registry.apply(spec: #"5*throw("down") -> off"#, to: "net.request")
        try g.registry.addGuard(Guard(parsing: "errors(net.request) > 50% over 10s"))
        g.call(g.request, 10)  // 5 of 10: not more than 50%
        g.tick()
        #expect(g.registry.checkGuards().isEmpty)
        // Ten quiet seconds later the errors have left the window: 0 of 6 new calls threw.
        for _ in 0..<11 {
            g.tick()
            #expect(g.registry.checkGuards().isEmpty)
        }
        g.call(g.request, 6)
        g.tick()
        #expect(g.registry.checkGuards().isEmpty)
    }

    @Test func noSuccessForTheDurationTrips() throws {
        let g = try Guarded()
        try g.registry.apply(spec: #"throw("declined")"#, to: "api.checkout")
        try g.registry.addGuard(Guard(parsing: "no-success(api.checkout) for 30s"))
        for _ in 0..<29 {
            g.call(g.checkout, 1)
            g.tick()
            #expect(g.registry.checkGuards().isEmpty)
        }
        g.call(g.checkout, 1)
        g.tick()
        #expect(g.registry.checkGuards().count == 1)
        #expect(g.registry.snapshot().seam("api.checkout")?.status == .reverted)
        let trip = try #require(g.registry.events().first { $0.kind == .guardTripped })
        #expect(trip.message.contains("no call returned without an error for 30s (30 calls, 30 errors)"))
    }

    @Test func aSuccessfulCallStartsTheNoSuccessClockAgain() throws {
        let g = try Guarded()
        try g.registry.apply(spec: #"20*throw("declined") -> off"#, to: "api.checkout")
        try g.registry.addGuard(Guard(parsing: "no-success(api.checkout) for 30s"))
        g.tick(20)
        g.call(g.checkout, 21)  // the 21st succeeds
        #expect(g.registry.checkGuards().isEmpty)
        g.tick(29)
        #expect(g.registry.checkGuards().isEmpty)
        g.tick(1)
        #expect(g.registry.checkGuards().count == 1)
    }

    @Test func aGuardWatchesOnlyWhileThereIsSomethingToGuard() throws {
        let g = try Guarded()
        try g.registry.addGuard(Guard(parsing: "no-success(api.checkout) for 30s"))
        g.tick(60)
        #expect(g.registry.checkGuards().isEmpty)  // nothing applied: nothing to revert, and no trip
        #expect(g.registry.guards.first?.isTripped == false)
        try g.registry.apply(spec: #"throw("declined")"#, to: "api.checkout")
        g.tick(29)
        #expect(g.registry.checkGuards().isEmpty)
        g.tick(1)
        #expect(g.registry.checkGuards().count == 1)
    }

    @Test func aGuardSaysWhetherItWatchesAndTheChangesCarryIt() throws {
        let g = try Guarded()
        try g.registry.addGuard(Guard(parsing: "no-success(api.checkout) for 30s"))
        #expect(g.registry.guards.map(\.stateName) == ["armed"])
        let before = g.registry.snapshot()
        try g.registry.apply(spec: "return(1)", to: "net.request")
        let applied = g.registry.delta(since: before.generation)
        #expect(applied.guards?.map(\.stateName) == ["watching"])
        #expect(
            g.registry.guards.first?.description
                == "guard 1 no-success(api.checkout) for 30s reverts everything: watching")
        g.registry.revert(seam: "net.request")
        let reverted = g.registry.delta(since: applied.generation)
        #expect(reverted.guards?.map(\.stateName) == ["armed"])
        let quiet = g.registry.delta(since: reverted.generation)
        #expect(quiet.guards == nil)
    }

    // MARK: Guard seams

    @Test func aGuardSeamTripsWhenTheHealthCheckFails() throws {
        let g = try Guarded()
        try g.registry.apply(spec: "return(0)", to: "net.request")
        let id = try g.registry.addGuard(Guard(parsing: "check(health.db) fails 2 times"))
        #expect(g.registry.checkGuards().isEmpty)
        g.health.healthy.withLock { $0 = false }
        #expect(g.registry.checkGuards().isEmpty)  // once
        g.health.healthy.withLock { $0 = true }
        #expect(g.registry.checkGuards().isEmpty)  // the count starts again
        g.health.healthy.withLock { $0 = false }
        #expect(g.registry.checkGuards().isEmpty)
        #expect(g.registry.checkGuards() == [id])
        #expect((try? g.request(3)) == 3)
        let trip = try #require(g.registry.events().first { $0.kind == .guardTripped })
        #expect(trip.message.contains("health.db returned false 2 times in a row; reverted everything (1 layer)"))
    }

    @Test(.timeLimit(.minutes(1))) func theHousekeepingThreadTripsGuardsByItself() async throws {
        let g = try Guarded(onItsOwn: true)
        let events = g.registry.eventStream()
        try g.registry.apply(spec: "return(0)", to: "net.request")
        g.health.healthy.withLock { $0 = false }
        try g.registry.addGuard(Guard(parsing: "check(health.db)"))  // starts the thread, whose first round trips it
        for await event in events where event.kind == .guardTripped { break }
        #expect(g.registry.guards.first?.isTripped == true)
        #expect((try? g.request(3)) == 3)
    }

    @Test func chaosOnTheHealthSeamItselfTripsItsGuard() throws {
        let g = try Guarded()
        try g.registry.apply(spec: "return(0)", to: "net.request")
        try g.registry.addGuard(Guard(.check(seam: "health.db", failures: 1)))
        try g.registry.apply(spec: "return(false)", to: "health.db")
        #expect(g.registry.checkGuards().count == 1)
        #expect(g.registry.snapshot().layers.allSatisfy { $0.status != .active })
    }

    @Test func aCheckNeedsABoolSeamThatTakesNothing() throws {
        let g = try Guarded()
        #expect(throws: MischiefError.self) { try g.registry.addGuard(Guard(parsing: "check(net.request)")) }
        #expect(throws: MischiefError.unknownSeam("no.such")) {
            try g.registry.addGuard(Guard(parsing: "errors(no.such) > 5% over 1m"))
        }
        #expect(throws: MischiefError.unknownProfile("Nope")) {
            try g.registry.addGuard(Guard(parsing: "check(health.db)", reverts: .profile("Nope")))
        }
    }

    // MARK: Scopes

    @Test func aProfileGuardRevertsOnlyItsProfileAndIsArmedAgainWhenItIsApplied() throws {
        let g = try Guarded()
        try g.registry.define(
            Profile(
                name: "Flaky network", entries: [.init(seam: "net.request", spec: #"throw("down")"#)],
                guards: ["errors(net.request) > 50% over 10s"]))
        try g.registry.apply(spec: "return(1)", to: "api.checkout")
        #expect(g.registry.guards.map(\.source) == ["profile Flaky network"])
        #expect(g.registry.guards.first?.definition.reverts == .profile("Flaky network"))
        g.call(g.request, 10)
        g.tick()
        #expect(g.registry.checkGuards().isEmpty)  // the profile is not applied: nothing to guard
        try g.registry.apply(profile: "Flaky network")
        g.call(g.request, 10)
        g.tick()
        #expect(g.registry.checkGuards().count == 1)
        #expect(g.registry.profiles.first?.isActive == false)
        #expect(g.registry.snapshot().seam("api.checkout")?.status == .active)  // not guarded by it
        #expect(g.registry.guards.first?.isTripped == true)
        try g.registry.apply(profile: "Flaky network")
        #expect(g.registry.guards.first?.isTripped == false)
    }

    @Test func aGuardCanRevertWhatOneApplyApplied() throws {
        let g = try Guarded()
        let applied = try g.registry.apply(spec: #"throw("declined")"#, to: "api.checkout")
        try g.registry.apply(spec: "return(1)", to: "net.request")
        try g.registry.addGuard(Guard(parsing: "no-success(api.checkout) for 5s", reverts: .layers(applied.layers)))
        g.tick(5)
        #expect(g.registry.checkGuards().count == 1)
        #expect(g.registry.snapshot().seam("api.checkout")?.status == .reverted)
        #expect(g.registry.snapshot().seam("net.request")?.status == .active)
    }

    @Test func aProfileWithABadGuardIsRefusedWithTheColumn() throws {
        let g = try Guarded()
        #expect {
            try g.registry.define(
                Profile(name: "Bad", entries: [], guards: ["errors(net.request) > 50% ovr 10s"]))
        } throws: { error in
            "\(error)".contains("guard 1: expected 'over', found 'ovr'")
        }
        let problems = g.registry.problems(
            in: Profile(name: "Bad", entries: [], guards: ["errors(net.request) > 50% ovr 10s", "check(net.request)"]))
        #expect(problems.count == 2)
        #expect(problems.first?.specError?.column == 27)
        #expect(problems.last?.message.contains("guard 2: net.request: a guard's check(…) needs") == true)
    }

    // MARK: Bookkeeping

    @Test func aGuardCountsItsSeamsCallsAndChangesTheGeneration() throws {
        let g = try Guarded()
        let before = TargetState.following(g.registry)
        #expect(before.guards.isEmpty)
        let id = try g.registry.addGuard(Guard(parsing: "errors(net.request) > 50% over 10s"))
        let changes = g.registry.delta(since: before.generation)
        #expect(changes.guards?.map(\.id) == [id])
        g.call(g.request, 3)
        #expect(g.registry.counters("net.request")?.calls == 3)  // counted though nobody observes
        #expect(g.registry.counters("api.checkout")?.calls == 0)
        g.call(g.checkout, 3)
        #expect(g.registry.counters("api.checkout")?.calls == 0)
        #expect(before.applying(changes)?.guards.map(\.id) == [id])
        try g.registry.removeGuard(id)
        #expect(g.registry.guards.isEmpty)
        g.call(g.request, 3)
        #expect(g.registry.counters("net.request")?.calls == 3)
        #expect(throws: MischiefError.unknownGuard(id)) { try g.registry.removeGuard(id) }
    }

    @Test func aGuardStatusRoundTripsThroughJSON() throws {
        let statuses = [
            GuardStatus(
                id: 1, definition: try Guard(parsing: "errors(net.request) > 50% over 10s"), source: "api",
                state: .armed, isWatching: true),
            GuardStatus(
                id: 2, definition: try Guard(parsing: "check(health.db)", reverts: .profile("P")), source: "profile P",
                state: .tripped(at: .seconds(3), reason: "health.db returned false")),
            GuardStatus(
                id: 3,
                definition: try Guard(parsing: "no-success(a.b) for 1s", reverts: .layers([LayerID(rawValue: 4)])),
                source: "code", state: .armed),
        ]
        let data = try JSONEncoder().encode(statuses)
        #expect(try JSONDecoder().decode([GuardStatus].self, from: data) == statuses)
        #expect(String(decoding: data, as: UTF8.self).contains(#""when":"errors(net.request) > 50% over 10s""#))
    }
}

extension GuardStatus {
    fileprivate var reasonText: String {
        if case .tripped(_, let reason) = state { return reason }
        return ""
    }
}
