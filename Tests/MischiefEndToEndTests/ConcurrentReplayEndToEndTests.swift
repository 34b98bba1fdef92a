import Foundation
import MischiefTestSupport
import Testing

/// A session recorded from a program whose two threads call one seam while `mischief apply` changes it from outside,
/// replayed with `mischief replay` on fresh runs of the same program: every run matches, step by step and decision by
/// decision (the changes land at their call numbers; between two changes the two threads' decisions are the same set).
@Suite(.oneAtATime) struct ConcurrentReplayEndToEndTests {
    /// Fresh runs the recording is replayed on (`MISCHIEF_REPLAY_RUNS`, 50 by default).
    static var runs: Int {
        ProcessInfo.processInfo.environment["MISCHIEF_REPLAY_RUNS"].flatMap { Int($0) } ?? 50
    }
    static let calls = 400

    @Test func aSessionChangedFromOutsideWhileTwoThreadsCallReplaysOnEveryFreshRun() async throws {
        let recorded = try await Self.record()
        defer { try? FileManager.default.removeItem(at: recorded.deletingLastPathComponent()) }
        let text = try String(contentsOf: recorded, encoding: .utf8)
        let applied = text.split(separator: "\n").filter { $0.contains(#""kind":"applied""#) }
        #expect(applied.count == 3, "\(text.prefix(2_000))")
        #expect(text.contains(#""kind":"decision""#), "the recording has the calls' decisions")
        let numbers = applied.compactMap { line -> Int? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return object["call"] as? Int
        }
        #expect(numbers.contains { $0 > 0 && $0 < 2 * Self.calls }, "a change came among the calls: \(numbers)")
        var failures: [String] = []
        for run in 0..<Self.runs {
            let target = try await HeadlessDemo.startTwoThreadTarget(calls: Self.calls)
            defer { target.kill() }
            let replay = try ChildProcess.start(
                CLI.binary, ["replay", recorded.path, "--socket", target.socket, "--timeout", "60"],
                environment: HeadlessDemo.environment(in: target.directory), directory: target.directory,
                output: target.directory.appendingPathComponent("replay.out"),
                error: target.directory.appendingPathComponent("replay.err"))
            defer { replay.kill() }
            // The threads start once the replay has armed the seam, so both count calls from the same place.
            _ = try await Poll.until("the replay to start", lastSeen: { replay.errorText }) { () -> Bool? in
                if let status = replay.exited() {
                    throw Poll.Failure(description: "mischief replay exited with \(status): \(replay.errorText)")
                }
                return try target.events().contains { ($0["message"] as? String)?.hasPrefix("replaying ") == true }
                    ? true : nil
            }
            target.go()
            let status = try await replay.waitForExit(timeout: .seconds(120))
            if status != 0 { failures.append("run \(run): exit \(status): \(replay.errorText)\(replay.outputText)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.runs) replays failed; first: \(failures.first ?? "")")
    }

    /// Runs the program, lets its threads call, applies three specs with `mischief apply` while they do, and saves
    /// the session with `mischief record`; the file's URL (in a directory of its own).
    static func record() async throws -> URL {
        let target = try await HeadlessDemo.startTwoThreadTarget(calls: calls)
        defer { target.kill() }
        let folder = try HeadlessDemo.makeDirectory()
        let file = folder.appendingPathComponent("session.jsonl")
        target.go()
        for (spec, seed) in [("20%return(1)", "7"), ("50%return(9)", "11"), ("return(3)", "1")] {
            let applied = try target.mischief(["apply", "t.n", spec, "--seed", seed, "--socket", target.socket])
            #expect(applied.status == 0, "\(applied.error)")
        }
        _ = try await Poll.until("the threads to make their calls", lastSeen: { target.process.outputText }) {
            target.process.outputText.contains("done") ? true : nil
        }
        let saved = try target.mischief(["record", file.path, "--socket", target.socket])
        #expect(saved.status == 0, "\(saved.error)")
        return file
    }
}
