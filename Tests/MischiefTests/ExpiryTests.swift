import Foundation
import Mischief
import Synchronization
import Testing

/// Changes with a time to live, on a manual clock: nothing here sleeps or reads the wall clock.
@Suite struct ExpiryTests {
    /// A registry on a manual clock whose expiry only ``Registry/expireDue()`` runs, with the usual seams.
    struct Timed {
        let clock = ManualRegistryClock()
        let registry: Registry
        let double = Seam<Int, Int, Never>("test.double", title: "Double", category: "Test", summary: "") { $0 * 2 }
        let other = Seam<Int, Int, Never>("test.other", title: "Other", category: "Test", summary: "") { $0 + 1 }

        init(expiresOnItsOwn: Bool = false) throws {
            registry = Registry(sessionSeed: 1, clock: clock, expiresOnItsOwn: expiresOnItsOwn)
            try registry.register(double, other)
        }

        func layer(_ seam: SeamID) -> LayerSnapshot? { registry.snapshot().seam(seam)?.layers.last }
    }

    @Test func aChangeExpiresAtItsDeadlineAndNotBefore() throws {
        let t = try Timed()
        let applied = try t.registry.apply(spec: "return(7)", to: "test.double", ttl: .seconds(30))
        #expect(t.double(1) == 7)
        #expect(t.layer("test.double")?.ttl == .seconds(30))
        #expect(t.layer("test.double")?.expiresAt == .seconds(30))
        t.clock.advance(by: .seconds(29))
        #expect(t.layer("test.double")?.expiresIn == .seconds(1))
        #expect(t.registry.expireDue().isEmpty)
        #expect(t.double(1) == 7)
        t.clock.advance(by: .seconds(1))
        #expect(t.registry.expireDue() == applied.entries)
        #expect(t.double(1) == 2)
        #expect(t.registry.snapshot().seam("test.double")?.status == .reverted)
        #expect(t.registry.expireDue().isEmpty)  // once
    }

    @Test func theEventLogSaysWhyAChangeWasReverted() throws {
        let t = try Timed()
        try t.registry.apply(spec: "return(7)", to: "test.double", source: "cli", ttl: .seconds(30))
        t.clock.advance(by: .seconds(31))
        t.registry.expireDue()
        let events = t.registry.events()
        let applied = try #require(events.first { $0.kind == .applied })
        #expect(applied.message == "return(7) (ttl 30s)")
        let reverted = try #require(events.first { $0.kind == .reverted })
        #expect(reverted.seam == "test.double")
        #expect(reverted.source == "cli")
        #expect(reverted.message == "return(7): expired after its ttl of 30s")
        #expect(reverted.time == .seconds(31))
    }

    @Test func severalChangesExpireInTheOrderOfTheirDeadlines() throws {
        let t = try Timed()
        let late = try t.registry.apply(t.double, .constant(5), ttl: .seconds(20))
        let early = try t.registry.apply(t.other, .constant(6), ttl: .seconds(10))
        let never = try t.registry.apply(t.double, .constant(9), source: "forever")
        t.clock.advance(by: .seconds(15))
        #expect(t.registry.expireDue() == early.entries)
        #expect(t.other(1) == 2)
        #expect(t.double(1) == 9)
        t.clock.advance(by: .seconds(60))
        #expect(t.registry.expireDue() == late.entries)
        #expect(t.double(1) == 9)  // the one without a ttl stays
        #expect(t.registry.snapshot().entries.first { $0.id == never.entries[0] }?.status == .active)

        // Both due at once: the sooner deadline goes first.
        let second = try t.registry.apply(t.other, .constant(1), ttl: .seconds(2))
        let first = try t.registry.apply(t.double, .constant(1), ttl: .seconds(1))
        t.clock.advance(by: .seconds(5))
        #expect(t.registry.expireDue() == first.entries + second.entries)
        let reverts = t.registry.events().filter { $0.kind == .reverted }.map(\.seam)
        #expect(reverts == ["test.other", "test.double", "test.double", "test.other"])
    }

    @Test func applyingAgainReplacesTheDeadline() throws {
        let t = try Timed()
        try t.registry.apply(spec: "return(7)", to: "test.double", ttl: .seconds(10))
        t.clock.advance(by: .seconds(8))
        let again = try t.registry.apply(spec: "return(8)", to: "test.double", ttl: .seconds(10))
        t.clock.advance(by: .seconds(5))
        #expect(t.registry.expireDue().isEmpty)  // the first deadline went with the layer it was on
        #expect(t.double(1) == 8)
        #expect(t.layer("test.double")?.expiresIn == .seconds(5))
        try t.registry.apply(spec: "return(9)", to: "test.double")  // and again without a ttl: lasts
        t.clock.advance(by: .seconds(60))
        #expect(t.registry.expireDue().isEmpty)
        #expect(t.double(1) == 9)
        #expect(t.registry.snapshot().entries.first { $0.id == again.entries[0] }?.status == .reverted)
    }

    @Test func revertingBeforeTheDeadlineCancelsIt() throws {
        let t = try Timed()
        let applied = try t.registry.apply(t.double, .constant(5), ttl: .seconds(10))
        t.registry.revert(applied)
        let beneath = try t.registry.apply(t.double, .constant(6), source: "other")
        t.clock.advance(by: .seconds(20))
        #expect(t.registry.expireDue().isEmpty)
        #expect(t.double(1) == 6)
        #expect(!t.registry.events().contains { $0.message.contains("expired") })
        t.registry.revert(beneath)
    }

