import Foundation
import MischiefTestSupport
import Testing

/// `mischief attach` on a target that does not answer when it starts: an error like the other commands' (exit 3,
/// the reason on standard error), before the full-screen console takes the terminal.
///
/// The console runs on a terminal of its own, given by script(1) (util-linux), which copies to its standard output
/// everything the console writes to the terminal; the console's standard error goes to a file.
@Suite(.oneAtATime) struct AttachStartTests {
    @Test func aSocketThatDoesNotAnswerIsAnErrorBeforeTheScreenOpens() async throws {
        let directory = try HeadlessDemo.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("nonexistent.sock").path

        let attach = try await Self.onTerminal(["attach", socket], in: directory)
        let apply = try HeadlessDemo.mischief(["apply", "clock.now", "shift(1d)", "--socket", socket], in: directory)

        #expect(attach.status == 3, "exit status of attach; on the terminal:\n\(Poll.ascii(attach.terminal))")
        #expect(attach.error.hasPrefix("error: no target answers on \(socket): "), "\(attach.error)")
        #expect(attach.error == apply.error, "the same message as apply --socket")
        #expect(apply.status == 3)
        #expect(!attach.terminal.contains("\u{1B}[?1049h"), "the alternate screen was never entered")
    }

    /// What `mischief <arguments>` did on a terminal: its exit status, what it wrote to the terminal (standard output)
    /// and to standard error.
    struct TerminalRun {
        let status: Int32
        let terminal: String
        let error: String
    }

    /// Runs `mischief <arguments>` in `directory` on a pseudo-terminal of script(1), waiting up to 20 s for it.
    static func onTerminal(_ arguments: [String], in directory: URL) async throws -> TerminalRun {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw Poll.Failure(
                description: "script(1) is needed to give mischief a terminal (apt-get install bsdutils)")
        }
        let errorFile = directory.appendingPathComponent("attach.err")
        let command =
            ([CLI.binary.path] + arguments).map(ConsoleInTmux.quoted).joined(separator: " ") + " 2> "
            + ConsoleInTmux.quoted(errorFile.path)
        let environment = HeadlessDemo.environment(in: directory).merging(
            ["TERM": "xterm-256color", "SHELL": "/bin/sh"]) { $1 }
        // -e: script exits with the command's status; /dev/null: no typescript file, the copy goes to stdout.
        let running = try ChildProcess.start(
            script, ["-q", "-e", "-c", "exec " + command, "/dev/null"], environment: environment,
            directory: directory, output: directory.appendingPathComponent("script.out"),
            error: directory.appendingPathComponent("script.err"))
        defer { running.kill() }
        let status: Int32
        do {
            status = try await running.waitForExit(timeout: .seconds(20))
        } catch {
            throw Poll.Failure(
                description: "mischief \(arguments.joined(separator: " ")) did not end; on its terminal:\n"
                    + Poll.ascii(running.outputText))
        }
        let error = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return TerminalRun(status: status, terminal: running.outputText, error: error)
    }
}
