import Testing

@testable import Mischief

/// A spec applied from a source that already has a layer on the seam replaces it; registration is linear.
@Suite struct RegistryReplaceTests {
    @Test func aSpecFromTheSameSourceReplacesItsLayer() throws {
        let f = try Fixture()
        let first = try f.registry.apply(spec: "return(1)", to: "test.double", source: "console")
        let second = try f.registry.apply(spec: "return(2)", to: "test.double", source: "console")
        #expect(f.double(0) == 2)
        let seam = try #require(f.registry.snapshot().seam("test.double"))
        #expect(seam.layers.map(\.id) == second.entries)
        let old = f.registry.snapshot().entries.first { $0.id == first.entries[0] }
        #expect(old?.status == .reverted)
        f.registry.revert(second)
        #expect(f.double(3) == 6, "nothing beneath: the replaced layer does not come back")
    }

    @Test func otherSourcesStayBeneath() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "return(1)", to: "test.double", source: "profile P")
        try f.registry.apply(spec: "return(2)", to: "test.double", source: "console")
        try f.registry.apply(spec: "return(3)", to: "test.double", source: "console")
        #expect(f.registry.snapshot().seam("test.double")?.layers.map(\.source) == ["profile P", "console"])
        f.registry.revert(seam: "test.double")
        #expect(f.double(1) == 2)
    }

    @Test func aMergingSeamCombinesDifferentRulesFromOneSourceAndKeepsOneOfEach() throws {
        let f = try Fixture()
        try f.registry.apply(spec: #"return("a")"#, to: "test.rules")
        try f.registry.apply(spec: #"return("b")"#, to: "test.rules")
        #expect(f.registry.snapshot().seam("test.rules")?.spec == #"return("b") -> return("a")"#, "rules combine")
        for _ in 0..<3 { try f.registry.apply(spec: #"return("a")"#, to: "test.rules") }
        #expect(f.registry.snapshot().seam("test.rules")?.spec == #"return("a") -> return("b")"#, "not doubled")
    }

    @Test func changesBuiltInCodeStillStack() throws {
        let f = try Fixture()
        try f.registry.apply(f.double, .constant(1))
        let top = try f.registry.apply(f.double, .constant(2))
        f.registry.revert(top)
        #expect(f.double(0) == 1)
    }

    @Test func oneGroupMayStackOnOneSeam() throws {
        let f = try Fixture()
        let a = try f.registry.change(spec: #"return("a")"#, for: "test.rules")
        let b = try f.registry.change(spec: #"return("b")"#, for: "test.rules")
        try f.registry.apply([a, b], source: "console")
        #expect(f.registry.snapshot().seam("test.rules")?.layers.count == 2)
    }

    @Test func tenThousandAppliesKeepOneLayerAndABoundedHistory() throws {
        let f = try Fixture()
        for index in 0..<10_000 { try f.registry.apply(spec: "return(\(index))", to: "test.double", source: "api") }
        #expect(f.double(0) == 9_999)
        let snapshot = f.registry.snapshot()
        #expect(snapshot.seam("test.double")?.layers.count == 1)
        #expect(snapshot.entries.count == 201)
        let state = f.registry.state.withLock { ($0.history.count, $0.generations.touched.count, $0.records.count) }
        #expect(state.0 == 201)
        #expect(state.1 <= 2 * state.2 + 64, "the change log is compacted")
    }

    @Test func aBatchRegistersAllOrNoneAndEveryIdOnce() throws {
        let registry = Registry(sessionSeed: 1)
        let seams = (0..<5_000).map { index in
            Seam<Int, Int, Never>(SeamID(stringLiteral: "bulk.s\(index)"), title: "S", category: "T", summary: "x") {
                $0
            }
        }
        let clash = Seam<Int, Int, Never>("bulk.s4999", title: "S", category: "T", summary: "x") { $0 }
        #expect(throws: MischiefError.duplicateSeam("bulk.s4999")) { try registry.register(seams + [clash]) }
        #expect(registry.seams.isEmpty)
        try registry.register(seams + [seams[0]])
        #expect(registry.seams.map(\.id) == seams.map(\.info.id))
        #expect(registry.events().filter { $0.kind == .registered }.count == 1000, "the event history keeps 1,000")
        #expect(registry.delta(since: 0).seams.count == 5_000)
    }
}
