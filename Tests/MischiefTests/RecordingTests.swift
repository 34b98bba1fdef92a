import Foundation
import Mischief
import Testing

/// The flight recording: every event with its seam's call number, to a file line by line or in memory, read back
/// with errors at their line.
@Suite struct RecordingTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString).jsonl").path
    }

    @Test func aFileRecordingHasEachChangeWithItsCallNumberSeedAndTTL() throws {
        let f = try Fixture()
        for value in 1...5 { _ = f.double(value) }  // before the recording: not counted in its call numbers
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try f.registry.startRecording(toFile: path, target: "fixture")
        for value in 1...3 { _ = f.double(value) }
        let applied = try f.registry.apply(spec: "return(7)", to: "test.double", source: "console", ttl: .seconds(30))
        for value in 1...2 { _ = f.double(value) }
        try f.registry.apply(spec: #"30%return("x")"#, to: "test.rules", source: "console", seed: 42)
        f.registry.revert(applied)
        recorder.stop()
        try f.registry.apply(spec: "return(9)", to: "test.double")  // after stop: not recorded

        let text = try String(contentsOfFile: path, encoding: .utf8)
        let recording = try Recording(jsonLines: text)
        #expect(recording == recorder.recording)
        #expect(recording.header.target == "fixture")
        #expect(recording.header.sessionSeed == f.registry.sessionSeed)
        #expect(recording.header.seams.map(\.id).contains("test.double"))
        let changes = recording.entries.filter { $0.kind == .applied || $0.kind == .reverted }
        #expect(changes.map(\.kind) == [.applied, .applied, .reverted])
        #expect(changes.map(\.seam) == ["test.double", "test.rules", "test.double"])
        #expect(changes[0].call == 3, "applied after the 3rd call since the recording started")
        #expect(changes[0].spec == "return(7)" && changes[0].ttl == 30 && changes[0].source == "console")
        #expect(changes[1].seed == 42 && changes[1].seeds?.isEmpty == false && changes[1].call == 0)
        #expect(changes[2].call == 5 && changes[2].layer == changes[0].layer)
        #expect(text.split(separator: "\n").count == recording.entries.count + 1, "one line an event")
    }

    @Test func aFileRecordingKeepsEveryEventOnDiskAndABoundedCopyInMemory() throws {
        let f = try Fixture()
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try f.registry.startRecording(toFile: path)
        for value in 0..<10_003 { try f.registry.apply(spec: "return(\(value))", to: "test.double") }
        recorder.stop()
        let kept = recorder.recording
        let onDisk = try Recording(jsonLines: try String(contentsOfFile: path, encoding: .utf8))
        #expect(kept.entries.count == 10_000, "a long recording must not grow the target's memory")
        #expect(kept.header.dropped == onDisk.entries.count - 10_000)
        #expect(onDisk.entries.filter { $0.kind == .applied }.count == 10_003, "the file has every event")
        #expect(onDisk.header.dropped == nil)
    }

    @Test func anInMemoryRecordingKeepsItsCapacityAndCountsTheRest() throws {
        let f = try Fixture()
        let recorder = f.registry.startRecording(capacity: 2)
        for spec in ["return(1)", "return(2)", "return(3)", "return(4)"] {
            try f.registry.apply(spec: spec, to: "test.double")
        }
        let recording = recorder.recording
        #expect(recording.entries.map(\.spec) == ["return(1)", "return(2)"])
        #expect(recording.header.dropped == 2)
        #expect(try Recording(jsonLines: recording.jsonLines) == recording)
    }

    @Test func whileRecordingCallsAreCountedAndAfterwardsNot() throws {
        let f = try Fixture()
        let recorder = f.registry.startRecording()
        _ = f.double(1)
        #expect(f.registry.snapshot().seam("test.double")?.calls == 1)
        recorder.stop()
        _ = f.double(1)
        #expect(f.registry.snapshot().seam("test.double")?.calls == 1, "counting stops with the recording")
    }

    @Test func aLastLineCutShortIsLeftOutAndAnyOtherBadLineIsAnErrorAtItsLine() throws {
        let f = try Fixture()
        let recorder = f.registry.startRecording()
        try f.registry.apply(spec: "return(1)", to: "test.double")
        try f.registry.apply(spec: "return(2)", to: "test.double")
        let whole = recorder.recording.jsonLines
        let cut = String(whole.dropLast(9))  // killed while writing the last line
        #expect(try Recording(jsonLines: cut).entries.map(\.spec) == ["return(1)"])

        var lines = whole.split(separator: "\n").map(String.init)
        lines[1] = "{\"kind\": \"applied\"}"
        #expect(throws: RecordingError(line: 2, reason: "not an event (no \"event\")")) {
            try Recording(jsonLines: lines.joined(separator: "\n") + "\n")
        }
        #expect(throws: RecordingError.self) { try Recording(jsonLines: "") }
        #expect(throws: RecordingError(line: 1, reason: "format is \"other\", not \"mischief-recording\"")) {
            try Recording(jsonLines: whole.replacingOccurrences(of: "mischief-recording", with: "other"))
        }
        let swapped = [lines[0], lines[2], lines[1]].joined(separator: "\n") + "\n"
        #expect(throws: RecordingError.self) { try Recording(jsonLines: swapped) }
    }

    @Test(arguments: [
        ("Authorization: Bearer abc.def", "Authorization: [redacted]"),
        (#"header("Cookie": "id=1; t=2")"#, #"header("Cookie": "[redacted]")"#),
        ("set-cookie=secret, next", "set-cookie=[redacted], next"),
        ("no credentials here: authorizationless", "no credentials here: authorizationless"),
        ("Proxy-Authorization:basic xyz)", "Proxy-Authorization:[redacted])"),
    ])
    func credentialsAreRedacted(text: String, expected: String) {
        #expect(Recording.redacted(text) == expected)
    }

    @Test func aFileThatCannotBeOpenedSaysWhy() throws {
        let f = try Fixture()
        #expect(throws: RecordingStartError.self) {
            try f.registry.startRecording(toFile: "/nonexistent-directory/x.jsonl")
        }
    }
}

/// A recording that starts while layers are applied (a console after `MISCHIEF_PROFILE`, a server after
/// `MISCHIEF_APPLY`) lists them in its header, so a replay makes them and nothing is lost.
@Suite struct RecordingActiveLayersTests {
    @Test func layersActiveAtTheStartAreInTheHeaderAndAReplayMakesThem() async throws {
        let f = try Fixture()
        try f.registry.apply(spec: #"30%return("x")"#, to: "test.rules", source: "env", seed: 9)
        try f.registry.apply(spec: "return(7)", to: "test.double", source: "profile P", ttl: .seconds(60))
        let recorder = f.registry.startRecording()
        try f.registry.apply(spec: "return(8)", to: "test.double", source: "console")
        let recording = recorder.recording
        let active = try #require(recording.header.active)
        #expect(active.map(\.seam) == ["test.double", "test.rules"])
        #expect(active.map(\.spec) == ["return(7)", #"30%return("x")"#])
        #expect(active[0].ttl == 60 && active[0].source == "profile P" && active[1].seed == 9)
        #expect(try Recording(jsonLines: recording.jsonLines) == recording)

        let fresh = try Fixture()
        let outcome = await fresh.registry.replay(recording)
        #expect(outcome.divergence == nil, "\(outcome)")
        let layers = fresh.registry.snapshot().layers.filter { $0.status == .active }
        #expect(Set(layers.map(\.source)) == ["env", "profile P", "console"], "\(layers)")
    }
}
