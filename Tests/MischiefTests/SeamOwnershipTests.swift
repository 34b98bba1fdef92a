import Synchronization
import Testing

@testable import Mischief

/// A seam outlives the registry that changed it: it falls back to its original and nothing is read after free.
@Suite struct SeamOwnershipTests {
    private func makeSeam() -> Seam<Int, Int, Never> {
        Seam<Int, Int, Never>("test.outlives", title: "Outlives", category: "Test", summary: "x * 2") { $0 * 2 }
    }

    /// Regression: the registry owned the installed behaviour, so once it was gone the seam called freed memory
    /// (valgrind: "Invalid read" in `Seam.chaosCall`) and still returned the old constant.
    @Test func aSeamWhoseRegistryIsGoneCallsItsOriginal() throws {
        let seam = makeSeam()
        weak var gone: Registry?
        do {
            let registry = Registry(sessionSeed: 1)
            gone = registry
            try registry.register(seam)
            try registry.apply(seam, .constant(7))
            #expect(seam(1) == 7)
        }
        #expect(gone == nil)
        #expect(seam(1) == 2)
        #expect(seam.core.word.load(ordering: .relaxed) & SeamCore.addressMask == 0)
    }

    /// A call inside the behaviour when the registry goes away finishes with it; the behaviour is freed after.
    @Test func aCallInFlightWhenTheRegistryGoesAwayFinishesSafely() throws {
        let seam = makeSeam()
        let parked = ParkedCall()
        weak var witness: Witness?
        do {
            let registry = Registry(sessionSeed: 1)
            try registry.register(seam)
            let strong = Witness()
            witness = strong
            try registry.apply(
                seam,
                .closure { _ in
                    _ = strong
                    return parked.park(returning: 9)
                })
            parked.start(seam)
        }
        #expect(seam(3) == 6)
        #expect(witness != nil)  // still in use by the parked call
        #expect(parked.finish() == 9)
        // Another registry taking the seam frees what the first one left behind.
        let next = Registry(sessionSeed: 2)
        try next.register(seam)
        let applied = try next.apply(seam, .constant(5))
        #expect(witness == nil)
        #expect(seam(3) == 5)
        next.revert(applied)
        #expect(seam(3) == 6)
    }
}
