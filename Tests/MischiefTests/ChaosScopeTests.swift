import Synchronization
import Testing

@testable import Mischief

@Suite("Chaos scopes: changes one task tree sees")
struct ChaosScopeTests {
    @Test("a scope's change is seen inside run and not outside")
    func seenOnlyInside() throws {
        let fixture = try Fixture()
        let scope = ChaosScope("test", registry: fixture.registry)
        try scope.apply(fixture.double, .constant(7))
        #expect(scope.run { fixture.double(1) } == 7)
        #expect(fixture.double(1) == 2)
    }

    @Test("while a scope is active every seam, even one made inside it, takes the scoped path")
    func scopedBitFollowsActivation() throws {
        let fixture = try Fixture()
        let scope = ChaosScope("test", registry: fixture.registry)
        // Other suites run scopes in parallel, so the bit may be set by them; inside `run` it must be.
        scope.run {
            #expect(fixture.double.core.word.load(ordering: .relaxed) & SeamCore.scopedBit != 0)
            let made = Seam<Int, Int, Never>("made.inside", title: "", category: "", summary: "") { $0 }
            #expect(made.core.word.load(ordering: .relaxed) & SeamCore.scopedBit != 0)
        }
    }

    @Test("the scope's changes come before the registry's, and a call they pass through reaches the registry")
    func scopeOverRegistry() throws {
        let fixture = try Fixture()
        try fixture.registry.apply(fixture.double, .constant(100))
        let scope = ChaosScope("test", registry: fixture.registry)
        try scope.apply(fixture.double, .first(1, .constant(1)))
        let results = scope.run { [fixture.double(5), fixture.double(5)] }
        #expect(results == [1, 100])
        #expect(scope.calls.map(\.servedBy) == [.scope("1*return(1)"), .registry])
        #expect(fixture.double(5) == 100)
    }

    @Test("every call is recorded with its input, outcome, server and order, across seams")
    func recordsEveryCall() throws {
        let fixture = try Fixture()
        let scope = ChaosScope("test", registry: fixture.registry)
        try scope.apply(spec: #"throw("nope")"#, to: "test.parse")
        scope.run {
            _ = fixture.double(1)
            _ = try? fixture.parse("2")
            _ = fixture.double(3)
        }
        let all = scope.calls
        #expect(all.map(\.index) == [0, 1, 2])
        #expect(all.map(\.seam) == ["test.double", "test.parse", "test.double"])
        let doubles = scope.calls(of: fixture.double)
        #expect(doubles.map(\.input) == [1, 3])
        #expect(doubles.map(\.output) == [2, 6])
        #expect(doubles.allSatisfy { $0.servedBy == .original })
        let parses = scope.calls(of: fixture.parse)
        #expect(parses.count == 1)
        #expect(parses[0].error.map { "\($0)" } == "nope")
        #expect(parses[0].servedBy == .scope(#"throw("nope")"#))
        #expect(all[1].description.contains("test.parse"))
    }

    @Test("peeks see the scope's changes and are not recorded")
    func peeksAreNotRecorded() throws {
        let fixture = try Fixture()
        let scope = ChaosScope("test", registry: fixture.registry)
        try scope.apply(fixture.double, .constant(9))
        #expect(scope.run { fixture.double.peek(1) } == 9)
        #expect(scope.calls.isEmpty)
    }

    @Test("async seams: the scope reaches child tasks and Task {}, not Task.detached")
    func asyncInheritance() async throws {
        let fixture = try Fixture()
        let scope = ChaosScope("test", registry: fixture.registry)
        try scope.apply(fixture.fetch, .constant("scoped"))
        let (child, unstructured, detached) = try await scope.run {
            async let child = fixture.fetch(1)
            let unstructured = Task { try await fixture.fetch(2) }
            let detached = Task.detached { try await fixture.fetch(3) }
            return (try await child, try await unstructured.value, try await detached.value)
        }
        #expect(child == "scoped")
        #expect(unstructured == "scoped")
        #expect(detached == "item 3")
        #expect(Set(scope.calls(of: fixture.fetch).map(\.input)) == [1, 2])
    }

    @Test("inner scopes come before outer ones, and their calls are recorded in both")
    func nesting() throws {
        let fixture = try Fixture()
        let outer = ChaosScope("outer", registry: fixture.registry)
        try outer.apply(fixture.double, .constant(1))
        try outer.apply(fixture.parse, .constant(10))
        let (double, parse, inner) = outer.run {
            let inner = ChaosScope("inner", registry: fixture.registry)
            try! inner.apply(fixture.double, .constant(2))
            return inner.run { (fixture.double(0), try! fixture.parse("x"), inner) }
        }
        #expect(double == 2)
        #expect(parse == 10)
        #expect(inner.calls.count == 2)
        #expect(outer.calls.count == 2)
    }

    @Test("a thrown error leaves nothing applied: the scope's changes were never global")
    func revertAfterThrow() throws {
        let fixture = try Fixture()
        let scope = ChaosScope("test", registry: fixture.registry)
        try scope.apply(fixture.double, .constant(0))
        #expect(throws: Boom.self) {
            try scope.run { () throws(Boom) in
                #expect(fixture.double(4) == 0)
                throw Boom()
            }
        }
        #expect(fixture.double(4) == 8)
        #expect(fixture.registry.snapshot().seams.allSatisfy { $0.layers.isEmpty })
    }

