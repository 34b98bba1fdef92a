import Dispatch
import Mischief
import Synchronization
import Testing

@Suite struct RegistryTests {
    @Test func registeringTwoSeamsWithOneIDIsAnError() throws {
        let f = try Fixture()
        let impostor = Seam<Int, Int, Never>("test.double", title: "", category: "", summary: "") { $0 }
        #expect(throws: MischiefError.duplicateSeam("test.double")) { try f.registry.register(impostor) }
        try f.registry.register(f.double)  // the same object again is fine
        #expect(
            f.registry.seams.map(\.id) == ["test.double", "test.parse", "test.rules", "test.fetch", "test.optional"])
    }

    @Test func changingAnUnregisteredSeamIsAnError() throws {
        let registry = Registry(sessionSeed: 1)
        let loose = Seam<Int, Int, Never>("loose.seam", title: "", category: "", summary: "") { $0 }
        #expect(throws: MischiefError.unknownSeam("loose.seam")) { try registry.apply(loose, .constant(1)) }
    }

    @Test func aGroupIsAllOrNothing() throws {
        let f = try Fixture()
        #expect(throws: MischiefError.self) {
            try f.registry.apply([Change(f.double, .constant(1)), Change(f.double, .throwing(message: "x"))])
        }
        #expect(f.double(1) == 2)
        #expect(f.registry.snapshot().layers.isEmpty)
    }

    @Test func changeListenersHearEveryApplyAndRevertOfTheirSeamOnly() throws {
        let f = try Fixture()
        let heard = Mutex<[Int]>([])
        f.double.onChange { heard.withLock { $0.append(f.double.peek(10)) } }
        let applied = try f.registry.apply(f.double, .constant(1))
        try f.registry.apply(f.parse, .constant(7))
        f.registry.revert(applied)
        #expect(heard.withLock { $0 } == [1, 20])  // what the seam does when each change is announced
    }

    @Test func replaceStackingShowsTheNewestAndRevertUncoversTheOneBeneath() throws {
        let f = try Fixture()
        let bottom = try f.registry.apply(f.double, .constant(1), source: "profile A")
        let top = try f.registry.apply(f.double, .constant(2), source: "profile B")
        #expect(f.double(0) == 2)
        let seam = try #require(f.registry.snapshot().seam("test.double"))
        #expect(seam.behaviourText == "return(2)")
        #expect(seam.layers.map(\.source) == ["profile A", "profile B"])
        f.registry.revert(top)
        #expect(f.double(0) == 1)
        f.registry.revert(bottom)
        #expect(f.double(0) == 0)
    }

    @Test func revertingTheLowerLayerKeepsTheTop() throws {
        let f = try Fixture()
        let bottom = try f.registry.apply(f.double, .constant(1))
        try f.registry.apply(f.double, .constant(2))
        f.registry.revert(bottom)
        #expect(f.double(0) == 2)
    }

    @Test func mergeStackingTriesNewerRulesFirstThenOlder() throws {
        let f = try Fixture()
        let older = try f.registry.apply(
            f.rules, .match([.when("a", .constant("old a")), .when("b", .constant("old b"))]))
        let newer = try f.registry.apply(f.rules, .match([.when("a", .constant("new a"))]))
        #expect(f.rules("a") == "new a")
        #expect(f.rules("b") == "old b")
        #expect(f.rules("c") == "original c")
        #expect(f.registry.snapshot().seam("test.rules")?.behaviourText == "match(1 rule) -> match(2 rules)")
        f.registry.revert(newer)
        #expect(f.rules("a") == "old a")
        f.registry.revert(older)
        #expect(f.rules("a") == "original a")
    }

    @Test func stackedLayersKeepTheirStateWhenUncovered() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .sequence([.constant(1), .constant(2), .constant(3)]))
        #expect(f.double(0) == 1)
        let top = try f.registry.apply(f.double, .constant(0))
        #expect(f.double(0) == 0)
        f.registry.revert(top)
        #expect(f.double(0) == 2)  // the sequence goes on where it was
    }

    @Test func revertOneAGroupAndEverything() throws {
        let f = try Fixture()
        let one = try f.registry.apply(f.double, .constant(1))
        let group = try f.registry.apply([Change(f.parse, .constant(5)), Change(f.optional, .returningNil)])
        try f.registry.apply(f.rules, .constant("x"))
        f.registry.revert(one)
        #expect(try f.double(1) == 2 && f.parse("1") == 5)
        f.registry.revert(group)
        #expect(try f.parse("1") == 1 && f.optional() == "present" && f.rules("a") == "x")
        f.registry.revertAll()
        #expect(f.rules("a") == "original a")
        let snapshot = f.registry.snapshot()
        #expect(snapshot.layers.map(\.status) == [.reverted, .reverted, .reverted, .reverted])
        #expect(snapshot.seams.map(\.status) == [.reverted, .reverted, .reverted, .neverApplied, .reverted])
    }

    @Test func revertShowsRevertingWhileAChaosCallIsInFlight() throws {
        let f = try Fixture()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let applied = try f.registry.apply(
            f.double,
            .closure { call in
                entered.signal()
                release.wait()
                return -1
            })
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            #expect(f.double(1) == -1)
            done.signal()
        }
        try #require(entered.wait(timeout: .now() + 60) == .success, "the call did not enter its behaviour in 60 s")
        f.registry.revert(applied)
        #expect(f.double(1) == 2)  // new calls already get the original
        var snapshot = f.registry.snapshot()
        #expect(snapshot.layers.first?.status == .reverting)
        #expect(snapshot.seam("test.double")?.status == .reverting)
        #expect(snapshot.seam("test.double")?.counters.inFlight == 1)
        release.signal()
        #expect(done.wait(timeout: .now() + 60) == .success, "the released call did not return in 60 s")
        snapshot = f.registry.snapshot()
        #expect(snapshot.layers.first?.status == .reverted)
        #expect(snapshot.seam("test.double")?.status == .reverted)
        #expect(f.registry.events().contains { $0.kind == .revertCompleted })
    }

    @Test func countersCountOnlyWhileObserved() throws {
        let f = try Fixture()
        _ = f.double(1)
        #expect(f.registry.counters("test.double") == SeamCounters())
        let observation = f.registry.observe()
        for _ in 0..<10 { _ = f.double(1) }
        try f.registry.apply(f.double, .probability(100, .constant(0)))
        for _ in 0..<5 { _ = f.double(1) }
        try f.registry.apply(f.double, .probability(0, .constant(0)))
        for _ in 0..<3 { _ = f.double(1) }
        #expect(f.registry.counters("test.double") == SeamCounters(calls: 18, chaosCalls: 5, errors: 0, inFlight: 0))
        observation.cancel()
        f.registry.revertAll()
        for _ in 0..<10 { _ = f.double(1) }
        #expect(f.registry.counters("test.double")?.calls == 18)
    }

    @Test func chaosCallsAreCountedEvenWhenNobodyObservesAndErrorsToo() throws {
        let f = try Fixture()
        try f.registry.apply(f.parse, .sequence([.constant(1), .throwing(Boom())]))
        _ = try f.parse("1")
        _ = try? f.parse("1")
        _ = try? f.parse("1")
        #expect(f.registry.counters("test.parse") == SeamCounters(calls: 3, chaosCalls: 3, errors: 2, inFlight: 0))
    }

    @Test func peekDoesNotCount() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        try f.registry.apply(f.optional, .constant("changed"))
        #expect(f.optional.peek() == "changed")
        #expect(f.registry.counters("test.optional")?.calls == 0)
        f.registry.revertAll()
        #expect(f.optional.peek() == "present")
        #expect(f.registry.counters("test.optional")?.calls == 0)
        observation.cancel()
    }

    @Test func snapshotStampsLastCalledWhenItSeesTheCountChange() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        #expect(f.registry.snapshot().seam("test.double")?.lastCalled == nil)
        _ = f.double(1)
        let first = try #require(f.registry.snapshot().seam("test.double")?.lastCalled)
        #expect(f.registry.snapshot().seam("test.double")?.lastCalled == first)  // no new call, same stamp
        observation.cancel()
    }

    @Test func eventsRecordAppliesRevertsReportsAndRefusals() async throws {
        let f = try Fixture()
        var stream = f.registry.eventStream().makeAsyncIterator()
        let applied = try f.registry.apply(
            f.double,
            .closure { call in
                call.report("saw \(call.input)")
                return 0
            }, source: "test")
        _ = f.double(7)
        f.registry.revert(applied)
        _ = try? f.registry.apply(f.double, .throwing(message: "x"))
        let kinds = f.registry.events().map(\.kind)
        #expect(
            kinds == [
                .registered, .registered, .registered, .registered, .registered,
                .applied, .report, .reverted, .refused,
            ])
        #expect(f.registry.events().first { $0.kind == .report }?.message == "saw 7")
        #expect(await stream.next()?.kind == .applied)
        #expect(await stream.next()?.message == "saw 7")
    }

    @Test func eventHistoryIsBounded() throws {
        let registry = Registry(sessionSeed: 1, eventCapacity: 10)
        for index in 0..<25 { registry.report(seam: nil, message: "m\(index)") }
        let events = registry.events()
        #expect(events.count == 10)
        #expect(events.first?.message == "m15" && events.last?.message == "m24")
        #expect(registry.events(after: 23).map(\.message) == ["m23", "m24"])
    }

    @Test func targetViewIsPublishedThroughTheSnapshot() throws {
        let f = try Fixture()
        f.registry.publish(TargetView(title: "Demo", lines: [.init("hello"), .init("offline", role: "error")]))
        #expect(f.registry.snapshot().view.lines.last == TargetView.Line("offline", role: "error"))
    }

    @Test func withMischiefRevertsOnReturnAndOnThrow() async throws {
        let f = try Fixture()
        let inside = try f.registry.withMischief([Change(f.double, .constant(0))]) { f.double(5) }
        #expect(inside == 0 && f.double(5) == 10)
        #expect(throws: Boom.self) {
            try f.registry.withMischief([Change(f.double, .constant(0))]) { throw Boom() }
        }
        #expect(f.double(5) == 10)
        let asyncInside = try await f.registry.withMischief([Change(f.fetch, .constant("x"))]) {
            try await f.fetch(1)
        }
        #expect(asyncInside == "x")
        #expect(try await f.fetch(1) == "item 1")
    }
}
