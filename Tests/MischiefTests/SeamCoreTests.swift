import Synchronization
import Testing

@testable import Mischief

@Suite struct SeamCoreTests {
    @Test func anUnobservedSeamWithNothingAppliedIsBackOnTheFastPath() throws {
        let f = try Fixture()
        // Scopes in tests running in parallel may set the scoped bit; the rest of the word is this seam's.
        #expect(f.double.core.word.load(ordering: .relaxed) & ~SeamCore.scopedBit == 0)
        let observation = f.registry.observe()
        let applied = try f.registry.apply(f.double, .constant(1))
        #expect(f.double.core.word.load(ordering: .relaxed) & ~SeamCore.scopedBit != 0)
        f.registry.revert(applied)
        observation.cancel()
        #expect(f.double.core.word.load(ordering: .relaxed) & ~SeamCore.scopedBit == 0)
    }

    @Test func aReplacedBoxIsFreedOnceItsPhaseHasDrained() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .constant(1))
        weak var box: AnyObject?
        do {
            box = f.double.core.installedBox
        }
        #expect(box != nil)
        _ = f.double(1)
        f.registry.revertAll()
        #expect(box == nil)  // no call in flight: freed by the revert itself
    }
}
