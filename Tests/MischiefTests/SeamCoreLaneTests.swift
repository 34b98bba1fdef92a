import CMischiefTSan
import Dispatch
import Synchronization
import Testing

@testable import Mischief

/// Threads count on lanes of their own (`mischief_lanes.h`): a lane is written by one live thread only, is freed
/// when its thread exits, and calls that may change threads, or threads beyond the lanes, count on shared lines.
@Suite(.serialized) struct SeamCoreLaneTests {
    /// Calls on a lane announce themselves with a plain store where the kernel gives the registry its barrier on
    /// every thread (`mischief_fence.h`); where it cannot, they keep the locked add, and the test says which.
    @Test func asymmetricFencesAreOnWhereTheKernelHasThem() {
        guard mischief_light_entry() != 0 else {
            print(
                "asymmetric fences are off here (no membarrier, a ThreadSanitizer build or MISCHIEF_LIGHT_ENTRY=0):",
                "calls announce themselves with a locked add")
            #expect(mischief_heavy_fence() == -1 || mischief_light_entry() == 0)
            return
        }
        #expect(mischief_heavy_fence() == 0)
    }

    @Test func liveThreadsNeverShareALane() {
        let threads = SeamCore.laneCount + 8
        let lanes = Locked<[UInt32]>([])
        let claimed = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = onThreads(threads) { _ in
            let lane = mischief_lane()
            lanes.withLock { $0.append(lane) }
            claimed.signal()
            release.wait()  // hold the lane until every thread has claimed one
        }
        for _ in 0..<threads { claimed.wait() }
        let owned = lanes.withLock { $0 }.filter { $0 != MISCHIEF_LANE_SHARED }
        for _ in 0..<threads { release.signal() }
        done.wait()
        #expect(owned.allSatisfy { $0 < MISCHIEF_LANE_COUNT })
        #expect(Set(owned).count == owned.count, "two live threads own one lane: \(owned.sorted())")
        // More threads than lanes: some of them share.
        #expect(owned.count <= SeamCore.laneCount)
    }

    @Test func aLaneIsFreedWhenItsThreadExits() throws {
        // The thread holds its lane from its claim to its exit, so the lane's release count can only move by the
        // thread's own exit in between.
        let seen = Locked<(lane: UInt32, releases: UInt)?>(nil)
        joinThread {
            // Other tests' threads may hold every lane; a thread without one tries again every few thousand calls.
            var lane = mischief_lane()
            for _ in 0..<1_000_000 where lane == MISCHIEF_LANE_SHARED { lane = mischief_lane() }
            seen.withLock { $0 = (lane, mischief_lane_releases(lane)) }
        }
        let (lane, releasesWhileHeld) = try #require(seen.withLock { $0 })
        guard lane != MISCHIEF_LANE_SHARED else {
            print("aLaneIsFreedWhenItsThreadExits: other tests' threads held every lane throughout; nothing to check")
            return
        }
        #expect(mischief_lane_releases(lane) > releasesWhileHeld)
    }