    @Test func setTTLGivesTheSeamsChangesADeadlineFromNowOrTakesItAway() throws {
        let t = try Timed()
        try t.registry.apply(t.double, .constant(5), source: "a")
        try t.registry.apply(t.double, .constant(6), source: "b")
        t.clock.advance(by: .seconds(100))
        #expect(try t.registry.setTTL(.seconds(30), on: "test.double") == 2)
        #expect(t.registry.snapshot().seam("test.double")?.layers.map(\.expiresIn) == [.seconds(30), .seconds(30)])
        #expect(t.registry.events().last?.message == "expires in 30s")
        t.clock.advance(by: .seconds(10))
        try t.registry.setTTL(nil, on: "test.double")
        t.clock.advance(by: .seconds(60))
        #expect(t.registry.expireDue().isEmpty)
        try t.registry.setTTL(.seconds(1), on: "test.double")
        t.clock.advance(by: .seconds(1))
        #expect(t.registry.expireDue().count == 2)
        #expect(t.double(1) == 2)
        #expect(
            throws: MischiefError.unsupported("test.double", "nothing is applied to it, so there is nothing to expire")
        ) {
            try t.registry.setTTL(.seconds(1), on: "test.double")
        }
        #expect(throws: MischiefError.unknownSeam("test.nope")) { try t.registry.setTTL(.seconds(1), on: "test.nope") }
    }

    @Test(arguments: [Duration.zero, .seconds(-1), .seconds(86_401)])
    func aTTLOutOfRangeIsRefusedAndNothingIsApplied(_ ttl: Duration) throws {
        let t = try Timed()
        #expect(throws: MischiefError.invalidTTL(ttl)) {
            try t.registry.apply(spec: "return(7)", to: "test.double", ttl: ttl)
        }
        #expect(throws: MischiefError.invalidTTL(ttl)) { try t.registry.apply(t.double, .constant(1), ttl: ttl) }
        #expect(t.registry.snapshot().entries.isEmpty)
        #expect(
            MischiefError.invalidTTL(.seconds(90_000)).description
                == "a ttl must be more than 0s and at most 1d, not 25h")
        try t.registry.apply(t.double, .constant(1), ttl: Registry.longestTTL)  // the limit itself is fine
    }

    @Test func aProfilesEntriesTakeTheirOwnTTLElseTheProfiles() throws {
        let t = try Timed()
        try t.registry.define(
            Profile(
                name: "P",
                entries: [
                    .init(seam: "test.double", spec: "return(5)", ttl: .seconds(5)),
                    .init(seam: "test.other", spec: "return(6)"),
                ], ttl: .seconds(60)))
        try t.registry.apply(profile: "P")
        let layers = t.registry.snapshot().entries.map(\.ttl)
        #expect(layers == [.seconds(5), .seconds(60)])
        t.clock.advance(by: .seconds(5))
        #expect(t.registry.expireDue().count == 1)
        #expect(t.registry.profiles.first?.isActive == true)
        t.clock.advance(by: .seconds(55))
        #expect(t.registry.expireDue().count == 1)
        #expect(t.registry.profiles.first?.isActive == false)

        try t.registry.apply(profile: "P", ttl: .seconds(2))  // one ttl for every entry
        #expect(t.registry.snapshot().entries.filter { $0.status == .active }.map(\.ttl) == [.seconds(2), .seconds(2)])

        let bad = Profile(name: "Bad", entries: [.init(seam: "test.double", spec: "return(1)", ttl: .zero)])
        #expect(t.registry.problems(in: bad).map(\.message) == ["a ttl must be more than 0s and at most 1d, not 0s"])
    }

    @Test func theRegistrysOwnThreadExpiresAChangeWhenItsClockPassesTheDeadline() async throws {
        let t = try Timed(expiresOnItsOwn: true)
        let events = t.registry.eventStream()
        try t.registry.apply(t.double, .constant(5), ttl: .seconds(30))
        t.clock.advance(by: .seconds(30))  // wakes the thread, which expires it: nobody calls the registry
        for await event in events where event.kind == .reverted {
            #expect(event.message == "return(5): expired after its ttl of 30s")
            break
        }
        #expect(t.double(1) == 2)
    }

    @Test func aRegistryWithAPendingTTLGoesAwayAndItsThreadWithIt() throws {
        weak var gone: Registry?
        let double = Seam<Int, Int, Never>("test.double", title: "", category: "", summary: "") { $0 * 2 }
        do {
            let registry = Registry(sessionSeed: 1)
            try registry.register(double)
            try registry.apply(double, .constant(5), ttl: .seconds(3_600))
            gone = registry
        }
        // The timer thread holds it only weakly, and only for the moment it looks at the deadlines (its first
        // look may still be under way on its own thread: let it finish).
        for _ in 0..<1_000_000 where gone != nil { sched_yield() }
        #expect(gone == nil)
        #expect(double(1) == 2)  // and the seam calls its original again
    }

    @Test func layerJSONWithoutTTLFieldsStillDecodes() throws {
        let json = #"{"entry":3,"seam":"a.b","behaviour":"x","source":"s","status":"active"}"#
        let layer = try JSONDecoder().decode(LayerSnapshot.self, from: Data(json.utf8))
        #expect(layer.ttl == nil && layer.expiresAt == nil && layer.expiresIn == nil)
        let timed = LayerSnapshot(
            id: LayerID(rawValue: 1), seam: "a.b", behaviour: "x", source: "s", status: .active, ttl: .seconds(30),
            expiresAt: .seconds(40), expiresIn: .seconds(12.5))
        let text = String(decoding: try JSONEncoder().encode(timed), as: UTF8.self)
        #expect(text.contains(#""ttl":30"#) && text.contains(#""expiresIn":12.5"#))
        #expect(try JSONDecoder().decode(LayerSnapshot.self, from: Data(text.utf8)) == timed)
    }
}
