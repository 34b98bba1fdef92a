import Foundation
import Testing

@testable import Mischief

/// How long a replay waits by default: derived from the recording, so a session recorded after the first minute is
/// not cut off by a fixed 60 s (`here the seam made 298 of 381 calls within 1m`), and a wait that was the default
/// says so when it was too short.
@Suite struct ReplayWaitTests {
    /// A recording whose only change came after the seam's 381st call, `seconds` into the run.
    static func schedule(changeAt seconds: Double) throws -> ReplaySchedule {
        let f = try Fixture()
        let recorder = f.registry.startRecording()
        for value in 1...381 { _ = f.double(value) }
        try f.registry.apply(spec: "return(7)", to: "test.double", source: "console")
        recorder.stop()
        var schedule = try ReplaySchedule(recorder.recording)
        #expect(schedule.steps.map(\.afterCall) == [381])
        schedule.steps[0].at = seconds  // as if recorded 76 s into the run
        return schedule
    }

    @Test func theDefaultWaitIsTheRecordingsOwnPaceWithAMargin() throws {
        #expect(try Self.schedule(changeAt: 76).derivedTimeout == .seconds(144))
        #expect(try Self.schedule(changeAt: 2).derivedTimeout == .seconds(60), "never less than a minute")
        #expect(try Self.schedule(changeAt: 1e9).derivedTimeout == .seconds(86_400), "never more than a day")
        #expect(try Self.schedule(changeAt: .infinity).derivedTimeout == .seconds(60))
        #expect(ReplayOptions().timeout == nil, "the default is derived, not a fixed minute")
    }

    /// The replay waits the derived time (it has not timed out at 60 s), and a timeout then says the wait was the
    /// default, how it was derived and how to wait longer.
    @Test func aDefaultWaitThatRunsOutSaysSo() async throws {
        let f = try Fixture()
        let run = f.registry.startReplay(try Self.schedule(changeAt: 76))
        for value in 1...298 { _ = f.double(value) }
        run.replayer.timedOut()  // as the derived wait ends
        let divergence = try #require(await run.outcome().divergence)
        #expect(
            divergence.replayed
                == "the seam made 298 of 381 calls within 144s, the default wait (the recording's last step at "
                + "+76 s, × 1.5 plus 30 s): too short here; give a longer timeout (mischief replay --timeout SECONDS)")

        // A wait given says only how long it was.
        var options = ReplayOptions()
        options.timeout = .milliseconds(50)
        let fresh = try Fixture()
        let given = await fresh.registry.replay(schedule: try Self.schedule(changeAt: 76), options: options)
        #expect(given.divergence?.replayed == "the seam made 0 of 381 calls within 50ms")
    }
}