    @Test func aThreadExitingHandsItsCountsToTheNextOwnerOfItsLane() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        let threads = 3 * SeamCore.laneCount
        for _ in 0..<threads {  // one after another: each lane passes from thread to thread
            joinThread { for index in 0..<1_000 { _ = f.double(index) } }
        }
        #expect(f.registry.counters("test.double")?.calls == threads * 1_000)
        observation.cancel()
    }

    @Test func moreThreadsThanLanesCountExactlyAndFreeEveryBox() async throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        let threads = SeamCore.laneCount + 8
        let calls = 20_000
        let chaos = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let churner = onThreads(1) { _ in
            while !stop.load(ordering: .relaxed) {
                let applied = try! f.registry.apply(f.double, .constant(-1))
                f.registry.revert(applied)
            }
        }
        // Waited for on threads of their own, so the task pool stays free for other tests meanwhile.
        await wait(
            for: onThreads(threads) { _ in
                var local = 0
                for index in 0..<calls where f.double(index) == -1 { local += 1 }
                chaos.wrappingAdd(local, ordering: .relaxed)
            })
        stop.store(true, ordering: .relaxed)
        await wait(for: churner)
        f.registry.finishReverting()
        let counters = try #require(f.registry.counters("test.double"))
        #expect(counters.calls == threads * calls)
        #expect(counters.chaosCalls == chaos.load(ordering: .relaxed))
        #expect(counters.inFlight == 0)
        #expect(f.registry.snapshot().layers.allSatisfy { $0.status == .reverted })
        observation.cancel()
    }

    @Test func asyncChaosCallsEnterOnSharedLinesOnly() async throws {
        let f = try Fixture()
        try f.registry.apply(f.fetch, .constant("x").delayed(by: .milliseconds(1)))
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<50 { group.addTask { try await f.fetch(index) } }
            for try await value in group { #expect(value == "x") }
        }
        let core = f.fetch.core
        func entered(_ shards: Range<Int>) -> UInt64 {
            shards.reduce(0) { sum, shard in
                (0..<SeamCore.phaseCount).reduce(sum) {
                    $0 + core.line(shard)[SeamCore.Slot.entered($1)].load(ordering: .relaxed)
                }
            }
        }
        #expect(entered(0..<SeamCore.laneCount) == 0)
        #expect(entered(SeamCore.laneCount..<SeamCore.shardCount) == 50)
        #expect(f.registry.counters("test.fetch")?.inFlight == 0)
    }

    @Test func countersReadOnlyTheShardsCallsUsed() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        let applied = try f.registry.apply(f.double, .constant(1))
        f.registry.revert(applied)
        #expect(f.double.core.usedShards.load(ordering: .relaxed) == 0)  // applied and reverted, never called
        #expect(f.registry.counters("test.double") == SeamCounters())
        let lane = Locked<UInt32>(0)
        joinThread {
            lane.withLock { $0 = mischief_lane() }
            for index in 0..<10 { _ = f.double(index) }
        }
        let used = f.double.core.usedShards.load(ordering: .relaxed)
        #expect(used.nonzeroBitCount == 1)
        let claimed = lane.withLock { $0 }
        if claimed != MISCHIEF_LANE_SHARED { #expect(used == 1 << claimed) }
        #expect(f.registry.counters("test.double")?.calls == 10)
        observation.cancel()
    }

    @Test func aThreadThatOnlyEntersAsyncCallsClaimsNoLane() throws {
        let f = try Fixture()
        try f.registry.apply(f.fetch, .constant("x"))
        let word = f.fetch.core.word.load(ordering: .relaxed)
        let owned = Locked<UInt32?>(nil)
        joinThread {
            guard let ticket = f.fetch.core.enter(word, mayMigrate: true) else { return }
            f.fetch.core.leave(ticket)
            owned.withLock { $0 = mischief_lane_owned() }
        }
        #expect(owned.withLock { $0 } == MISCHIEF_LANE_SHARED)
    }

    @Test func aCallThatMayChangeThreadsCountsOnASharedLine() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .constant(1))
        let word = f.double.core.word.load(ordering: .relaxed)
        let migrating = try #require(f.double.core.enter(word, mayMigrate: true))
        #expect(!migrating.line.isOwned)
        f.double.core.leave(migrating)
        if mischief_lane() < MISCHIEF_LANE_COUNT {
            let staying = try #require(f.double.core.enter(word))
            #expect(staying.line.isOwned)
            f.double.core.leave(staying)
        } else {
            print("aCallThatMayChangeThreadsCountsOnASharedLine: this thread has no lane (other tests hold them all)")
        }
        #expect(f.registry.counters("test.double")?.inFlight == 0)
    }
}

/// `enter`'s second attempt, out of line since issue 32: a word loaded before the registry changed it.
@Suite struct SeamCoreRetryTests {
    /// A word whose phase is no longer the seam's: the entry is taken back and made again in the current phase.
    @Test func anEntryWithAStalePhaseIsMadeAgainInTheCurrentOne() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .constant(2))
        let current = f.double.core.word.load(ordering: .relaxed)
        let stale = current ^ SeamCore.phaseBit
        let ticket = try #require(f.double.core.enter(stale))
        #expect(UInt(bitPattern: ticket.box) == current & SeamCore.addressMask)
        #expect(ticket.phase == Int((current & SeamCore.phaseBit) >> 1))
        let inside = try #require(f.registry.counters("test.double"))
        #expect(inside.inFlight == 1 && inside.calls == 1, "the first attempt is not counted as a call")
        f.double.core.leave(ticket)
        let after = try #require(f.registry.counters("test.double"))
        #expect(after.inFlight == 0 && after.calls == 1 && after.chaosCalls == 1)
        #expect(f.double(5) == 2)
    }

    /// A word that named a box the registry has since removed: no ticket, and the call is a plain one.
    @Test func anEntryIntoARemovedBoxBecomesAPlainCall() throws {
        let f = try Fixture()
        let observation = f.registry.observe()
        defer { observation.cancel() }
        let applied = try f.registry.apply(f.double, .constant(2))
        let stale = f.double.core.word.load(ordering: .relaxed) ^ SeamCore.phaseBit
        f.registry.revert(applied)
        #expect(f.double.core.enter(stale) == nil)
        let counters = try #require(f.registry.counters("test.double"))
        #expect(counters.calls == 1 && counters.chaosCalls == 0 && counters.inFlight == 0)
    }
}

/// Runs `body` on a new POSIX thread and returns once it has exited (its thread-exit destructors have run).
func joinThread(_ body: @escaping @Sendable () -> Void) {
    switch POSIXThread.start(body) {
    case .success(let thread): thread.join()
    case .failure(let error): Issue.record("pthread_create failed: \(error.code)")
    }
}
