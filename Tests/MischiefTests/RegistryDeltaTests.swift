import Mischief
import Testing

/// `delta(since:)`: every kind of change is counted, unchanged seams are not reported, removed ones are.
@Suite struct RegistryDeltaTests {
    /// The ids of the seams `delta(since: generation)` reports, after `change` ran.
    func changed(_ f: Fixture, by change: () throws -> Void) rethrows -> (RegistryDelta, [SeamID]) {
        let generation = f.registry.snapshot().generation
        try change()
        let delta = f.registry.delta(since: generation)
        #expect(delta.generation > generation)
        return (delta, delta.seams.map(\.id))
    }

    @Test func sinceZeroIsEverything() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "return(3)", to: "test.double")
        let all = f.registry.delta(since: 0)
        let snapshot = f.registry.snapshot()
        #expect(all.seams == snapshot.seams)
        #expect(all.layers == snapshot.layers)
        #expect(all.profiles == [])
        #expect(all.view == TargetView())
        #expect(all.events.map(\.id) == Array(1...snapshot.lastEventID))
        #expect(all.generation == snapshot.generation)
    }

    /// A registry where nothing has happened yet is as of a generation of its own, not 0 (which asks for
    /// everything): a poller that has everything is told nothing changed, and its feed can stay quiet.
    @Test func aFreshRegistryHasNothingNewSinceItsOwnGeneration() {
        let registry = Registry(sessionSeed: 1)
        let generation = registry.delta(since: 0).generation
        #expect(generation > 0)
        #expect(registry.delta(since: generation).isEmpty)
        #expect(registry.snapshot().generation == generation)
    }

    @Test func applyAndRevertReportOnlyTheirSeam() throws {
        let f = try Fixture()
        let (applied, seams) = try changed(f) { try f.registry.apply(spec: "return(3)", to: "test.double") }
        #expect(seams == ["test.double"])
        #expect(applied.seams.first?.status == .active)
        #expect(applied.layers.map(\.status) == [.active])
        #expect(applied.events.map(\.kind) == [.applied])
        let (reverted, revertedSeams) = changed(f) { f.registry.revert(seam: "test.double") }
        #expect(revertedSeams == ["test.double"])
        #expect(reverted.seams.first?.status == .reverted)
        #expect(reverted.layers.map(\.status) == [.reverted])
    }

    @Test func nothingChangedReportsNothing() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        defer { observation.cancel() }
        let generation = f.registry.snapshot().generation
        let delta = f.registry.delta(since: generation)
        #expect(delta.isEmpty)
        #expect(delta.generation == generation)
    }

    @Test func callsAreCountedWhileObserved() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        defer { observation.cancel() }
        let (delta, seams) = changed(f) { _ = f.double(1) }
        #expect(seams == ["test.double"])
        #expect(delta.seams.first?.counters.calls == 1)
        #expect(delta.seams.first?.lastCalled != nil)
    }

    @Test func chaosCallsAreCountedWhileNobodyObserves() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .constant(5))
        let (delta, seams) = changed(f) { _ = f.double(1) }
        #expect(seams == ["test.double"])
        #expect(delta.seams.first?.counters.chaosCalls == 1)
    }

    @Test func revertCompletingIsAChange() throws {
        let f = try Fixture()
        let parked = ParkedCall()
        try f.registry.apply(f.double, parked.behaviour(returning: 9))
        parked.start(f.double)
        let (reverting, _) = changed(f) { f.registry.revert(seam: "test.double") }
        #expect(reverting.seams.first?.status == .reverting)
        #expect(reverting.seams.first?.counters.inFlight == 1)
        let (done, seams) = changed(f) { #expect(parked.finish() == 9) }
        #expect(seams == ["test.double"])
        #expect(done.seams.first?.status == .reverted)
        #expect(done.layers.map(\.status) == [.reverted])
        #expect(done.events.map(\.kind) == [.revertCompleted])
    }

    @Test func registrationEventsViewAndProfilesAreChanges() throws {
        let f = try Fixture()
        let extra = Seam<Int, Int, Never>("test.extra", title: "Extra", category: "Test", summary: "x") { $0 }
        let (registered, seams) = try changed(f) { try f.registry.register(extra) }
        #expect(seams == ["test.extra"])
        #expect(registered.profiles == nil && registered.view == nil)
        let (reported, reportedSeams) = changed(f) { f.registry.report(seam: nil, message: "hello") }
        #expect(reportedSeams.isEmpty)
        #expect(reported.events.map(\.message) == ["hello"])
        let view = TargetView(title: "T", lines: [.init("line")])
        let (published, _) = changed(f) { f.registry.publish(view) }
        #expect(published.view == view)
        // The same view again is no change: an app republishing on a timer does not wake its consoles.
        let before = f.registry.snapshot().generation
        f.registry.publish(view)
        #expect(f.registry.delta(since: before).view == nil)
        let profile = Profile(name: "P", entries: [.init(seam: "test.double", spec: "return(1)")])
        let (defined, _) = try changed(f) { try f.registry.define(profile) }
        #expect(defined.profiles?.map(\.isActive) == [false])
        let (toggled, toggledSeams) = try changed(f) { try f.registry.toggle(profile: "P") }
        #expect(toggled.profiles?.map(\.isActive) == [true])
        #expect(toggledSeams == ["test.double"])
    }

    @Test func unregisteredSeamsAreReportedRemoved() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "return(3)", to: "test.double")
        let before = TargetState.following(f.registry)
        let (delta, seams) = changed(f) { f.registry.unregister("test.double") }
        #expect(seams.isEmpty)
        #expect(delta.removed == ["test.double"])
        #expect(f.double(2) == 4)  // its original again
        let copy = try #require(before.applying(delta))
        #expect(copy.seams == f.registry.snapshot().seams)
        #expect(copy.seam("test.double") == nil)
        try f.registry.register(f.double)
        #expect(f.registry.delta(since: delta.generation).seams.map(\.id) == ["test.double"])
        let again = f.registry.delta(since: before.generation)
        #expect(again.removed == ["test.double"] && again.seams.map(\.id) == ["test.double"], "moved to the end")
        #expect(before.applying(again)?.seams.map(\.id) == f.registry.snapshot().seams.map(\.id))
    }

    @Test func eventsAfterAnIdOrAGeneration() throws {
        let f = try Fixture()
        let snapshot = f.registry.snapshot()
        f.registry.report(seam: nil, message: "one")
        f.registry.report(seam: nil, message: "two")
        #expect(f.registry.delta(since: snapshot.generation).events.map(\.message) == ["one", "two"])
        let afterOne = f.registry.delta(since: snapshot.generation, eventsAfter: snapshot.lastEventID + 1)
        #expect(afterOne.events.map(\.message) == ["two"])
    }

    @Test func prunedEntriesLeaveTheirSeamsEntries() throws {
        let f = try Fixture()
        for index in 0..<205 { try f.registry.apply(spec: "return(\(index))", to: "test.double") }
        let all = f.registry.delta(since: 0)
        #expect(all.layers.count == 201)  // 200 reverted kept, and the active one
        #expect(all.layers == f.registry.snapshot().layers)
    }

    @Test func profilesAreReportedOnlyWhenTheirStatusCanHaveMoved() throws {
        let f = try Fixture()
        try f.registry.define(Profile(name: "P", entries: [.init(seam: "test.double", spec: "return(1)")]))
        let (outside, _) = try changed(f) { try f.registry.apply(spec: "return(2)", to: "test.parse") }
        #expect(outside.profiles == nil, "a change outside every profile")
        let (on, _) = try changed(f) { try f.registry.toggle(profile: "P") }
        #expect(on.profiles?.map(\.isActive) == [true])
        let (reverted, _) = changed(f) { f.registry.revert(seam: "test.double") }
        #expect(reverted.profiles?.map(\.isActive) == [false], "its only entry reverted by hand")
    }
}
