import Mischief
import Testing

@Suite struct AsyncSeamTests {
    @Test func asyncSeamRunsBehaviours() async throws {
        let f = try Fixture()
        #expect(try await f.fetch(1) == "item 1")
        try f.registry.apply(f.fetch, .sequence([.constant("cached"), .throwing(message: "offline")]))
        #expect(try await f.fetch(1) == "cached")
        await #expect(throws: InjectedError("offline")) { try await f.fetch(1) }
    }

    @Test func asyncClosureCanAwaitTheOriginal() async throws {
        let f = try Fixture()
        try f.registry.apply(f.fetch, .asyncClosure { call in try await call.original(call.input + 1) + "!" })
        #expect(try await f.fetch(1) == "item 2!")
    }

    @Test func closureKindsMustMatchTheSeam() throws {
        let f = try Fixture()
        #expect(
            throws: MischiefError.unsupported(
                "test.fetch", "a synchronous closure cannot call an async original; use .asyncClosure")
        ) {
            try f.registry.apply(f.fetch, .closure { _ in "x" })
        }
        #expect(
            throws: MischiefError.unsupported(
                "test.double", "an async closure needs an AsyncSeam; use .closure on a synchronous seam")
        ) {
            try f.registry.apply(f.double, .asyncClosure { _ in 1 })
        }
    }

    @Test func delaySuspendsAndEndsEarlyWhenCancelled() async throws {
        let f = try Fixture()
        try f.registry.apply(f.fetch, .constant("late").delayed(by: .seconds(3600)))
        let task = Task { try await f.fetch(1) }
        // Wait until the call is inside the delay, then cancel it: it must come back at once, not in an hour.
        await DelayEndTests.waitForCallInFlight(f.registry, "test.fetch")
        task.cancel()
        #expect(try await task.value == "late")
        #expect(f.registry.counters("test.fetch")?.inFlight == 0)
    }
}
