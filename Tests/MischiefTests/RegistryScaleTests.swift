import Testing

@testable import Mischief

/// What issue 47's structural rows rest on, counted rather than timed: an apply on a tall replacing stack builds its
/// box from one layer, and seams of one type share their generic actions.
@Suite struct RegistryScaleTests {
    static func seam(_ id: String, stacking: Stacking = .replace) -> Seam<Int, Int, Never> {
        Seam<Int, Int, Never>(
            try! SeamID(id), title: "Scale", category: "Test", summary: "x + 1", stacking: stacking
        ) { $0 &+ 1 }
    }

    /// The layers the installed box serves, as the seam's core keeps them for freeing.
    static func served(_ seam: AnySeam) -> Set<LayerID> {
        seam.core.ownership.withLock { $0.layers }
    }

    @Test func anApplyOnATallReplacingStackBuildsItsBoxFromTheNewestLayerOnly() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Self.seam("scale.replace")
        try registry.register(seam)
        var applied: [Applied] = []
        for index in 0..<2_000 { applied.append(try registry.apply(seam, .constant(index))) }
        #expect(seam(1) == 1_999)
        #expect(Self.served(seam) == [applied[1_999].layers[0]])
        // A layer beneath the newest answers no call, so it is reverted at once; the newest still answers.
        registry.revert(applied[5])
        #expect(registry.snapshot().layers.first { $0.id == applied[5].layers[0] }?.status == .reverted)
        #expect(seam(1) == 1_999)
        // Reverting the newest uncovers the one beneath it, which now serves alone.
        registry.revert(applied[1_999])
        #expect(seam(1) == 1_998)
        #expect(Self.served(seam) == [applied[1_998].layers[0]])
        registry.revertAll()
        #expect(seam(1) == 2)
    }

    @Test func aMergingSeamsBoxStillServesEveryLayer() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Self.seam("scale.merge", stacking: .merge)
        try registry.register(seam)
        let first = try registry.apply(seam, .match([.when(1, .constant(10))]))
        let second = try registry.apply(seam, .match([.when(2, .constant(20))]))
        #expect(seam(1) == 10)
        #expect(seam(2) == 20)
        #expect(Self.served(seam) == Set(first.layers + second.layers))
        registry.revertAll()
    }

    @Test func aSnapshotListsSeamsInRegistrationOrderWhateverCameAndWent() throws {
        let registry = Registry(sessionSeed: 1)
        let seams = (0..<40).map { Self.seam("scale.order\($0)") }
        for seam in seams { try registry.register(seam) }
        for seam in seams.prefix(30) where seam.info.id.rawValue.hasSuffix("3") { registry.unregister(seam.info.id) }
        try registry.register(seams[3])
        let ids = registry.snapshot().seams.map(\.id)
        #expect(ids == registry.seams.map(\.id))
        #expect(ids.last == seams[3].info.id)
        // Many seams gone and back: more indices than twice the seams left, ordered by sorting instead.
        for _ in 0..<3 {
            for seam in seams.dropFirst(2) { registry.unregister(seam.info.id) }
            for seam in seams.dropFirst(2).reversed() { try registry.register(seam) }
        }
        #expect(registry.snapshot().seams.map(\.id) == registry.seams.map(\.id))
        #expect(registry.snapshot().seams.map(\.id).last == seams[2].info.id)
    }

    @Test func seamsOfOneTypeShareTheirGenericActions() {
        let one = Self.seam("scale.share1")
        let two = Self.seam("scale.share2")
        #expect(!one.actionSignatures.isEmpty)
        #expect(one.actionSignatures == two.actionSignatures)
        let first = one.actionSignatures.withUnsafeBufferPointer { $0.baseAddress }
        let second = two.actionSignatures.withUnsafeBufferPointer { $0.baseAddress }
        #expect(first == second)
    }
}
