import Foundation
import Mischief
import MischiefTestSupport
import Testing

/// `mischief export`, run as a user would: a recording to stdout, to a file, from stdin, and a bad one refused.
@Suite(.oneAtATime) struct ExportCLITests {
    /// A recording with one change left applied, written by the library's own writer.
    static let recording = Recording(
        header: .init(
            target: "shop", pid: 1, sessionSeed: 7, started: 1_800_000_000,
            seams: [.init(id: "clock.now", title: "Now", actions: ["shift"])]),
        entries: [
            .init(
                event: 1, kind: .applied, seam: "clock.now", source: "console", message: "shift(+1d)", time: 1,
                wall: 0, call: 4, layer: 1, spec: "shift(+1d)", ttl: 30)
        ]
    ).jsonLines

    /// A fresh directory with `session.jsonl` holding `text`, removed when `body` returns.
    private func withRecording<T>(_ text: String, _ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-export-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try text.write(to: directory.appendingPathComponent("session.jsonl"), atomically: true, encoding: .utf8)
        return try body(directory)
    }

    @Test func exportsEachFormToStandardOutputOrAFile() throws {
        try withRecording(Self.recording) { directory in
            let env = try CLI.run(["export", "session.jsonl", "--as", "env"], directory: directory)
            #expect(env.status == 0)
            #expect(env.output == "MISCHIEF_SEED=7 MISCHIEF_APPLY='clock.now=shift(+1d)'\n")
            #expect(env.error == "warning: not exported: clock.now: its ttl of 30s (MISCHIEF_APPLY has no TTLs)\n")

            let profile = try CLI.run(
                ["export", "session.jsonl", "--as", "profile", "--name", "Tomorrow", "--output", "p.yaml"],
                directory: directory)
            #expect(profile.status == 0 && profile.output == "" && profile.error == "")
            let yaml = try String(contentsOf: directory.appendingPathComponent("p.yaml"), encoding: .utf8)
            #expect(yaml.contains("name: Tomorrow\n") && yaml.contains("seed: 7\n") && yaml.contains("ttl: 30s\n"))

            let test = try CLI.run(["export", "session.jsonl", "--as", "test"], directory: directory)
            #expect(test.status == 0)
            #expect(test.output.contains("import MischiefTesting\n") && test.output.contains(#""shift(+1d)""#))
        }
    }

    /// `--scope` reads a test process instead of a file: one or the other, and a test process that is not there is
    /// the exit of a command that finds no target (3). A file still needs `--as`.
    @Test func aScopeOrAFileAndNoTargetIsSaidSo() throws {
        try withRecording(Self.recording) { directory in
            let environment = ["MISCHIEF_SOCKET_DIR": directory.path]
            let neither = try CLI.run(["export"], environment: environment, directory: directory)
            #expect(neither.status == 64 && neither.error.contains("or --scope"), "\(neither.error)")
            let both = try CLI.run(
                ["export", "session.jsonl", "--scope", "#1"], environment: environment, directory: directory)
            #expect(both.status == 64 && both.error.contains("not both"), "\(both.error)")
            let noForm = try CLI.run(["export", "session.jsonl"], environment: environment, directory: directory)
            #expect(noForm.status == 64 && noForm.error.contains("--as"), "\(noForm.error)")
            let noTarget = try CLI.run(["export", "--scope", "#1"], environment: environment, directory: directory)
            #expect(noTarget.status == 3 && noTarget.output.isEmpty, "\(noTarget.error)")
            #expect(noTarget.error.contains("no target is serving"), "\(noTarget.error)")
        }
    }

    @Test func readsStandardInput() throws {
        try withRecording(Self.recording) { directory in
            let result = try CLI.run(
                ["export", "-", "--as", "env"], input: directory.appendingPathComponent("session.jsonl"))
            #expect(result.status == 0)
            #expect(result.output == "MISCHIEF_SEED=7 MISCHIEF_APPLY='clock.now=shift(+1d)'\n")
        }
    }

