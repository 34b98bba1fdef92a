import Foundation
import Testing

@testable import Mischief

/// Recording each chaos call's decision (which layer answered, and with what) and checking a replay's calls get the
/// same ones.
@Suite struct DecisionRecordingTests {
    /// 4 plain calls, then `50%return(100)` for 20 calls, reverted, then 2 plain calls; decisions recorded.
    static func session(decisions: Int = 1000) throws -> (recording: Recording, layer: Int) {
        let f = try Fixture(sessionSeed: 11)
        let recorder = f.registry.startRecording(decisions: decisions)
        for value in 1...4 { _ = f.double(value) }
        let layer = try f.registry.apply(spec: "50%return(100)", to: "test.double", source: "console")
        for value in 1...20 { _ = f.double(value) }
        f.registry.revert(layer)
        for value in 1...2 { _ = f.double(value) }
        recorder.stop()
        return (recorder.recording, layer.layers[0].rawValue)
    }

    /// `recording` replayed on a fresh registry (another session seed: the recorded one is used) that makes the
    /// session's 26 calls.
    static func replayed(_ recording: Recording) async throws -> ReplayOutcome {
        let f = try Fixture(sessionSeed: 99)
        let run = f.registry.startReplay(try ReplaySchedule(recording))
        return await Task.detached { () -> ReplayOutcome in
            for value in 1...26 { _ = f.double(value) }
            return await run.outcome()
        }.value
    }

    @Test func eachChaosCallsDecisionIsRecordedWithItsLayerAndValue() throws {
        let (recording, layer) = try Self.session()
        let decisions = recording.decisions
        #expect(decisions.map(\.call) == Array(5...24), "the chaos calls only, numbered as events number them")
        #expect(decisions.allSatisfy { $0.seam == "test.double" })
        let returned = decisions.filter { $0.outcome == .returned }
        let passed = decisions.filter { $0.outcome == .passed }
        #expect(returned.count + passed.count == 20)
        #expect(!returned.isEmpty && !passed.isEmpty, "50% over 20 calls: both, with this seed")
        #expect(returned.allSatisfy { $0.value == "100" && $0.layer == layer && $0.live == nil })
        #expect(passed.allSatisfy { $0.value == nil && $0.layer == nil })
        let applied = try #require(recording.entries.first { $0.kind == .applied })
        #expect(decisions.allSatisfy { $0.after == applied.event }, "all made after the apply, before the revert")
        #expect(recording.header.decisions == 1000)
    }

    @Test func decisionsSurviveTheFileFormatInTheirPlaceAmongTheEvents() throws {
        let (recording, _) = try Self.session()
        let text = recording.jsonLines
        let lines = text.split(separator: "\n")
        let applyLine = try #require(lines.firstIndex { $0.contains("\"kind\":\"applied\"") })
        let revertLine = try #require(lines.firstIndex { $0.contains("\"kind\":\"reverted\"") })
        let decisionLines = lines.indices.filter { lines[$0].contains("\"kind\":\"decision\"") }
        #expect(decisionLines.count == 20)
        #expect(decisionLines.allSatisfy { $0 > applyLine && $0 < revertLine }, "between the apply and the revert")
        let read = try Recording(jsonLines: text)
        #expect(read.decisions == recording.decisions)
        #expect(read.entries == recording.entries)
    }

