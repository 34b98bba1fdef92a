import Testing

@testable import Mischief

/// `snapshot()` keeps every seam's snapshot between reads and rebuilds only the seams counted since: what it gives must
/// be what a registry that kept nothing would give, whatever came and went between two reads, and a snapshot already
/// given out never changes.
@Suite struct SnapshotKeptTests {
    private func seam(_ index: Int) -> Seam<Int, Int, Never> {
        Seam<Int, Int, Never>(
            try! SeamID("test.kept.s\(index)"), title: "Seam \(index)", category: "Test", summary: "x + 1"
        ) { $0 &+ 1 }
    }

    /// Each seam of `snapshot` as `snapshot(of:)` reads it, in registration order.
    private func expectEachSeamReadsAlike(_ snapshot: Snapshot, _ registry: Registry, ids: [SeamID]) {
        #expect(snapshot.seams.map(\.id) == ids)
        for seam in snapshot.seams { #expect(seam == registry.snapshot(of: seam.id)) }
    }

    @Test func aReadAfterChangesShowsThemAndTheSnapshotBeforeIsUnchanged() throws {
        let registry = Registry(sessionSeed: 1)
        let observation = registry.observe()
        defer { withExtendedLifetime(observation) {} }
        var seams = (0..<20).map(seam)
        for seam in seams { try registry.register(seam) }
        let first = registry.snapshot()
        #expect(first.seams.allSatisfy { $0.counters.calls == 0 && $0.status == .neverApplied })

        _ = seams[3](1)
        _ = seams[3](2)
        try registry.apply(seams[7], .constant(7))
        let second = registry.snapshot()
        #expect(second.seam("test.kept.s3")?.counters.calls == 2)
        #expect(second.seam("test.kept.s7")?.behaviourText == "return(7)")
        #expect(first.seam("test.kept.s3")?.counters.calls == 0, "a snapshot given out never changes")
        #expect(first.seam("test.kept.s7")?.behaviourText == nil)
        expectEachSeamReadsAlike(second, registry, ids: seams.map(\.info.id))

        // Seams that come and go between reads.
        registry.unregister("test.kept.s5")
        seams.remove(at: 5)
        let added = seam(20)
        try registry.register(added)
        seams.append(added)
        _ = added(1)
        registry.revert(seam: "test.kept.s7")
        let third = registry.snapshot()
        expectEachSeamReadsAlike(third, registry, ids: seams.map(\.info.id))
        #expect(third.seam("test.kept.s20")?.counters.calls == 1)
        #expect(third.seam("test.kept.s7")?.behaviourText == nil)
        #expect(second.seam("test.kept.s5") != nil)

        // Many seams changed at once: more than there are seams' worth of changes rebuilds them all.
        for _ in 0..<3 { for seam in seams { _ = seam(0) } }
        for seam in seams.prefix(10) { try registry.apply(seam, .constant(1)) }
        let fourth = registry.snapshot()
        expectEachSeamReadsAlike(fourth, registry, ids: seams.map(\.info.id))
        #expect(fourth.seams.allSatisfy { $0.counters.calls >= 3 })
        #expect(fourth.seams.prefix(10).allSatisfy { $0.behaviourText == "return(1)" })
        #expect(registry.snapshot().seams == fourth.seams, "nothing changed since")
    }
}
