import Foundation
import Mischief
import Testing

/// The scope table (issue 49): a test process that publishes its tests' scopes lists each one with its state, counts
/// and layers, and a change sent to one scope (by number, name or pattern) is seen by that test's task alone.
@Suite struct ScopeTableTests {
    let registry = Registry(sessionSeed: 7)
    let number = Seam<Void, Int, Never>("t.number", title: "Number", category: "Test", summary: "a number") { 0 }
    let fetch = Seam<Int, Int, any Error>("t.fetch", title: "Fetch", category: "Test", summary: "a fetch") { $0 }

    init() throws { try registry.register(number, fetch) }

    @Test func nothingIsPublishedUntilTheRegistryPublishesScopes() {
        let scope = ChaosScope("quiet()", registry: registry)
        #expect(registry.publish(scope) == nil)
        #expect(registry.scopes.isEmpty)
        #expect(registry.delta(since: 0).scopes == nil)
    }

    @Test func aChangeSentToOneScopeIsSeenByThatTestsTaskAlone() async throws {
        registry.publishScopes()
        let apples = ChaosScope("countsApples()", registry: registry)
        let pears = ChaosScope("countsPears()", registry: registry)
        let appleID = try #require(registry.publish(apples))
        _ = try #require(registry.publish(pears))
        let changed = try registry.apply(
            spec: "return(7)", to: "t.number", inScopesMatching: "*Apples*", source: "console")
        #expect(changed.map(\.id) == [appleID])
        // Both tasks call at once; only the apples' sees the change, and the registry is untouched.
        async let apple = apples.run { number() }
        async let pear = pears.run { number() }
        #expect(await apple == 7)
        #expect(await pear == 0)
        #expect(number() == 0)
        #expect(registry.snapshot().seams.first { $0.id == "t.number" }?.behaviourText == nil)
        let rows = registry.scopes
        #expect(rows.map(\.name) == ["countsApples()", "countsPears()"])
        #expect(rows[0].layers.map(\.spec) == ["return(7)"])
        #expect(rows[0].layers.first?.source == "console")
        #expect(rows[0].seams == [ScopeSeamCounts(seam: "t.number", calls: 1, chaosCalls: 1)])
        #expect(rows[1].seams == [ScopeSeamCounts(seam: "t.number", calls: 1)])
        #expect(rows[1].layers.isEmpty)
        #expect(registry.events().contains { $0.message == "applied return(7) in test countsApples()" })
    }

