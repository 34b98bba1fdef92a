import Foundation
import MischiefTestSupport
import Synchronization
import Testing

@testable import Mischief

/// The one follower of a registry, used by the in-process console and by the control server's events streams: it
/// wakes on the registry's change signals, counts calls only while it runs, and each reader's cursor sends what
/// changed since its last delta, or nothing.
@Suite struct RegistryFollowerTests {
    /// Counts the follower's wakes and lets a test wait for the next.
    final class Wakes: Sendable {
        private let count = Atomic<Int>(0)
        let stream: AsyncStream<Int>
        private let continuation: AsyncStream<Int>.Continuation

        init() { (stream, continuation) = AsyncStream.makeStream() }

        func wake() { continuation.yield(count.wrappingAdd(1, ordering: .relaxed).newValue) }
    }

    static func header(_ delta: RegistryDelta) -> TargetHeader {
        TargetHeader(
            name: "test", pid: 1, uptime: delta.uptime, sessionSeed: delta.sessionSeed,
            wallTime: Date(timeIntervalSince1970: 0))
    }

    /// The cursor's next delta (a function, so `#expect` does not take the cursor as a constant).
    static func next(_ cursor: inout RegistryFollower.Cursor, _ registry: Registry) -> StreamDelta? {
        cursor.next(from: registry, header: header)
    }

    @Test func itWakesWhenTheRegistryChanges() async throws {
        let f = try Fixture()
        let wakes = Wakes()
        // A refresh of an hour: only the change can wake it within the test's deadline.
        let follower = RegistryFollower(registry: f.registry, refresh: .seconds(3_600)) { wakes.wake() }
        follower.start()
        defer { follower.stop() }
        try f.registry.apply(spec: "return(3)", to: "test.double")
        try await Deadline.wait(for: "the follower to wake after an apply") {
            var iterator = wakes.stream.makeAsyncIterator()
            _ = await iterator.next()
        }
    }

    @Test func theRegistryCountsCallsOnlyWhileAFollowerRuns() throws {
        let f = try Fixture()
        let follower = RegistryFollower(registry: f.registry, refresh: .seconds(3_600)) {}
        #expect(!f.registry.delta(since: 0).isCounting, "nobody watches yet")
        follower.start()
        #expect(f.registry.delta(since: 0).isCounting, "a follower watches")
        _ = f.double(1)
        #expect(f.registry.counters("test.double")?.calls == 1)
        follower.stop()
        #expect(!f.registry.delta(since: 0).isCounting, "stopped: nobody watches")
        _ = f.double(1)
        #expect(f.registry.counters("test.double")?.calls == 1, "not counted once it stopped")
    }

    @Test func aCursorSendsEverythingThenWhatChangedThenNothing() throws {
        let clock = ManualRegistryClock()
        let registry = Registry(sessionSeed: 1, clock: clock, expiresOnItsOwn: false)
        let double = Seam<Int, Int, Never>("test.double", title: "Double", category: "Test", summary: "") { $0 * 2 }
        try registry.register(double)
        var cursor = RegistryFollower.Cursor()
        let first = try #require(Self.next(&cursor, registry))
        #expect(first.registry.since == 0 && first.registry.seams.map(\.id) == ["test.double"])
        #expect(Self.next(&cursor, registry) == nil, "nothing changed, no second turned")

        try registry.apply(spec: "return(3)", to: "test.double")
        let applied = try #require(Self.next(&cursor, registry))
        #expect(applied.follows(first.generation))
        #expect(applied.registry.seams.map(\.behaviourText) == ["return(3)"])
        #expect(cursor.generation == applied.generation)

        clock.advance(by: .seconds(1))
        let turned = try #require(Self.next(&cursor, registry), "the uptime shown turned")
        #expect(turned.registry.isEmpty)
        #expect(Self.next(&cursor, registry) == nil)
    }

    /// A batch made once for several readers goes to those it follows; one that missed a batch is told to ask for
    /// its own.
    @Test func aCursorTakesABatchOnlyWhenItFollowsWhatItHas() throws {
        // The registry's clock stands still: no second shown turns between two batches.
        let f = try Fixture(clock: ManualRegistryClock())
        var reader = RegistryFollower.Cursor()
        let offered = reader.offer(f.registry.delta(since: 0).stamped)
        #expect(offered == nil, "a first delta is its own")
        let first = try #require(Self.next(&reader, f.registry))

        try f.registry.apply(spec: "return(3)", to: "test.double")
        let batch = StreamDelta(target: first.target, registry: f.registry.delta(since: first.generation))
        let taken = reader.offer(batch)
        #expect(taken == true)
        #expect(reader.generation == batch.generation)
        let quiet = StreamDelta(target: first.target, registry: f.registry.delta(since: batch.generation))
        let quietTaken = reader.offer(quiet)
        #expect(quietTaken == false, "nothing it shows changed")

        try f.registry.apply(spec: "return(4)", to: "test.double")
        let missed = f.registry.generation
        try f.registry.apply(spec: "return(5)", to: "test.double")
        let later = StreamDelta(target: first.target, registry: f.registry.delta(since: missed))
        let laterTaken = reader.offer(later)
        #expect(laterTaken == nil, "it missed the batch before: it asks for its own")
    }
}
