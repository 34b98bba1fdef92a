import Mischief
import Testing

/// A snapshot keeps what a behaviour is (its description for people) apart from the spec it was made from, which
/// is the only text that can be applied again.
@Suite struct SnapshotSpecTests {
    @Test func aBehaviourFromCodeHasADescriptionAndNoSpec() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .closure { $0.input + 1 })
        let seam = try #require(f.registry.snapshot().seam("test.double"))
        #expect(seam.behaviourText == "closure")
        #expect(seam.spec == nil)
        #expect(seam.layers.map(\.behaviourText) == ["closure"])
        #expect(seam.layers.map(\.spec) == [nil])
    }

    @Test func aBehaviourFromASpecKeepsItsCanonicalForm() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "50% return( 3 )", to: "test.double")
        let seam = try #require(f.registry.snapshot().seam("test.double"))
        #expect(seam.spec == "50%return(3)")
        #expect(seam.layers.map(\.spec) == ["50%return(3)"])
        f.registry.revertAll()
        let layer = try #require(f.registry.snapshot().layers.first)
        #expect(layer.status != .active && layer.spec == "50%return(3)", "kept through the revert")
    }

    @Test func aMergingSeamHasASpecOnlyWhenEveryLayerHasOne() throws {
        let f = try Fixture()
        try f.registry.apply(spec: #"return("a")"#, to: "test.rules", source: "first")
        try f.registry.apply(spec: #"return("b")"#, to: "test.rules", source: "second")
        #expect(f.registry.snapshot().seam("test.rules")?.spec == #"return("b") -> return("a")"#)
        try f.registry.apply(f.rules, .closure { _ in "c" })
        #expect(f.registry.snapshot().seam("test.rules")?.spec == nil)
        #expect(f.registry.snapshot().seam("test.rules")?.behaviourText?.hasPrefix("closure -> ") == true)
    }
}
