import ArgumentParser
import Foundation
import Mischief
import MischiefControl

/// `mischief record FILE`: save a running target's recording of its session.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Save a running target's recording of its session to a file (JSON Lines).",
        discussion: """
            A control server records every event from its start, in memory: each change with its seam's call number, \
            its spec, seed and time to live. The file is what MISCHIEF_RECORD writes as it happens; read it with jq, \
            replay it with `mischief replay`, or turn it into a test with `mischief export`. FILE `-` writes to \
            standard output.
            """)

    @Argument(help: "Where to write the recording (`-`: standard output).")
    var file: String

    @OptionGroup var target: TargetOptions

    func run() async throws {
        let client = try await target.connect()
        let recording = try await talking { () async throws(ControlClientError) in try await client.recording() }
        let text = recording.jsonLines
        if file == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do {
            // Whole or not at all: written beside the file, then renamed over it.
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            printError("cannot write \(file): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        let dropped = recording.header.dropped.map { "; \($0) later events were not kept (the target's bound)" } ?? ""
        print(
            "recorded \(counted(recording.entries.count, "event")) of \(recording.header.target) to \(file)\(dropped)")
    }
}
