import Dispatch
import Foundation
import MischiefTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `mischief` binary, as a user would.
struct CLI {
    /// The built `mischief` executable.
    static var binary: URL {
        // The test runner lives in the build products directory, next to the executables it depends on.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("mischief")
        if FileManager.default.fileExists(atPath: binary.path) { return binary }
        // Under XCTest's bundle layout the runner sits one level deeper.
        return binary.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("mischief")
    }

    struct Result {
        let status: Int32
        let output: String
        let error: String
    }

    /// Runs the binary with `environment` added to this process's, in `directory` (default: this process's), with
    /// the file `input` as its standard input when given.
    ///
    /// - Throws: `Poll.Failure` naming the command when it has not exited within `timeout` (it is then killed).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil, input: URL? = nil,
        timeout: Duration = .seconds(60)
    ) throws -> Result {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // The deadline: a command that does not exit is killed, which ends the reads below.
        let killed = Mutex(false)
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem {
            killed.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Double(timeout.components.seconds), execute: watchdog)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        if killed.withLock({ $0 }) {
            throw Poll.Failure(
                description: "mischief \(arguments.joined(separator: " ")) did not exit within \(timeout); killed. "
                    + "stderr: \(String(decoding: err, as: UTF8.self))")
        }
        return Result(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            error: String(decoding: err, as: UTF8.self))
    }
}

@Suite(.oneAtATime) struct CLITests {
    @Test func helpListsTheCommands() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("spec"))
        #expect(result.output.contains("  guard ") && result.output.contains("checks that revert chaos"))
    }

    @Test func specCheckPrintsTheCanonicalFormAndExplains() throws {
        let result = try CLI.run(["spec", "check", "50% 3*throw( \"flaky\" )->delay(1000ms)", "--throwing"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("canonical: 50%3*throw(\"flaky\") -> delay(1s)\n"))
        #expect(result.output.contains("on 50% of calls; for the first 3 calls that reach it"))
    }

    @Test func specCheckExplainsAKeyedProbability() throws {
        let result = try CLI.run(["spec", "check", "10% @key 3*throw(\"down\")", "--throwing"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("canonical: 10%@key 3*throw(\"down\")\n"))
        #expect(result.output.contains("for 10% of keys, the same keys every time (never for a call without a key)"))
    }

    @Test func specCheckAgainstACatalogueSeamUsesItsActions() throws {
        let good = try CLI.run(["spec", "check", "--seam", "clock.now", "freeze(2038-01-19T03:14:08Z) + shift(+1d)"])
        #expect(good.status == 0)
        #expect(good.output.contains("canonical: freeze(2038-01-19T03:14:08Z) + shift(1d)"))
        #expect(good.output.contains("shift — "))
        let bad = try CLI.run(["spec", "check", "--seam", "location.current", #"city("Tokio")"#])
        #expect(bad.status == 1)
        #expect(bad.error.contains(#"did you mean "Tokyo"?"#))
        let unknown = try CLI.run(["spec", "check", "--seam", "clok.now", "off"])
        #expect(unknown.status == 64)
        #expect(unknown.error.contains("Did you mean 'clock.now'?"))
    }

    @Test func specCheckShowsWhereAndWhatIsWrong() throws {
        let result = try CLI.run(["spec", "check", "delay(5x)", "--type", "int"])
        #expect(result.status == 1)
        #expect(
            result.error == """
                error: trial.value: invalid duration unit 'x' in '5x'; use ns, us, ms, s, m, h, d, w or y
                  delay(5x)
                        ^

                """)
    }

    @Test func usageErrorsExitWithArgumentParsersCode() throws {
        #expect(try CLI.run(["spec", "check"]).status == 64)
    }

    /// Same seed, same calls, same results: in two separate processes.
    @Test func aSeededRandomSpecGivesTheSameValuesInTwoRuns() throws {
        let arguments = ["spec", "sample", "30%random -> off", "--type", "int", "--count", "12", "--seed", "2026"]
        let first = try CLI.run(arguments)
        let second = try CLI.run(arguments)
        #expect(first.status == 0)
        #expect(first.output == second.output)
        let values = first.output.split(separator: "\n")
        #expect(values.count == 12)
        #expect(values.contains("42") && values.contains { $0 != "42" })
        let other = try CLI.run(["spec", "sample", "30%random -> off", "--type", "int", "--count", "12", "--seed", "7"])
        #expect(other.output != first.output)
    }
}