    @Test func aTruncatedDecisionLineIsAnErrorAtItsLine() throws {
        let (recording, _) = try Self.session()
        var lines = recording.jsonLines.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("\"kind\":\"decision\"") })
        lines[index] = String(lines[index].prefix(30))
        #expect {
            _ = try Recording(jsonLines: lines.joined(separator: "\n"))
        } throws: { error in
            "\(error)".contains("line \(index + 1)")
        }
    }

    @Test func aPeekIsNotADecisionOfTheProgram() throws {
        let f = try Fixture()
        let recorder = f.registry.startRecording(decisions: 100)
        try f.registry.apply(spec: "return(3)", to: "test.double")
        #expect(f.double.peek(1) == 3)
        #expect(f.double(1) == 3)
        #expect(f.double.peek(1) == 3)
        recorder.stop()
        #expect(recorder.recording.decisions.map(\.call) == [1])
    }

    @Test func pastTheBoundDecisionsAreCountedNotKept() throws {
        let (recording, _) = try Self.session(decisions: 5)
        #expect(recording.decisions.count == 5)
        #expect(recording.header.droppedDecisions == 15)
    }

    @Test func withoutDecisionsAskedForNoneAreRecorded() throws {
        let f = try Fixture()
        let recorder = f.registry.startRecording()
        try f.registry.apply(spec: "return(3)", to: "test.double")
        _ = f.double(1)
        recorder.stop()
        #expect(recorder.recording.decisions.isEmpty)
        #expect(recorder.recording.header.decisions == nil)
    }

    @Test func aFullTapeEndsWithOneDroppedDecisionAndNoHole() {
        let tape = DecisionTape<Int, Never>(
            seam: "test.double", layers: [LayerID(rawValue: 4)], replayable: [true], capacity: 4)
        var output = 0
        var failure: Never? = nil
        _ = failure
        let never = UnsafeMutablePointer<Never>.allocate(capacity: 1)
        defer { never.deallocate() }
        for value in 1...6 {
            output = value
            tape.note(.value, call: 10 + value, layer: 0, &output, never)
        }
        var taken: [TakenDecision] = []
        tape.drain { taken.append($0) }
        #expect(taken.map(\.rawCall) == [11, 12, 13, 14, 15], "four kept, then where it stopped")
        #expect(taken.prefix(4).map(\.value) == ["1", "2", "3", "4"])
        #expect(taken.last?.outcome == .dropped)
        #expect(tape.isDrained)
        output = 7
        tape.note(.value, call: 17, layer: 0, &output, never)
        var later: [TakenDecision] = []
        tape.drain { later.append($0) }
        #expect(later.isEmpty, "an ended tape keeps nothing more, and says so once")
    }

    @Test func aRecordingOverARequestsBoundKeepsItsEventsAndTheDecisionsThatFit() throws {
        let (recording, _) = try Self.session()
        let whole = recording.jsonLines.utf8.count
        let decisionBytes = recording.decisions.reduce(0) { $0 + Recording.line($1).utf8.count }
        let (trimmed, kept) = try #require(recording.keepingDecisions(within: whole - decisionBytes / 2))
        #expect(trimmed.jsonLines.utf8.count <= whole - decisionBytes / 2)
        #expect(trimmed.entries == recording.entries, "every event goes")
        #expect(kept > 0 && kept < 20)
        #expect(Array(trimmed.decisions.prefix(kept)) == Array(recording.decisions.prefix(kept)))
        #expect(
            trimmed.decisions.last?.outcome == .dropped
                && trimmed.decisions.last?.call == recording.decisions[kept].call,
            "a replay compares up to where they were cut")
        #expect(try Recording(jsonLines: trimmed.jsonLines).decisions == trimmed.decisions)
        #expect(recording.keepingDecisions(within: whole)?.kept == 20)
        #expect(recording.keepingDecisions(within: 100) == nil, "the events alone do not fit")
    }

    /// Four threads calling one seam 2,000 times between two changes; an async seam beside it.
    static func concurrentSession(seed: UInt64 = 5) async throws -> (recording: Recording, sevens: Int) {
        let f = try Fixture(sessionSeed: seed)
        let recorder = f.registry.startRecording(decisions: 10_000)
        try f.registry.apply(spec: "50%return(7)", to: "test.double")
        try f.registry.apply(spec: "throw", to: "test.fetch")
        let sevens = Self.callFromFourThreads(f)
        await #expect(throws: (any Error).self) { try await f.fetch(1) }
        f.registry.revertAll()
        recorder.stop()
        return (recorder.recording, sevens)
    }

    /// 4 × 500 calls of `test.double(1)` on four threads; how many got the layer's 7.
    static func callFromFourThreads(_ f: Fixture) -> Int {
        let sevens = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            var mine = 0
            for _ in 0..<500 where f.double(1) == 7 { mine += 1 }
            sevens.withLock { $0 += mine }
        }
        return sevens.withLock { $0 }
    }

    @Test func callsFromManyThreadsEachHaveOneDecisionAndReplayAsTheSameSet() async throws {
        let (recording, sevens) = try await Self.concurrentSession()
        let doubles = recording.decisions.filter { $0.seam == "test.double" }
        #expect(doubles.count == 2000)
        #expect(Set(doubles.map(\.call)) == Set(1...2000), "every call once, none lost or doubled")
        #expect(doubles.filter { $0.outcome == .returned }.count == sevens, "as the callers saw them")
        #expect(sevens > 0 && sevens < 2000)
        let fetches = recording.decisions.filter { $0.seam == "test.fetch" }
        #expect(fetches.map(\.outcome) == [.threw], "an async seam's decision: \(fetches)")

        let f = try Fixture(sessionSeed: 1)
        let run = f.registry.startReplay(try ReplaySchedule(recording))
        let outcome = await Task.detached { () -> ReplayOutcome in
            _ = Self.callFromFourThreads(f)
            _ = try? await f.fetch(1)
            return await run.outcome()
        }.value
        #expect(outcome.matched, "\(outcome)")
        #expect(outcome.decisions == 2001)
    }

    @Test func aReplayWhoseCallsGetTheRecordedDecisionsMatches() async throws {
        let (recording, _) = try Self.session()
        let outcome = try await Self.replayed(recording)  // on a registry of another session seed
        #expect(outcome.matched, "\(outcome)")
        #expect(outcome.decisions == 20)
        #expect(outcome.description.contains("and 20 decisions"), "\(outcome)")
    }

    @Test func aDecisionThatDiffersDivergesWithBothAnswers() async throws {
        var (recording, layer) = try Self.session()
        let index = try #require(recording.decisions.firstIndex { $0.outcome == .returned })
        recording.decisions[index].value = "101"
        let call = recording.decisions[index].call
        let outcome = try await Self.replayed(recording)
        let divergence = try #require(outcome.divergence, "\(outcome)")
        #expect(divergence.seam == "test.double")
        #expect(divergence.recorded == "call \(call): layer \(layer) returned 101")
        #expect(divergence.replayed == "call \(call): layer \(layer) returned 100")
        #expect(divergence.decisionsMatched == index, "the decisions before it matched")
        #expect(divergence.description.contains("diverged at a decision"), "\(divergence)")
    }

    @Test func aSeedThatDecidesOtherwiseDiverges() async throws {
        var (recording, _) = try Self.session()
        // Every recorded decision says the layer fired: a 50% layer with the recorded seed does not always.
        for index in recording.decisions.indices {
            recording.decisions[index].outcome = .returned
            recording.decisions[index].value = "100"
            recording.decisions[index].layer = recording.entries.first { $0.kind == .applied }?.layer
        }
        let outcome = try await Self.replayed(recording)
        let divergence = try #require(outcome.divergence, "\(outcome)")
        #expect(divergence.replayed.hasSuffix("no layer fired (the original answered)"), "\(divergence)")
    }
}