    @Test func scopesAreNamedByNumberNameOrPatternAndOnlyRunningOnes() throws {
        registry.publishScopes()
        let one = ChaosScope("a()", registry: registry)
        let two = ChaosScope("ab()", registry: registry)
        let first = try #require(registry.publish(one))
        let second = try #require(registry.publish(two))
        #expect(registry.runningScopes(matching: "#\(second)").map(\.name) == ["ab()"])
        #expect(registry.runningScopes(matching: "\(first)").map(\.name) == ["a()"])
        #expect(registry.runningScopes(matching: "a()").map(\.name) == ["a()"])
        #expect(registry.runningScopes(matching: "a*").map(\.name) == ["a()", "ab()"])
        #expect(registry.runningScopes(matching: "a?()").map(\.name) == ["ab()"])
        #expect(registry.runningScopes(matching: "b*").isEmpty)
        registry.endScope(first, passed: true)
        #expect(registry.runningScopes(matching: "a*").map(\.name) == ["ab()"])
        #expect(throws: MischiefError.self) {
            try registry.apply(spec: "return(1)", to: "t.number", inScopesMatching: "zz*", source: "cli")
        }
    }

    @Test func aBadSpecChangesNoScope() throws {
        registry.publishScopes()
        let one = ChaosScope("a()", registry: registry)
        _ = try #require(registry.publish(one))
        #expect(throws: MischiefError.self) {
            try registry.apply(spec: "return(", to: "t.number", inScopesMatching: "*", source: "cli")
        }
        #expect(registry.scopes[0].layers.isEmpty)
    }

    @Test func revertingASourceTakesOnlyItsLayersAndTheHistoryKeepsThem() throws {
        registry.publishScopes()
        let scope = ChaosScope("a()", registry: registry)
        try scope.apply(spec: "return(1)", to: "t.number")  // the test's own
        _ = try #require(registry.publish(scope))
        try registry.apply(spec: "return(2)", to: "t.number", inScopesMatching: "a()", source: "alice")
        try registry.apply(spec: #"throw("down")"#, to: "t.fetch", inScopesMatching: "a()", source: "bob")
        #expect(scope.run { number() } == 2)
        #expect(registry.revertInScopes(matching: nil, source: "alice") == 1)
        #expect(scope.run { number() } == 1)
        #expect(throws: (any Error).self) { try scope.run { try fetch(3) } }
        let row = registry.scopes[0]
        #expect(row.layers.map(\.spec) == ["return(1)", #"throw("down")"#])
        #expect(row.layers.map(\.source) == [nil, "bob"])
        #expect(row.outside.map(\.isActive) == [false, true])
        #expect(row.seams.first { $0.seam == "t.fetch" }?.errors == 1)
    }

    @Test func aScopeEndsPassedOrFailedAndAFailureStays() throws {
        registry.publishScopes()
        let one = try #require(registry.publish(ChaosScope("one()", registry: registry)))
        let two = try #require(registry.publish(ChaosScope("two()", registry: registry)))
        registry.scopeFailed(two)
        registry.endScope(one, passed: true)
        registry.endScope(two, passed: true)
        let rows = registry.scopes
        #expect(rows.map(\.status) == [.passed, .failed])
        #expect(rows.allSatisfy { $0.ended != nil })
        #expect(registry.events().contains { $0.message.hasPrefix("test two() failed after") })
    }

    @Test func aDeltaCarriesTheTableWhenItChangedOrItsCountsMoved() throws {
        registry.publishScopes()
        let scope = ChaosScope("a()", registry: registry)
        _ = try #require(registry.publish(scope))
        let first = registry.delta(since: 0)
        #expect(first.scopes?.count == 1)
        let quiet = registry.delta(since: first.generation)
        #expect(quiet.scopes == nil)
        _ = scope.run { number() }
        let moved = registry.delta(since: quiet.generation)
        #expect(moved.scopes?.first?.seams.first?.calls == 1)
        #expect(moved.generation > quiet.generation)
        #expect(registry.delta(since: moved.generation).scopes == nil)
    }

    @Test func aPauseInAScopeHoldsThatTestAloneUntilReleased() async throws {
        registry.publishScopes()
        let held = ChaosScope("held()", registry: registry)
        let free = ChaosScope("free()", registry: registry)
        _ = try #require(registry.publish(held))
        _ = try #require(registry.publish(free))
        try registry.apply(spec: "pause", to: "t.number", inScopesMatching: "held()", source: "console")
        // A sync seam's pause blocks its thread: the held call runs on a thread of its own, not the task pool.
        let number = number
        async let waiting: Int = withCheckedContinuation { done in
            Thread.detachNewThread { done.resume(returning: held.run { number() }) }
        }
        try await held.waitUntilHeld(number)
        #expect(registry.scopes[0].seams.first?.held == 1)
        #expect(free.run { number() } == 0)  // the other test runs on
        #expect(registry.releaseInScopes(matching: "held()") == 1)
        #expect(await waiting == 0)
    }

    @Test func aBreakpointInAScopeIsAnsweredAndThenLetsTheRestRun() async throws {
        registry.publishScopes()
        let held = ChaosScope("held()", registry: registry)
        _ = try #require(registry.publish(held))
        try registry.apply(spec: "pause", to: "t.number", inScopesMatching: "held()", source: "console")
        // A sync seam's pause blocks its thread: the held call runs on a thread of its own, not the task pool.
        let number = number
        async let answered: Int = withCheckedContinuation { done in
            Thread.detachNewThread { done.resume(returning: held.run { number() }) }
        }
        try await held.waitUntilHeld(number)
        #expect(throws: MischiefError.self) {
            try registry.releaseInScopes(
                matching: "held()", seam: "t.number", answer: "return(", holdNext: true, source: "console")
        }
        let count = try registry.releaseInScopes(
            matching: "held()", seam: "t.number", answer: "return(5)", holdNext: false, source: "console")
        #expect(count == 1)
        #expect(await answered == 5)
        #expect(registry.scopes[0].layers.isEmpty)  // the pause went with `holdNext: false`
        #expect(held.run { number() } == 0)
        #expect(registry.events().contains { $0.message == "released 1 held call answering return(5) in test held()" })
    }
}
