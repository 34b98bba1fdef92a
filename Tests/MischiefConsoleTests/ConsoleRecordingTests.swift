import Foundation
import Mischief
import Testing

@testable import MischiefConsole

/// `W`: the session's recording, kept by the controller, saved to a new file.
@Suite struct ConsoleRecordingTests {
    typealias F = ConsoleFixtures

    @Test func capitalWAsksToSaveTheRecordingAndSaysWhere() {
        var state = F.state(rows: 30, columns: 120)
        #expect(F.press([.character("W")], &state) == [.saveRecording])
        _ = Console.update(&state, .commandFinished(.saveRecording, .success("/tmp/r/demo-20261126-103012.jsonl")))
        #expect(state.message?.text == "recording demo-20261126-103012.jsonl saved in /tmp/r")
        #expect(Format.homeRelative("/home/ada/.local/state/x.jsonl", home: "/home/ada") == "~/.local/state/x.jsonl")
        #expect(Format.homeRelative("/home/adam/x", home: "/home/ada") == "/home/adam/x")
    }

    @Test func aLocalControllerRecordsTheSessionFromItsStart() async throws {
        let registry = Registry(sessionSeed: 5)
        let seam = Seam<Int, Int, Never>("test.value", title: "Value", category: "Test", summary: "x") { $0 }
        try registry.register(seam)
        let controller = LocalController(
            registry: registry, name: "demo", saveDirectory: FileManager.default.temporaryDirectory)
        _ = seam(1)
        _ = try await controller.apply("return(2)", to: "test.value")
        let recording = try await controller.recording()
        #expect(recording.header.target == "demo" && recording.header.sessionSeed == 5)
        let applied = recording.entries.first { $0.kind == .applied }
        #expect(applied?.spec == "return(2)" && applied?.call == 1 && applied?.source == "console")
    }

    @Test func eachSaveIsANewPrivateFileNamedAfterTheTargetAndTime() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = Recording(
            header: .init(target: "Weather Demo", pid: 1, sessionSeed: 2, started: 0, seams: []), entries: [])
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let first = try RecordingFiles.save(recording, in: directory, now: now)
        let second = try RecordingFiles.save(recording, in: directory, now: now)
        #expect(first.hasSuffix("/weather-demo-20261118-110640.jsonl"), "\(first)")
        #expect(second.hasSuffix("/weather-demo-20261118-110640-2.jsonl"), "\(second)")
        #expect(try Recording(jsonLines: String(contentsOfFile: first, encoding: .utf8)) == recording)
        let mode = try FileManager.default.attributesOfItem(atPath: first)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(RecordingFiles.directory(environment: ["XDG_STATE_HOME": "/s"]).path == "/s/mischief/recordings")
        #expect(RecordingFiles.directory(environment: ["HOME": "/h"]).path == "/h/.local/state/mischief/recordings")
    }

    @Test func qAsksOnceWhenTheSessionsChangesAreNotSavedAndWClearsIt() {
        var state = F.state(rows: 30, columns: 120)
        #expect(F.press([.character("q")], &state) == [.quit], "nothing changed: q quits")
        let apply = ConsoleCommand.apply(seam: "clock.now", spec: "shift(1d)")
        _ = Console.update(&state, .commandFinished(apply, .success(nil)))
        #expect(F.press([.character("q")], &state) == [], "changes not saved: q asks")
        #expect(state.message?.text == "this session's changes are not saved: W writes its recording, q quits")
        #expect(F.press([.character("q")], &state) == [.quit], "asked: the next q quits")
        #expect(F.press([.character("j"), .character("q")], &state) == [], "another key first: q asks again")
        #expect(F.press([.control("c")], &state) == [.quit], "Ctrl-C always quits")
        _ = Console.update(&state, .commandFinished(.saveRecording, .success("/tmp/r/x.jsonl")))
        #expect(F.press([.character("q")], &state) == [.quit], "saved: q quits")
    }
}
