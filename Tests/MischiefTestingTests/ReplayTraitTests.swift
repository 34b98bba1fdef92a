import Foundation
import Mischief
import MischiefCatalog
import MischiefTesting
import Testing

/// A recorded session replayed in a test's own scope (`ScopedReplay`, `.replaying`, `withReplay`): the same changes
/// after the same calls, the same decisions, and the first divergence reported with both values.
@Suite struct ReplayTraitTests {
    /// A shop's seams in a registry of their own: a price lookup that can fail, and the shop's clock.
    final class Shop: Sendable {
        let registry = Registry(sessionSeed: 7)
        let price = Seam<Int, Int, any Error>("shop.price", title: "Price", category: "Shop", summary: "cents") {
            $0 * 100
        }
        let clock = ChaosClock(id: "shop.clock")

        init() throws { try registry.register(price, clock.seam) }

        /// The code under test: `prices` lookups, each with the day it was made.
        func run(prices: Int) -> [String] {
            (1...max(1, prices)).map { item in
                let day = Int(clock.date.timeIntervalSince1970 / 86_400)
                return ((try? price(item)).map(String.init) ?? "failed") + " on day \(day)"
            }
        }
    }

    /// "Three good answers, then a failure, then the clock a day on": what the end state alone cannot reproduce.
    static func recordSession(in shop: Shop) throws -> Recording {
        let recorder = shop.registry.startRecording(decisions: 1000)
        _ = shop.run(prices: 3)
        let failure = try shop.registry.apply(spec: #"throw("sold out")"#, to: "shop.price", source: "console")
        _ = shop.run(prices: 1)
        shop.registry.revert(failure)
        try shop.registry.apply(spec: "shift(+1d)", to: "shop.clock", source: "console")
        _ = shop.run(prices: 2)
        try shop.registry.apply(spec: "50%return(1)", to: "shop.price", source: "console", seed: 5)
        _ = shop.run(prices: 6)
        recorder.stop()
        shop.registry.revertAll()
        return recorder.recording
    }

    static let session: Recording = {
        try! recordSession(in: Shop())
    }()

    @Test func theSameCallsGetTheSameChangesAtTheSameCallsAndTheSameDecisions() async throws {
        let shop = try Shop()
        let recorded = Self.session
        #expect(recorded.decisions.count >= 7, "the failure and the 50% calls: \(recorded.decisions.count)")
        let replay = ScopedReplay(try ReplaySchedule(recorded), registry: shop.registry)
        let seen = replay.scope.run { shop.run(prices: 3) + shop.run(prices: 1) + shop.run(prices: 2) }
        #expect(seen.prefix(4).map { $0.hasPrefix("failed") } == [false, false, false, true], "\(seen)")
        let days = seen.map { Int($0.split(separator: " ").last!)! }
        #expect(days[4] == days[0] + 1, "the clock a day on after the failure: \(seen)")
        _ = replay.scope.run { shop.run(prices: 6) }
        let outcome = replay.finish()
        #expect(outcome.matched, "\(outcome)")
        #expect(outcome.decisions == recorded.decisions.count)
        #expect(shop.registry.snapshot().seams.allSatisfy { $0.layers.isEmpty }, "the registry was never changed")
    }

    @Test func codeThatStopsShortOfARecordedCallDivergesThere() throws {
        let shop = try Shop()
        let replay = ScopedReplay(try ReplaySchedule(Self.session), registry: shop.registry)
        _ = replay.scope.run { shop.run(prices: 2) }
        let divergence = try #require(replay.finish().divergence)
        #expect(divergence.step == 1 && divergence.seam == "shop.price")
        #expect(divergence.replayed == "the code under test made 2 of 3 calls before the end", "\(divergence)")
    }

    @Test func aDecisionThatDiffersFailsWithBothValues() throws {
        var edited = Self.session
        let index = try #require(edited.decisions.firstIndex { $0.outcome == .threw })
        edited.decisions[index].value = "\"in stock\""
        let shop = try Shop()
        let replay = ScopedReplay(try ReplaySchedule(edited), registry: shop.registry)
        _ = replay.scope.run { shop.run(prices: 3) + shop.run(prices: 1) + shop.run(prices: 2) + shop.run(prices: 6) }
        let divergence = try #require(replay.finish().divergence)
        #expect(divergence.seam == "shop.price" && divergence.decisionsMatched != nil)
        #expect(divergence.recorded.hasPrefix("call 4: ") && divergence.recorded.contains("threw \"in stock\""))
        #expect(divergence.replayed.hasPrefix("call 4: ") && divergence.replayed.contains("sold out"))
    }

    @Test func aSeamTheRegistryLacksIsNamedWithHowToFixIt() throws {
        let replay = ScopedReplay(try ReplaySchedule(Self.session), registry: Registry(sessionSeed: 1))
        let divergence = try #require(replay.finish().divergence)
        #expect(divergence.step == 1)
        #expect(divergence.replayed.contains("no such seam is registered"), "\(divergence)")
    }

    /// Two tests replaying different sessions on the same seams at once: each sees its own.
    @Test func replaysInParallelTasksDoNotMeet() async throws {
        let shop = try Shop()
        let recorder = shop.registry.startRecording(decisions: 1000)
        try shop.registry.apply(spec: "return(9)", to: "shop.price", source: "console")
        _ = shop.run(prices: 5)
        recorder.stop()
        shop.registry.revertAll()
        let other = recorder.recording
        try await withThrowingTaskGroup(of: ReplayOutcome.self) { group in
            for (recording, calls) in [(Self.session, [3, 1, 2, 6]), (other, [5])] {
                group.addTask {
                    let replay = ScopedReplay(try ReplaySchedule(recording), registry: shop.registry)
                    for count in calls {
                        await replay.scope.run {
                            await Task.yield()
                            _ = shop.run(prices: count)
                        }
                    }
                    return replay.finish()
                }
            }
            for try await outcome in group { #expect(outcome.matched, "\(outcome)") }
        }
    }

    /// `withReplay` records an issue with both values for a divergence.
    @Test func withReplayRecordsTheDivergenceAsAnIssue() async throws {
        let shop = try Shop()
        try await withKnownIssue {
            try await withReplay(Self.session, registry: shop.registry) { _ = shop.run(prices: 3) }
        } matching: { issue in
            text(of: issue).contains("diverged at step 2 of") && text(of: issue).contains("made 3 of 4 calls")
        }
    }

    static let lines = session.jsonLines.split(separator: "\n").map(String.init)
    static let shop = try! Shop()

    /// The trait registers the seams, replays around the test, and the test passes when it makes the recorded calls.
    @Test(
        .replaying(
            ReplayTraitTests.lines, registry: ReplayTraitTests.shop.registry,
            registering: { try $0.register(ReplayTraitTests.shop.price, ReplayTraitTests.shop.clock.seam) }))
    func theTraitReplaysTheSessionAroundTheTestsCalls() {
        _ = Self.shop.run(prices: 3) + Self.shop.run(prices: 1) + Self.shop.run(prices: 2) + Self.shop.run(prices: 6)
    }
}
