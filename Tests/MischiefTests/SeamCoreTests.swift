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

    /// The word a call tests first is the seam's copy (`AnySeam.word`): after every change it equals the core's.
    @Test func theSeamsCopyOfItsWordFollowsTheCore() throws {
        let f = try Fixture()
        // Both read under the core's lock, under which every store of either is made.
        func words() -> (core: UInt, copy: UInt) {
            f.double.core.ownership.withLock { _ in
                (f.double.core.word.load(ordering: .relaxed), f.double.word.load(ordering: .relaxed))
            }
        }
        #expect(words().core == words().copy)
        let observation = f.registry.observe()
        #expect(words().copy & SeamCore.countingBit != 0)
        #expect(words().core == words().copy)
        let applied = try f.registry.apply(f.double, .constant(1))
        #expect(words().copy & SeamCore.addressMask != 0)
        #expect(words().core == words().copy)
        f.registry.revert(applied)
        observation.cancel()
        #expect(words().core == words().copy)
        #expect(words().copy & ~SeamCore.scopedBit == 0)
    }

    /// A seam made while a scope is active starts with the scoped bit in its copy too (the core set it in its own
    /// init, before the seam asked for copies), so its calls look for the task's scope.
    @Test func aSeamMadeWhileAScopeIsActiveCopiesTheScopedBit() {
        ScopeActivation.begin()
        defer { ScopeActivation.end() }
        let seam = Seam<Int, Int, Never>("test.copy.scoped", title: "S", category: "Test", summary: "x") { $0 }
        #expect(seam.word.load(ordering: .relaxed) & SeamCore.scopedBit != 0)
    }

    /// A core can outlive its seam (a registry's list of touched cores, a numbering): changing its word then stores
    /// no copy into a seam that has gone.
    @Test func aCoreThatOutlivesItsSeamStopsCopying() {
        var seam: Seam<Int, Int, Never>? = Seam("test.copy.gone", title: "G", category: "Test", summary: "x") { $0 }
        let core = seam!.core
        weak var gone = seam
        seam = nil
        #expect(gone == nil)
        core.setCounting(true)
        #expect(core.word.load(ordering: .relaxed) & SeamCore.countingBit != 0)
        core.setCounting(false)
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
