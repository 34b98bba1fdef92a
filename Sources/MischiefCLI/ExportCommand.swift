import ArgumentParser
import Foundation
import Mischief
import MischiefControl
import MischiefFiles

/// `mischief export`: the state a recording ends in, as a test, a profile file or a `MISCHIEF_APPLY` line; or, with
/// `--scope`, the changes one test of a live test session had from outside it, as a test.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Write a recording, or one test of a live test session, as a Swift test that replays it; or its end state as a profile or MISCHIEF_APPLY line.",
        discussion: """
            Reads a recording (MISCHIEF_RECORD=FILE, or `mischief record`).

            --as test: a Swift Testing test that replays the session in the test's own scope (MischiefTesting's \
            .replaying trait, with the recording embedded as data): each change is made after the same call of its \
            seam as when recorded, and the decisions the calls get are checked against the recorded ones; the \
            first that differs, or a change whose calls never come, fails the test with both values. Tests stay \
            parallel. The test registers the seams it names itself, when it starts, in its registerSeams(in:): \
            give --register with your app's registration function (a (Registry) throws -> Void such as \
            AppSeams.register(in:)), or fill it in; give --body with the code under test, or fill it in; --import \
            names the module they are in.

            --as profile: the layers still applied when it ended, as a YAML profile file (a list, one profile a \
            seed, when the changes have several), each with its seam, spec, seed (its own, else the recording's \
            session seed, so random parts draw what they drew) and time to live (as applied). --as env: \
            MISCHIEF_SEED=… MISCHIEF_APPLY='…', to start a program with that end state.

            What cannot be exported (a change built in code, a layer covered by a newer one on its seam, a guard, \
            a TTL or seed the form cannot carry, an advance of time a test cannot make) is said on standard error \
            and, in a test or profile, in a comment.

            A file that is not a recording is refused with its line; nothing is written, and the exit status is 1.

            --scope NAME|#N|PATTERN, instead of a file: one test of a live test session (MISCHIEF_SERVE=1 swift \
            test), running or ended, read from the test process over its socket (--socket, as `mischief list` finds \
            it) while it runs. Its changes from outside it (a console's, `mischief apply --scope`'s), reverted ones \
            too, are exported after the same calls of their seams as they came in the test, each with its spec, \
            source and seed, so the test that failed under them fails the same way again in a test of its own \
            (--as test by default; its name is the test's unless --name gives one). Its own layers (its traits') \
            are in its code and not exported; no decisions are checked. A pattern that names several tests names \
            them and exports none: give one's number (#N, as `mischief list` prints it). Exit status 1 when no test \
            matches, 3 when no test process is found.
            """
    )

    /// The forms `--as` takes.
    enum Form: String, ExpressibleByArgument, CaseIterable {
        case test, profile, env

        var format: RecordingExport.Format {
            switch self {
            case .test: .test
            case .profile: .profile
            case .env: .env
            }
        }
    }

    @Argument(help: "The recording (JSON Lines), or - for standard input; none with --scope.")
    var file: String?

    @Option(
        name: .customLong("as"), help: ArgumentHelp("What to write (with --scope: test by default).", valueName: "form")
    )
    var form: Form?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Export one test of a running live test session instead of a recording: its number (#N), its name or a pattern (* any text, ? one character).",
            valueName: "name|#N|pattern"))
    var scope: String?

    @Option(
        name: .long,
        help:
            "The profile's name, or the test's display name (default: Recorded TARGET; with --scope, the test's name).")
    var name: String?

    @Option(
        name: .long,
        help: "For a test: the Swift expression of the registry its seams are registered in (default: Registry.shared)."
    )
    var registry: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "For a test: a Swift function (Registry) throws -> Void that registers the seams the recording names, called when the test starts (default: a registerSeams(in:) to fill in).",
            valueName: "function"))
    var register: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "For a test: Swift statements that run the code under test, making the calls the recording numbered (default: a comment to replace).",
            valueName: "code"))
    var body: String?

    @Option(
        name: .customLong("import"),
        help: ArgumentHelp(
            "For a test: a module it imports besides Mischief's, such as the app's, where --register and --body are declared (may repeat).",
            valueName: "module"))
    var imports: [String] = []

    @Option(name: [.short, .long], help: "Write to this file instead of standard output.")
    var output: String?

    @OptionGroup var target: TargetOptions

    func validate() throws {
        switch (file, scope) {
        case (nil, nil): throw ValidationError("give a recording to export, or --scope and the test to export")
        case (_?, _?): throw ValidationError("give a recording or --scope, not both")
        case (_?, nil) where form == nil: throw ValidationError("Missing expected argument '--as <form>'")
        default: break
        }
        if file != nil, target.socket != nil {
            throw ValidationError(
                "--socket names the test process to read --scope from; a recording is read from its file")
        }
    }

    func run() async throws {
        let recording: Recording
        var name = self.name
        if let scope {
            let (read, test) = try await Self.recording(ofScope: scope, target: target)
            recording = read
            name = name ?? test
        } else {
            recording = try Self.recording(file: file ?? "-")
        }
        let form = self.form ?? .test
        let export = RecordingExport(recording)
        let exported = export.text(
            as: form.format, name: name, registry: registry, register: register, body: body, imports: imports)
        var standardError = StandardError()
        for note in export.notes(for: form.format) { print("warning: not exported: \(note)", to: &standardError) }
        if let output {
            do {
                try Data(exported.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                printError("cannot write \(output): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        } else {
            print(exported, terminator: "")
        }
    }

    /// The recording in the file at `path` (standard input for `-`), or an exit with status 1 that says why not.
    static func recording(file: String) throws -> Recording {
        let text: String
        do throws(FileReadFailure) {
            text = try Self.read(file)
        } catch {
            printError("cannot read \(file): \(error.detail(workingDirectory: true))")
            throw ExitCode(1)
        }
        do throws(RecordingError) {
            return try Recording(jsonLines: text)
        } catch {
            printError("\(file == "-" ? "standard input" : file): \(error)")
            throw ExitCode(1)
        }
    }

    /// The largest recording `mischief export` and `mischief replay` read: 64 MiB (a long session with decisions).
    static let largestFile = 64 << 20

    /// The text of the regular file at `path` (or standard input for `-`), refused when it holds more than
    /// ``largestFile`` bytes: a file's size is checked before it is read, standard input is read no further.
    static func read(_ path: String) throws(FileReadFailure) -> String {
        guard path == "-" else { return String(decoding: try FileReader.read(path, limit: largestFile), as: UTF8.self) }
        var data = Data()
        while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 16), !chunk.isEmpty {
            data += chunk
            if data.count > largestFile { throw .tooLarge(largestFile) }
        }
        return String(decoding: data, as: UTF8.self)
    }
}
