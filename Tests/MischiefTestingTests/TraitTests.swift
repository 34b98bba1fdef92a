import Mischief
import MischiefTestSupport
import MischiefTesting
import Testing

@Suite("Traits: chaos for one test, in parallel")
struct TraitTests {
    @Test(.mischief("testing.double", "return(5)", registry: Seams.registry))
    func specTrait() {
        #expect(Seams.double(1) == 5)
    }

    @Test(.mischief(Seams.double, .constant(6)))
    func typedTrait() {
        #expect(Seams.double(1) == 6)
    }

    @Test(.mischief(profileNamed: "Doubled", registry: Seams.registry))
    func profileTrait() async throws {
        #expect(Seams.double(1) == 100)
        #expect(try await Seams.fetch("x") == "profiled")
    }

    @Test("two tests change the same seam differently, at once, 100 times each", arguments: 0..<100)
    func sameSeamInParallel(round: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for value in [round * 2, round * 2 + 1] {
                group.addTask {
                    await withMischiefScope([.change(Seams.double, .constant(value))], registry: Seams.registry) {
                        for _ in 0..<10 {
                            #expect(Seams.double(0) == value)
                            await Task.yield()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("outside any scope the seam is its original, whatever tests run beside it")
    func outsideIsOriginal() {
        #expect(Seams.double(21) == 42)
    }

    @Test("a thrown error ends the scope: nothing stays applied")
    func revertAfterThrow() {
        struct Oops: Error {}
        #expect(throws: Oops.self) {
            try withMischiefScope([.change(Seams.double, .constant(0))]) {
                #expect(Seams.double(3) == 0)
                throw Oops()
            }
        }
        #expect(Seams.double(3) == 6)
    }

    @Test("a change that cannot be applied fails at the call, naming the seam and the spec")
    func badChangeFails() {
        withKnownIssue {
            withMischiefScope([.spec("testing.double", "return(")], registry: Seams.registry) {
                #expect(Seams.double(1) == 2)
            }
        } matching: { issue in
            text(of: issue).contains("testing.double: return(")
        }
    }

    @Test("a cancelled test's scope ends with it")
    func cancellation() async throws {
        let task = Task {
            try await withMischiefScope([.change(Seams.fetch, .constant("held"))]) {
                try await Task.sleep(for: .seconds(3600))
            }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await Seams.fetch("a") == "body of a")
    }
}

@Suite(.mischief(.spec("testing.fetch", #"return("suite")"#), registry: Seams.registry))
struct SuiteTraitTests {
    @Test func suiteChangeReachesTests() async throws {
        #expect(try await Seams.fetch("x") == "suite")
    }

    @Test(.mischief(.spec("testing.fetch", #"return("test")"#), registry: Seams.registry))
    func testChangeComesFirst() async throws {
        #expect(try await Seams.fetch("x") == "test")
    }
}

@Suite("pause in a test's scope")
struct ScopedPauseTests {
    /// The race made deterministic: the second fetch is held until the first has answered, in this test only.
    @Test(.mischief(Seams.fetch, .match([.when("second", .pause(max: .seconds(3_600)))])))
    func holdTheSecondUntilTheFirstIsDone() async throws {
        let scope = try #require(ChaosScope.current)
        let order = Locked<[String]>([])
        async let second: Void = {
            _ = try await Seams.fetch("second")
            order.withLock { $0.append("second") }
        }()
        try await scope.held(Seams.fetch)
        _ = try await Seams.fetch("first")
        order.withLock { $0.append("first") }
        #expect(scope.release(Seams.fetch) == 1)
        try await second
        #expect(order.withLock { $0 } == ["first", "second"])
    }

    @Test("a call a Task {} left held goes on when the test's scope ends")
    func anEscapedHoldIsReleasedAtTheEnd() async throws {
        let escaped = try await withMischiefScope([.spec("testing.fetch", "pause(1h)")], registry: Seams.registry) {
            let task = Task { try await Seams.fetch("late") }
            try await ChaosScope.current!.held(Seams.fetch)
            return task
        }
        #expect(try await escaped.value == "body of late")
    }
}

@Suite("typed forms")
struct TypedFormTests {
    /// A seam registered nowhere: the spec binds to the seam object itself.
    static let unregistered = Seam<Int, Int, Never>("testing.unregistered", title: "U", category: "Test", summary: "") {
        $0 + 1
    }

    @Test(.mischief(.spec(TypedFormTests.unregistered, "return(40)")))
    func aSpecOnTheSeamItself() {
        #expect(Self.unregistered(1) == 40)
    }

    @Test(.mischief(Seams.double, .constant(3), registry: Seams.registry))
    func aTypedTraitTakesARegistry() throws {
        #expect(Seams.double(1) == 3)
        #expect(try #require(ChaosScope.current).registry === Seams.registry)
    }

    @Test func aBadSpecOnTheSeamItselfNamesItAndTheColumn() {
        #expect(throws: MischiefError.self) {
            try ChaosScope().apply(Change(spec: "return(", for: Self.unregistered))
        }
        do {
            _ = try Change(spec: "retrun(1)", for: Self.unregistered)
            Issue.record("a misspelt action is refused")
        } catch {
            #expect(error.description.contains("testing.unregistered") && error.description.contains("return"))
        }
    }
}
