import Mischief
import Synchronization
import Testing

/// `AnySeam` is a public class that is not `open`, so the only seams there can be are `Seam` and `AsyncSeam`:
/// a conformance or subclass written outside Mischief does not compile (`cannot inherit from non-open class
/// 'AnySeam' outside of its module`), which a test cannot show. These tests cover the documented path instead:
/// seams of any types held as `[AnySeam]`, registered, changed and observed through it.
@Suite struct AnySeamTests {
    let sync = Seam<Int, Int, Never>("any.sync", title: "Sync", category: "Any", summary: "") { $0 + 1 }
    let async = AsyncSeam<String, String, any Error>("any.async", title: "Async", category: "Any", summary: "") {
        $0
    }

    @Test func seamsOfDifferentTypesRegisterAsOneArray() async throws {
        let registry = Registry(sessionSeed: 1)
        let seams: [AnySeam] = [sync, async]
        try registry.register(seams)
        #expect(registry.seams.map(\.id) == ["any.sync", "any.async"])
        #expect(seams.map(\.info.isAsync) == [false, true])
        #expect(seams.map(\.info.signature) == ["(Int) -> Int", "(String) async -> String"])
        try registry.apply(spec: "return(9)", to: "any.sync")
        try registry.apply(spec: "throw(\"down\")", to: "any.async")
        #expect(sync(1) == 9)
        await #expect(throws: InjectedError("down")) { try await async("x") }
    }

    @Test func actionSignaturesAreTheSeamsOwnThenTheGenericOnes() {
        let own = SeamAction<Int, Int, Never>.transform(ActionSignature("twice", summary: "Doubles")) { _, _ in
            { $0 * 2 }
        }
        let seam = Seam<Int, Int, Never>("any.own", title: "", category: "", summary: "", actions: [own]) { $0 }
        let erased: AnySeam = seam
        #expect(erased.actionSignatures.first?.name == "twice")
        #expect(erased.actionSignatures.map(\.name) == seam.actions.map(\.signature.name))
        #expect(erased.actionSignatures.contains { $0.name == "return" })
    }

    @Test func onChangeWorksThroughTheErasedType() throws {
        let registry = Registry(sessionSeed: 1)
        try registry.register(sync)
        let heard = Mutex(0)
        let erased: AnySeam = sync
        erased.onChange { heard.withLock { $0 += 1 } }
        let change = try registry.apply(sync, .constant(3))
        registry.revert(change)
        #expect(heard.withLock { $0 } == 2)
    }
}
