import Testing

@testable import Mischief

/// A replaced behaviour is freed once its own calls have returned, however busy the behaviour after it is.
@Suite struct SeamCorePhaseTests {
    private func status(_ applied: Applied, in registry: Registry) -> RevertStatus? {
        registry.snapshot().layers.first { $0.id == applied.layers[0] }?.status
    }

    /// Regression: revert then re-apply put the new behaviour in the old one's phase, so the old one waited for
    /// the new one's calls and stayed "reverting" for as long as the new one was busy.
    @Test func aRevertedBehaviourIsFreedWhileTheNextOneIsBusy() throws {
        let f = try Fixture()
        let old = ParkedCall()
        let next = ParkedCall()
        weak var witness: Witness?
        let first: Applied
        do {
            let strong = Witness()
            witness = strong
            first = try f.registry.apply(
                f.double,
                .closure { _ in
                    _ = strong
                    return old.park(returning: 100)
                })
        }
        old.start(f.double)
        f.registry.revert(first)
        #expect(status(first, in: f.registry) == .reverting)
        try f.registry.apply(f.double, next.behaviour(returning: 200))
        next.start(f.double)  // the new behaviour is busy from now on
        #expect(old.finish() == 100)
        f.registry.finishReverting()
        #expect(status(first, in: f.registry) == .reverted)
        #expect(witness == nil)
        #expect(next.finish() == 200)
    }

    /// Three behaviours in quick succession: two phases are not enough for each to have its own, so the busy
    /// current behaviour moves out of the older one's phase as soon as the other phase is free.
    @Test func threeGenerationsAreAllFreedUnderSteadyLoad() throws {
        let f = try Fixture()
        let (a, b, c, d) = (ParkedCall(), ParkedCall(), ParkedCall(), ParkedCall())
        let first = try f.registry.apply(f.double, a.behaviour(returning: 1))
        a.start(f.double)
        f.registry.revert(first)
        let second = try f.registry.apply(f.double, b.behaviour(returning: 2))
        b.start(f.double)
        f.registry.revert(second)
        let third = try f.registry.apply(
            f.double,
            .closure { call in
                // Parks the first call in c and the next in d.
                call.index == 0 ? c.park(returning: 3) : d.park(returning: 4)
            })
        c.start(f.double)
        #expect(a.finish() == 1 && b.finish() == 2)
        f.registry.finishReverting()
        #expect(status(second, in: f.registry) == .reverted)
        d.start(f.double)  // the current behaviour stays busy: d is inside it before c leaves
        #expect(c.finish() == 3)
        f.registry.finishReverting()
        #expect(status(first, in: f.registry) == .reverted)
        #expect(status(third, in: f.registry) == .active)
        #expect(d.finish() == 4)
    }
}
