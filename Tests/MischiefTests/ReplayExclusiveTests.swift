import Foundation
import Mischief
import Testing

/// One replay a seam at a time: a second replay on a seam a running one waits on is refused with a clear divergence,
/// never taking over the first one's trigger; the first goes on as recorded.
@Suite(.timeLimit(.minutes(1))) struct ReplayExclusiveTests {
    @Test func aSecondReplayOnASeamARunningOneWaitsOnIsRefused() async throws {
        let recording = try ReplayTests.session()
        let f = try Fixture(sessionSeed: 99)
        let first = f.registry.startReplay(try ReplaySchedule(recording), options: ReplayOptions(timeout: .seconds(20)))
        let second = await f.registry.startReplay(
            try ReplaySchedule(recording), options: ReplayOptions(timeout: .seconds(3))
        ).outcome()
        let divergence = try #require(second.divergence, "\(second)")
        #expect(divergence.replayed.contains("another replay is running on test.double"), "\(divergence)")
        #expect(divergence.seam == "test.double")
        #expect(divergence.refused == true, "a refusal, told apart from a divergence")
        #expect(second.replayed == 0)
        // The first still counts the calls and makes its changes after the same ones.
        for value in 1...3 { #expect(f.double(value) == value * 2) }
        #expect(f.double(10) == 7, "call 4 finds return(7), applied after call 3")
        _ = f.double(10)
        let outcome = await Task.detached { () -> ReplayOutcome in
            _ = f.double(1)
            return await first.outcome()
        }.value
        #expect(outcome.matched, "\(outcome)")
        // Once it has ended, a replay on the seam may start again.
        let again = f.registry.startReplay(try ReplaySchedule(recording), options: ReplayOptions(timeout: .seconds(3)))
        again.cancel()
        let cancelled = await again.outcome()
        #expect(cancelled.divergence?.replayed == "the replay was cancelled", "\(cancelled)")
    }
}
