import Foundation
import Mischief
import MischiefTestSupport
import Testing

/// One test's scope as a recording (issue 49, "export that test's scope as a test"): a published scope numbers the
/// calls that come into it, each change from outside says after which call it came and went, and the recording made
/// from the scope's row replays in a new scope so the same calls get the same answers. A call a pause holds in a
/// scope is listed with its input, so a console shows the breakpoint on that test.
@Suite struct ScopeRecordingTests {
    let registry = Registry(sessionSeed: 7)
    let number = Seam<Int, Int, Never>("t.number", title: "Number", category: "Test", summary: "a number") { $0 }
    let name = AsyncSeam<String, String, any Error>("t.name", title: "Name", category: "Test", summary: "a name") {
        "name of \($0)"
    }

    init() throws {
        try registry.register(number, name)
        registry.publishScopes()
    }

    @Test func aChangeFromOutsideSaysAfterWhichCallOfTheScopeItCameAndWent() throws {
        let scope = ChaosScope("countsApples()", registry: registry)
        _ = try #require(registry.publish(scope))
        for value in 1...3 { _ = scope.run { number(value) } }
        _ = number(99)  // outside the scope: not its call
        try registry.apply(spec: "return(7)", to: "t.number", inScopesMatching: "countsApples()", source: "alice")
        for value in 4...5 { _ = scope.run { number(value) } }
        registry.revertInScopes(matching: "countsApples()", source: "alice")
        let row = try #require(registry.scopes.first)
        #expect(row.outside.map(\.call) == [3])
        #expect(row.outside.map(\.revertedCall) == [5])
        #expect(row.outside.map(\.isActive) == [false])
    }

    /// A test's end drops its scope's layers (`revertAll`): that is not a revert from outside, so the export makes
    /// no revert step for it (it said `revert layer 1 [mischief CLI]` after the test's last call).
    @Test func theScopesEndIsNoRevertFromOutside() throws {
        let scope = ChaosScope("countsApples()", registry: registry)
        let id = try #require(registry.publish(scope))
        _ = scope.run { number(1) }
        try registry.apply(spec: "return(7)", to: "t.number", inScopesMatching: "#\(id)", source: "alice")
        _ = scope.run { number(2) }
        scope.revertAll()
        registry.endScope(id, passed: false)
        let row = try #require(registry.scopes.first)
        #expect(row.outside.map(\.isActive) == [false])
        #expect(row.outside.map(\.revertedCall) == [nil])
        let recording = Recording(scope: row, target: "T", pid: 1, sessionSeed: 7, started: 1_800_000_000)
        #expect(recording.entries.map(\.kind) == [.applied])
    }

    @Test func anUnpublishedScopeNumbersNothing() throws {
        let scope = ChaosScope("quiet()", registry: registry)
        _ = scope.run { number(1) }
        let layer = try scope.apply(spec: "return(7)", to: "t.number", source: "alice")
        #expect(layer.call == nil)
    }

    @Test func theScopesRecordingReplaysTheSameAnswersForTheSameCalls() async throws {
        let scope = ChaosScope("countsApples()", registry: registry)
        let id = try #require(registry.publish(scope))
        var original: [Int] = []
        for value in 1...2 { original.append(scope.run { number(value) }) }
        try registry.apply(spec: "return(7)", to: "t.number", inScopesMatching: "#\(id)", source: "alice")
        try registry.apply(
            spec: #"throw("offline")"#, to: "t.name", inScopesMatching: "#\(id)", source: "cli", seed: 42)
        for value in 3...4 { original.append(scope.run { number(value) }) }
        registry.revertInScopes(matching: "#\(id)", seam: "t.number", source: "alice")
        for value in 5...6 { original.append(scope.run { number(value) }) }
        let failed = await scope.run { (try? await name("x")) == nil }
        #expect(original == [1, 2, 7, 7, 5, 6])
        #expect(failed)
        registry.endScope(id, passed: false)

        let row = try #require(registry.scopes.first)
        let recording = Recording(scope: row, target: "WarehouseTests", pid: 42, sessionSeed: 7, started: 1_800_000_000)
        #expect(recording.header.target == "WarehouseTests: test #\(id) countsApples()")
        #expect(recording.entries.map(\.kind) == [.applied, .applied, .reverted])
        #expect(recording.entries.map(\.event) == [1, 2, 3])
        #expect(recording.entries.map(\.call) == [0, 2, 4])
        #expect(recording.entries.map(\.seed) == [42, 7, nil], "every seed given, so any session seed draws the same")
        #expect(recording.entries.map(\.source) == ["cli", "alice", "alice"])
        // Through its text, as `mischief export` writes it and the exported test reads it.
        let read = try Recording(jsonLines: recording.jsonLines)
        let schedule = try ReplaySchedule(read)
        #expect(schedule.steps.map(\.afterCall) == [nil, 2, 4])

        // A new scope replaying it, running the same code, gets the same answers.
        let replay = ScopedReplay(schedule, name: "again", registry: registry)
        var again: [Int] = []
        for value in 1...6 { again.append(replay.scope.run { number(value) }) }
        let failedAgain = await replay.scope.run { (try? await name("x")) == nil }
        #expect(again == original)
        #expect(failedAgain)
        #expect(replay.finish().divergence == nil)
    }

    @Test func aCallHeldInAScopeIsListedWithItsInput() async throws {
        let held = ChaosScope("countsPears()", registry: registry)
        _ = try #require(registry.publish(held))
        try registry.apply(spec: "pause", to: "t.number", inScopesMatching: "countsPears()", source: "console")
        // A sync seam's pause blocks its thread: the held call runs on a thread of its own, not the task pool.
        let number = number
        async let waiting: Int = withCheckedContinuation { done in
            Thread.detachNewThread { done.resume(returning: held.run { number(41) }) }
        }
        try await held.held(number)
        let counts = try #require(registry.scopes.first?.seams.first)
        #expect(counts.held == 1)
        #expect(counts.heldCalls == [HeldCall(input: "41")])
        // The delta a console follows carries it, through JSON as an attached console reads it.
        let delta = registry.delta(since: 0)
        let data = try JSONEncoder().encode(delta.scopes)
        let decoded = try JSONDecoder().decode([ScopeSnapshot].self, from: data)
        #expect(decoded.first?.seams.first?.heldCalls == [HeldCall(input: "41")])
        #expect(registry.releaseInScopes(matching: "countsPears()") == 1)
        #expect(await waiting == 41)
        #expect(registry.scopes.first?.seams.first?.heldCalls == [])
    }

    @Test func countsFromAServerWithoutHeldCallsStillDecode() throws {
        let json = #"{"seam":"t.number","calls":3,"chaosCalls":1,"errors":0,"held":1}"#
        let counts = try JSONDecoder().decode(ScopeSeamCounts.self, from: Data(json.utf8))
        #expect(counts == ScopeSeamCounts(seam: "t.number", calls: 3, chaosCalls: 1, held: 1))
    }
}