    @Test func aBadRecordingIsRefusedWithItsLineAndNothingIsWritten() throws {
        let broken = Self.recording + "{\"kind\": \"applied\"}\n" + Self.recording.split(separator: "\n")[1] + "\n"
        try withRecording(broken) { directory in
            let result = try CLI.run(
                ["export", "session.jsonl", "--as", "profile", "--output", "p.yaml"], directory: directory)
            #expect(result.status == 1)
            #expect(result.error == "error: session.jsonl: line 3: not an event (no \"event\")\n")
            #expect(result.output == "")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("p.yaml").path))
        }
    }

    /// `mischief export` and `mischief replay` check a file's size before reading it: a 100 MB file is refused at
    /// once, not read whole; a device is not a regular file; what a recording holds reaches the terminal escaped.
    @Test func aFileTooLargeOrNotAFileIsRefusedBeforeItIsRead() throws {
        try withRecording(Self.recording) { directory in
            let large = directory.appendingPathComponent("large.jsonl").path
            #expect(FileManager.default.createFile(atPath: large, contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: large))
            try handle.truncate(atOffset: 100 << 20)  // sparse: no disk used
            try handle.close()
            for arguments in [["export", "large.jsonl", "--as", "env"], ["replay", "--dry-run", "large.jsonl"]] {
                let run = try CLI.run(arguments, directory: directory)
                #expect(run.status != 0, "\(arguments)")
                #expect(run.error.contains("holds more than 64 MiB"), "\(arguments): \(run.error)")
            }
            for arguments in [["export", "/dev/zero", "--as", "env"], ["replay", "--dry-run", "/dev/zero"]] {
                let run = try CLI.run(arguments, directory: directory)
                #expect(run.status != 0, "\(arguments)")
                #expect(run.error.contains("not a regular file"), "\(arguments): \(run.error)")
            }
        }
    }

    @Test func aDryRunWritesNoControlFromTheRecording() throws {
        let hostile = Recording(
            header: .init(target: "shop", pid: 1, sessionSeed: 7, started: 1_800_000_000, seams: []),
            entries: [
                .init(
                    event: 1, kind: .applied, seam: "clock.now", source: "con\u{1B}]0;owned\u{7}sole",
                    message: "m", time: 1, wall: 1_800_000_000, call: 4, layer: 1, spec: "shift(\"\u{1B}[2J\")")
            ]
        ).jsonLines
        try withRecording(hostile) { directory in
            let run = try CLI.run(["replay", "--dry-run", "session.jsonl"], directory: directory)
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("\\u001B"), "\(run.output)")
            #expect(!run.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(run.output)")
        }
    }
}

/// The whole road: a demo started with `MISCHIEF_APPLY` and `MISCHIEF_RECORD`, changed by a user, exported as an
/// `env` line that starts a second demo in the state the first one ended in.
@Suite(.oneAtATime) struct ExportRoundTripTests {
    @Test func aRecordedDemosEnvLineStartsAnotherDemoInTheSameState() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-export-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = directory.appendingPathComponent("session.jsonl")
        let first = try await HeadlessDemo.start(
            seed: 23,
            environment: [
                "MISCHIEF_RECORD": session.path, "MISCHIEF_APPLY": "clock.now=shift(+1d); net.request=50% offline",
            ])
        defer { first.kill() }
        #expect(try first.mischief(["revert", "clock.now"]).status == 0)
        first.kill()

        let exported = try CLI.run(["export", session.path, "--as", "env"])
        #expect(exported.status == 0 && exported.error == "", "\(exported.error)")
        let line = exported.output.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix("MISCHIEF_SEED=23 MISCHIEF_APPLY='net.request="), "\(line)")
        // The line as a shell reads it: MISCHIEF_SEED=23 and MISCHIEF_APPLY='…' for the next run.
        let value = String(line.drop { $0 != "'" }.dropFirst().dropLast())

        let second = try await HeadlessDemo.start(seed: 23, environment: ["MISCHIEF_APPLY": value])
        defer { second.kill() }
        #expect(try second.behaviour(of: "clock.now") == nil)
        #expect(try second.behaviour(of: "net.request") == "50%offline")
    }
}