    @Test("a change that does not fit is refused with the seam's id; none of a batch is applied")
    func refusals() throws {
        let fixture = try Fixture()
        let scope = ChaosScope("test", registry: fixture.registry)
        #expect(throws: MischiefError.self) { try scope.apply(spec: "return(", to: "test.double") }
        #expect(throws: MischiefError.unknownSeam("test.nothing")) { try scope.apply(spec: "off", to: "test.nothing") }
        let good = try fixture.registry.change(spec: "return(5)", for: "test.double")
        #expect(throws: MischiefError.self) {
            try scope.apply([good, try fixture.registry.change(spec: "return(x)", for: "test.double")])
        }
        #expect(scope.behaviourText(of: fixture.double) == nil)
    }

    @Test("revert drops a seam's scoped changes; profiles apply as a unit with their seed")
    func revertAndProfiles() throws {
        let fixture = try Fixture()
        let scope = ChaosScope("test", registry: fixture.registry)
        try scope.apply(
            profile: Profile(
                name: "P",
                entries: [.init(seam: "test.double", spec: "return(3)"), .init(seam: "test.parse", spec: "return(4)")]))
        #expect(scope.run { (fixture.double(1), try! fixture.parse("z")) } == (3, 4))
        scope.revert(fixture.double)
        #expect(scope.run { fixture.double(1) } == 2)
        #expect(scope.behaviourText(of: fixture.parse) == "return(4)")
    }

    @Test("two tasks change the same seam differently at once, 100 times, and never see each other's change")
    func parallelScopesDoNotInterfere() async throws {
        let fixture = try Fixture()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<100 {
                for value in [round * 2, round * 2 + 1] {
                    group.addTask {
                        let scope = ChaosScope("t\(value)", registry: fixture.registry)
                        try scope.apply(fixture.double, .constant(value))
                        try scope.apply(fixture.fetch, .constant("v\(value)"))
                        try await scope.run {
                            for _ in 0..<20 {
                                #expect(fixture.double(0) == value)
                                let fetched = try await fixture.fetch(0)
                                #expect(fetched == "v\(value)")
                                await Task.yield()
                            }
                        }
                        #expect(scope.calls.count == 40)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(fixture.double(1) == 2)
    }

    @Test("counting stays right: a scoped call counts as a call while the console observes")
    func counting() throws {
        let fixture = try Fixture()
        let observation = fixture.registry.observe()
        defer { withExtendedLifetime(observation) {} }
        let scope = ChaosScope("test", registry: fixture.registry)
        try scope.apply(fixture.double, .constant(0))
        scope.run { for _ in 0..<3 { _ = fixture.double(1) } }
        _ = fixture.double(1)
        let counters = try #require(fixture.registry.snapshot().seams.first { $0.id == "test.double" }).counters
        #expect(counters.calls == 4)
    }
}
