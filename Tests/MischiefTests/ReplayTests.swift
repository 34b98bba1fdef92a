import Foundation
import Mischief
import Testing

/// Replaying a recording on a fresh registry: the same layers at the same call numbers, checked before anything is
/// applied, with divergences naming both values.
@Suite struct ReplayTests {
    /// A recording of: 3 calls, `return(7)` from the console, 2 calls, a random spec on the same seam, 1 call, the
    /// first layer reverted.
    static func session() throws -> Recording {
        let f = try Fixture(sessionSeed: 7)
        let recorder = f.registry.startRecording()
        for value in 1...3 { _ = f.double(value) }
        let first = try f.registry.apply(spec: "return(7)", to: "test.double", source: "console", ttl: .seconds(600))
        for value in 1...2 { _ = f.double(value) }
        try f.registry.apply(spec: "50%return(100)", to: "test.double", source: "cli")
        _ = f.double(1)
        f.registry.revert(first)
        recorder.stop()
        return recorder.recording
    }

    @Test func theScheduleSaysEachStepAndWhen() throws {
        let schedule = try ReplaySchedule(try Self.session())
        #expect(schedule.steps.map(\.action) == [.apply, .apply, .revert])
        #expect(schedule.steps.map(\.afterCall) == [3, 5, 6])
        #expect(schedule.sessionSeed == 7)
        #expect(
            schedule.steps[0].description(of: 3) == "1 of 3. test.double after call 3: apply return(7) "
                + "(seed from the session, ttl 600 s) [console]")
        #expect(schedule.steps[2].description(of: 3) == "3 of 3. test.double after call 6: revert layer 1 [console]")
    }

    @Test func aReplayMakesEachChangeAfterTheSameCallWithTheSameSeeds() async throws {
        let recording = try Self.session()
        let f = try Fixture(sessionSeed: 99)  // another session seed: the recorded one is used
        let run = f.registry.startReplay(try ReplaySchedule(recording))
        for value in 1...3 { #expect(f.double(value) == value * 2, "before the first change: the original") }
        #expect(f.double(10) == 7, "call 4 finds return(7), applied after call 3")
        _ = f.double(10)
        // After call 5 the random layer lies on top; the 50% draws are those of the recorded seed.
        let outcome = await Task.detached { () -> ReplayOutcome in
            _ = f.double(1)  // call 6: the revert of the first layer follows it
            return await run.outcome()
        }.value
        #expect(outcome.matched, "\(outcome)")
        #expect(outcome.replayed == 3)
        let seam = try #require(f.registry.snapshot().seam("test.double"))
        #expect(seam.layers.filter { $0.status == .active }.map(\.spec) == ["50%return(100)"])
        #expect(seam.layers.first { $0.status == .active }?.source == "cli")
        let recordedSeeds = recording.entries.first { $0.spec == "50%return(100)" }?.seeds
        #expect(seam.seeds == recordedSeeds)
    }

    @Test func aSpecThatNoLongerAppliesDivergesBeforeAnythingIsApplied() async throws {
        var recording = try Self.session()
        let index = try #require(recording.entries.firstIndex { $0.spec == "50%return(100)" })
        recording.entries[index].spec = "return(\"text\")"  // the seam's output is an Int
        let f = try Fixture()
        let outcome = await f.registry.replay(recording)
        let divergence = try #require(outcome.divergence)
        #expect(divergence.step == 2 && divergence.steps == 3 && divergence.matched == 0)
        #expect(divergence.recorded == "spec return(\"text\")")
        #expect(divergence.replayed.hasPrefix("it no longer applies"))
        #expect(f.registry.snapshot().seam("test.double")?.layers.isEmpty == true, "nothing applied")
        #expect(divergence.description.hasPrefix("diverged at step 2 of 3 (line"))
    }

    @Test func aMissingSeamDivergesNamingIt() async throws {
        var recording = try Self.session()
        for index in recording.entries.indices where recording.entries[index].seam == "test.double" {
            recording.entries[index].seam = "test.gone"
        }
        let f = try Fixture()
        let outcome = await f.registry.replay(recording)
        #expect(outcome.divergence?.seam == "test.gone")
        #expect(outcome.divergence?.replayed == "no such seam is registered")
    }

    @Test func aSeedThatDoesNotReproduceDivergesWithBothSeeds() async throws {
        var recording = try Self.session()
        let index = try #require(recording.entries.firstIndex { $0.spec == "50%return(100)" })
        recording.entries[index].seeds = [1, 2]
        let f = try Fixture()
        let run = f.registry.startReplay(try ReplaySchedule(recording))
        let outcome = await Task.detached { () -> ReplayOutcome in
            for value in 1...6 { _ = f.double(value) }
            return await run.outcome()
        }.value
        let divergence = try #require(outcome.divergence)
        #expect(divergence.step == 2 && divergence.matched == 1)
        #expect(divergence.recorded == "seeds 1, 2")
        #expect(divergence.replayed.contains("the seed does not reproduce"))
    }

    @Test func callsThatNeverComeDivergeAtTheTimeout() async throws {
        let f = try Fixture()
        var options = ReplayOptions()
        options.timeout = .milliseconds(50)
        let outcome = await f.registry.replay(try Self.session(), options: options)
        #expect(outcome.divergence?.step == 1)
        #expect(outcome.divergence?.replayed == "the seam made 0 of 3 calls within 50ms")
        _ = f.double(1)
        #expect(f.registry.snapshot().seam("test.double")?.calls == 0, "disarmed: nobody observes, so not counted")
    }

    @Test func aChangeOnASeamNeverCalledIsMadeAtItsTimeAndAdvancesAreReplayed() async throws {
        let f = try Fixture()
        let recorder = f.registry.startRecording()
        try f.registry.apply(spec: "return(\"x\")", to: "test.rules", source: "console")
        f.registry.noteTimeAdvanced(by: .seconds(5), source: "console")
        recorder.stop()
        let schedule = try ReplaySchedule(recorder.recording)
        #expect(schedule.steps.map(\.afterCall) == [nil, nil])
        #expect(schedule.steps.map(\.action) == [.apply, .advance])

        let fresh = try Fixture()
        #expect(
            await fresh.registry.replay(schedule: schedule).divergence?.replayed
                == "this target cannot advance its time")
        let advanced = Locked<[Duration]>([])
        let outcome = await fresh.registry.replay(
            schedule: schedule,
            options: ReplayOptions(advance: { duration in
                advanced.withLock { $0.append(duration) }
                return true
            }))
        #expect(outcome.matched, "\(outcome)")
        #expect(advanced.withLock { $0 } == [.seconds(5)])
        #expect(fresh.rules("a") == "x")
    }

    @Test func aTimeToLiveSetAfterTheApplyIsSetAgainAfterTheSameCall() async throws {
        let f = try Fixture()
        let recorder = f.registry.startRecording()
        _ = f.double(1)
        try f.registry.apply(spec: "return(7)", to: "test.double", source: "console")
        _ = f.double(1)
        try f.registry.setTTL(.seconds(600), on: "test.double")  // as the console's palette does after `apply … ttl`
        recorder.stop()
        let schedule = try ReplaySchedule(recorder.recording)
        #expect(schedule.steps.map(\.action) == [.apply, .setTTL])
        #expect(schedule.steps[1].description(of: 2) == "2 of 2. test.double after call 2: set ttl 600 s")

        let fresh = try Fixture()
        let started = ContinuousClock.now
        let run = fresh.registry.startReplay(schedule)
        let outcome = await Task.detached { () -> ReplayOutcome in
            for value in 1...2 { _ = fresh.double(value) }
            return await run.outcome()
        }.value
        #expect(outcome.matched, "\(outcome)")
        let layer = try #require(fresh.registry.snapshot().seam("test.double")?.layers.first)
        let left = try #require(layer.expiresIn)
        // Set during the replay, so no more of it has gone than the replay took (however slow the machine: a
        // ThreadSanitizer run once took 100 s over this test); 10 ms for the two clocks' readings.
        let elapsed = started.duration(to: .now)
        #expect(
            left <= .seconds(600) && left >= .seconds(600) - elapsed - .milliseconds(10),
            "\(left) left after \(elapsed)")
    }

    @Test func aBadLineIsAnErrorAtItsLine() throws {
        var recording = try Self.session()
        recording.entries[1].spec = nil  // an applied layer built in code
        let line = try #require(recording.entries.firstIndex { $0.kind == .applied && $0.spec == nil }) + 2
        #expect(throws: RecordingError.self) { try ReplaySchedule(recording) }
        do {
            _ = try ReplaySchedule(recording)
        } catch {
            #expect(error.line == line)
        }
    }
}
