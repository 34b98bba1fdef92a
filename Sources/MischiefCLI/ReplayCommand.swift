import ArgumentParser
import Foundation
import Mischief
import MischiefControl

/// `mischief replay FILE`: make a recorded session again in a running target, at the same call numbers.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded session in a running target: the same changes after the same calls.",
        discussion: """
            The target resets its counters, then applies and reverts each recorded layer after the same call of its \
            seam (at its time since the recording began for a seam not called yet, and for advances of time), with \
            the same spec, seed, source and TTL. It returns once the last step is made, leaving the final state \
            applied. When the recording has decisions (which layer answered each chaos call, and with what), the \
            replay's calls must get the same ones: per seam, between two of its steps, in call order or, with \
            several threads calling it, as the same set. Exit 0 when every step and decision matched; 1 with the \
            first divergence (a seam that is missing, a spec that no longer applies, a seed that does not \
            reproduce, a decision that differs, calls that never came), both values and how far it matched. \
            --dry-run prints the schedule without a target.
            """)

    @Argument(help: "The recording (JSON Lines, from MISCHIEF_RECORD or mischief record).")
    var file: String

    @Flag(name: .long, help: "Print the schedule (each step's seam, when and what) without applying anything.")
    var dryRun = false

    @Option(
        name: .long,
        help:
            "Seconds the target waits for the calls a step needs before it counts as diverged (default: from the recording: its last step's recorded time × 1.5 plus 30 s, at least 60)."
    )
    var timeout: Double?

    @OptionGroup var target: TargetOptions

    func validate() throws {
        if let timeout, !(timeout > 0 && timeout <= 86_400) {
            throw ValidationError("--timeout takes 0 < seconds ≤ 86400")
        }
    }

    func run() async throws {
        var text: String
        do throws(FileReadFailure) {
            text = String(decoding: try FileReader.read(file, limit: ExportCommand.largestFile), as: UTF8.self)
        } catch {
            printError("cannot read \(file): \(error.detail(workingDirectory: true))")
            throw TargetExit.refused
        }
        let recording: Recording
        let schedule: ReplaySchedule
        do {
            recording = try Recording(jsonLines: text)
            schedule = try ReplaySchedule(recording)
        } catch {
            printError("\(file): \(error)")
            throw TargetExit.refused
        }
        if dryRun {
            print(schedule.steps.isEmpty ? "nothing to replay" : schedule.description)
            return
        }
        if text.utf8.count > ControlAPI.maxBodyBytes,
            let (trimmed, kept) = recording.keepingDecisions(
                within: ControlAPI.maxBodyBytes), kept < recording.decisions.count
        {
            // The control API takes 1 MiB a request: the events go whole, the decisions as far as they fit.
            printError(
                "\(file) is over the \(ControlAPI.maxBodyBytes >> 20) MiB a request to a target carries: comparing "
                    + "its first \(kept) of \(recording.decisions.count) decisions")
            text = trimmed.jsonLines
        }
        let client = try await target.connect()
        let wait = timeout.map { Duration.milliseconds(Int64($0 * 1000)) }
        let outcome = try await talking { () async throws(ControlClientError) in
            try await client.replay(jsonLines: text, timeout: wait)
        }
        guard let divergence = outcome.divergence else {
            print(outcome.description)
            return
        }
        printError(divergence.description)
        throw TargetExit.refused
    }
}
