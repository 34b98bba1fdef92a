import Foundation
import Mischief
import MischiefTestSupport
import Testing

/// Recording a session as a user would: `MISCHIEF_RECORD` on a demo that is then killed with SIGKILL, and
/// `mischief record` from a serving demo; both read back as a recording with each change's call number and seed.
@Suite(.oneAtATime) struct RecordingEndToEndTests {
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("mischief-recording-\(UUID().uuidString).jsonl")
    }

    @Test func aRecordingToAFileSurvivesKillDashNine() async throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let demo = try await HeadlessDemo.start(environment: ["MISCHIEF_RECORD": file.path])
        defer { demo.kill() }
        for (seam, spec, extra) in [
            ("clock.now", "shift(+1d)", ["--ttl", "10m"]), ("location.current", #"city("Tokyo")"#, ["--seed", "7"]),
        ] {
            let applied = try demo.mischief(["apply", "--socket", demo.socket, seam, spec] + extra)
            #expect(applied.status == 0, "\(applied.error)")
        }
        demo.process.kill()  // SIGKILL, and reaped: nothing is flushed or closed on the way out
        let recording = try Recording(jsonLines: try String(contentsOf: file, encoding: .utf8))
        #expect(recording.header.sessionSeed == 11)
        let applied = recording.entries.filter { $0.kind == .applied }
        #expect(applied.map(\.seam) == ["clock.now", "location.current"])
        #expect(applied.first?.spec == "shift(1d)" && applied.first?.ttl == 600)
        // A seed sent to a target is derived with its label (demo#0, alone in its directory): the recording keeps
        // the seed the change was applied with, which a replay gives as it is.
        #expect(applied.last?.seed == SeededGenerator.seed(7, for: "demo#0"))
        #expect(applied.allSatisfy { $0.call != nil }, "each change has its seam's call number")
        #expect(recording.entries.contains { $0.kind == .registered && $0.seam == "clock.now" })
    }

    @Test func mischiefRecordSavesTheServersRecording() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let applied = try demo.mischief(["apply", "--socket", demo.socket, "net.request", "offline", "--seed", "3"])
        #expect(applied.status == 0, "\(applied.error)")
        let file = demo.directory.appendingPathComponent("session.jsonl")
        let saved = try demo.mischief(["record", "--socket", demo.socket, file.path])
        #expect(saved.status == 0, "\(saved.error)")
        #expect(saved.output.hasPrefix("recorded "), "\(saved.output)")
        let recording = try Recording(jsonLines: try String(contentsOf: file, encoding: .utf8))
        let change = recording.entries.last { $0.kind == .applied }
        #expect(change?.seam == "net.request" && change?.seed == SeededGenerator.seed(3, for: "demo#0"))
        #expect(recording.header.seams.contains { $0.id == "clock.now" && $0.actions.contains("shift") })
        // jq-style reading: every line is one JSON object.
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }
}
