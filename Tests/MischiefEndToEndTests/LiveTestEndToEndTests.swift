import Foundation
import MischiefTestSupport
import Testing

/// Live test sessions end to end (issue 49): `Examples/LiveTestSample`'s slow, parallel Swift Testing tests run with
/// `MISCHIEF_SERVE=1 swift test` in tmux; the `mischief` CLI finds the test process by its bundle's name, lists each
/// running test as a scope, fails one test by changing its scope alone, holds another at a breakpoint while a third
/// finishes, and the failing test's output names the change it had from outside, with its spec, seed and source, and
/// the command that exports its scope as a test: that export, written into the sample's `WarehouseRegressionTests`,
/// builds and fails with the same error (a pattern naming no test, or several, exports none and says which). The
/// console attached lists the tests, sends a pause to one test alone (`n`, then the palette), and when it quits (`q`)
/// its pause is reverted and the suite runs on.
///
/// It needs the sample built (`Examples/LiveTestSample/run-e2e.sh` builds it, then runs this suite); without it the
/// suite is skipped and says so.
@Suite(.oneAtATime, .whenTheLiveSampleIsBuilt)
struct LiveTestEndToEndTests {
    @Test func aChangeToOneTestsScopeFailsThatTestAloneAndABreakpointHoldsOneWhileAnotherFinishes() async throws {
        let run = try LiveSample.Run()
        defer { run.stop() }
        // Three tests, each running while the others do.
        let started = try await run.waitForScopes("the three tests to run as scopes") { scopes in
            scopes.filter { $0.status == "running" }.count == 3 ? scopes : nil
        }
        #expect(Set(started.map(\.name)) == ["countsApples()", "countsPears()", "shelvesPlums()"])
        // A trait's layer is the test's own: no source.
        let plums = try #require(started.first { $0.name == "shelvesPlums()" })
        #expect(
            plums.layers.contains { $0.seam == "warehouse.shelf" && $0.spec == #"return("B2")"# && $0.source == nil })

        // One test's scope: that test fails, the others do not see it.
        let applied = try run.mischief(["apply", "warehouse.stock", #"throw("offline")"#, "--scope", "*Apples*"])
        #expect(applied.status == 0, "\(applied.error)")
        #expect(applied.output.contains(#"warehouse.stock: throw("offline") in test #"#), "\(applied.output)")
        let apples = try await run.waitForScopes("countsApples() to fail") { scopes in
            scopes.first { $0.name == "countsApples()" && $0.status == "failed" }
        }

        // Its scope exported as a test while the process runs (what its failure says to do): the change after the
        // same call of its seam. A pattern that names no test, or several, names the tests and exports none.
        let unknown = try run.mischief(["export", "--scope", "zz*"])
        #expect(unknown.status == 1, "\(unknown.output)")
        #expect(unknown.error.contains("no test of \(LiveSample.bundle) matches 'zz*'"), "\(unknown.error)")
        #expect(unknown.error.contains("#\(apples.id) failed  countsApples()"), "\(unknown.error)")
        let several = try run.mischief(["export", "--scope", "*"])
        #expect(several.status == 1 && several.output.isEmpty, "\(several.output)")
        #expect(several.error.contains("'*' names 3 tests of \(LiveSample.bundle)"), "\(several.error)")
        let exported = try run.mischief(
            [
                "export", "--scope", "countsApples()", "--import", "Warehouse", "--register",
                "Warehouse.registerSeams(in:)", "--body", LiveSample.regressionBody,
            ])
        #expect(exported.status == 0, "\(exported.error)")
        let afterCall = try #require(apples.outside.first?.call, "the change says after which call it came")
        #expect(
            exported.output.contains("warehouse.stock after call \(afterCall): apply throw(\"offline\")"),
            "\(exported.output)")

        // The console attached: it lists the tests; `n` sends its changes to countsPears() alone, where a pause is a
        // breakpoint on that test while the others run on and finish.
        try run.attachConsole()
        _ = try await run.waitForConsole("the console to list the tests") { $0.contains(" running · to ") ? true : nil }
        let pearsID = try #require(started.first { $0.name == "countsPears()" }?.id)
        for _ in 0...started.count {
            if run.console.contains("▶ #\(pearsID) running") { break }
            try run.tmux.send("console", keys: "n")
            _ = try? await run.waitForConsole("test #\(pearsID) chosen", timeout: .seconds(3)) { screen in
                screen.contains("▶ #\(pearsID) running") ? true : nil
            }
        }
        #expect(run.console.contains("▶ #\(pearsID) running"), "\(Poll.ascii(run.console))")
        try run.tmux.send("console", keys: ":")
        try run.tmux.send("console", keys: "-l", "apply warehouse.stock pause(max: 5m)")
        try run.tmux.send("console", keys: "Enter")
        _ = try await run.waitForScopes("countsPears() to be held by the console's pause") { scopes in
            scopes.first { $0.name == "countsPears()" && $0.held > 0 }
        }
        let whileHeld = try await run.waitForScopes("shelvesPlums() to pass while countsPears() is held") { scopes in
            scopes.first { $0.name == "shelvesPlums()" && $0.status == "passed" } != nil ? scopes : nil
        }
        let pears = try #require(whileHeld.first { $0.name == "countsPears()" })
        #expect(pears.status == "running" && pears.held == 1)
        #expect(pears.layers.contains { $0.spec.hasPrefix("pause") && $0.source != nil }, "\(pears.layers)")
        // The breakpoint in the seam's detail: the test that holds the call, and the call's input.
        let screen = try await run.waitForConsole("the console to show the held call in its test, and the passed one") {
            screen in
            screen.contains("1 held") && screen.contains("passed")
                && screen.contains("held in test #\(pearsID) countsPears()") && screen.contains(#"held "pear""#)
                ? screen : nil
        }
        run.keepCapture(screen)
        let listed = try run.mischief(["list"])
        #expect(listed.output.contains("TESTS"), "\(listed.output)")
        #expect(listed.output.contains(#"        held "pear""#), "the held call's input: \(listed.output)")

        // `q`: the console goes, its pause with it (the held call goes on), and the suite runs on.
        try run.tmux.send("console", keys: "q")
        _ = try await run.waitForScopes("the console's pause to be reverted when it quits") { scopes in
            // A console with changes not saved in a recording asks for a second `q`.
            if run.console.contains("not saved") { try? run.tmux.send("console", keys: "q") }
            return scopes.first { $0.name == "countsPears()" && $0.layers.isEmpty && $0.held == 0 }
        }

        // The suite ends: apples failed with the change it had, pears and plums passed.
        let output = try await run.waitForEnd()
        #expect(try run.mischief(["list"]).status != 0, "the test process has gone, and its socket with it")
        #expect(output.contains("countsPears()\" passed") || output.contains("countsPears() passed"), "\(output)")
        #expect(output.contains("shelvesPlums()\" passed") || output.contains("shelvesPlums() passed"), "\(output)")
        #expect(output.contains("countsApples()\" failed") || output.contains("countsApples() failed"), "\(output)")
        #expect(output.contains("Mischief: this test ran with 1 change from outside it"), "\(output)")
        #expect(output.contains(#"warehouse.stock: throw("offline") from "#), "\(output)")
        #expect(output.contains(#".mischief("warehouse.stock", "throw(\"offline\")")"#), "\(output)")
        #expect(
            output.contains(
                "mischief export --scope '#\(apples.id)' --socket \(LiveSample.bundle) --output CountsApplesRegressionTests.swift"
            ),
            "\(output)")

        // The exported test, in the sample's regression target: it compiles, and fails as the test did.
        let regression = try await LiveSample.runRegressionTest(exported.output)
        #expect(regression.status != 0, "it failed as the test did:\n\(regression.output)")
        #expect(regression.output.contains("countsApples() with its changes from outside"), "\(regression.output)")
        #expect(regression.output.contains("offline"), "\(regression.output)")
        #expect(!regression.output.contains("The replay of the recording"), "no divergence:\n\(regression.output)")
    }
}

/// `Examples/LiveTestSample`, its built tests and a run of them in tmux.
enum LiveSample {
    /// The sample package's directory.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/LiveTestSample")
    /// The test bundle's name, which the test process serves under.
    static let bundle = "LiveTestSamplePackageTests"

    /// Whether the sample's tests are built (`run-e2e.sh` builds them), so `swift test --skip-build` runs them.
    static var isBuilt: Bool {
        FileManager.default.isExecutableFile(
            atPath: directory.appendingPathComponent(".build/debug/\(bundle).xctest").path)
    }

    /// A target as `mischief list --json` prints it (its scopes only).
    struct Listing: Decodable { let scopes: [Scope]? }

    /// The code the test exported from countsApples()'s scope runs: what countsApples() does, with more counts than
    /// the test made before its change came, none of them slow.
    static let regressionBody = """
        let counts = try await Warehouse.takeStock(of: "apple", rounds: 500, every: .zero)
        #expect(counts.allSatisfy { $0 == 50 })
        """

    /// Writes `test` into the sample's regression target, builds the sample's tests (an incremental build: the
    /// sample is built) and runs that target's tests; removes the file after. Returns how `swift test` ended.
    static func runRegressionTest(_ test: String) async throws -> (status: Int32, output: String) {
        let file = directory.appendingPathComponent("Tests/WarehouseRegressionTests/CountsApplesRegressionTests.swift")
        try test.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("regression-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        func swift(_ arguments: [String]) async throws -> (status: Int32, output: String) {
            let running = try ChildProcess.start(
                URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + arguments + ["--package-path", directory.path],
                environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MISCHIEF_") },
                output: log, error: log)
            let status = try await running.waitForExit(timeout: .seconds(600))
            return (status, running.outputText)
        }
        let built = try await swift(["build", "--build-tests"])
        guard built.status == 0 else {
            Issue.record("the exported test did not build:\n\(built.output.suffix(4_000))")
            return built
        }
        return try await swift(["test", "--skip-build", "--filter", "WarehouseRegressionTests"])
    }

    /// A scope as `mischief list --json` prints it (the fields this suite reads).
    struct Scope: Decodable {
        struct Layer: Decodable {
            let seam: String
            let spec: String
            let source: String?
            let call: Int?
        }
        struct Counts: Decodable {
            let seam: String
            let calls: Int
            let held: Int
        }
        let id: Int
        let name: String
        let status: String
        let layers: [Layer]
        let outside: [Layer]
        let seams: [Counts]
        var held: Int { seams.reduce(0) { $0 + $1.held } }
    }

    /// `MISCHIEF_SERVE=1 swift test --skip-build` of the sample in tmux, its output kept in a file, its sockets in a
    /// directory of its own.
    final class Run {
        let tmux: TmuxServer
        let sockets: URL
        let log: URL
        let status: URL

        init() throws {
            tmux = try TmuxServer()
            sockets = URL(fileURLWithPath: "/tmp/mischief-live-\(UUID().uuidString.prefix(8))")
            // Private, as a socket directory must be.
            try FileManager.default.createDirectory(
                at: sockets, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            log = sockets.appendingPathComponent("tests.log")
            status = sockets.appendingPathComponent("status")
            let command = """
                cd '\(LiveSample.directory.path)' && env MISCHIEF_SERVE=1 LIVE_SAMPLE_SECONDS=12 \
                MISCHIEF_SOCKET_DIR='\(sockets.path)' swift test --skip-build --filter 'WarehouseTests\\.' 2>&1 \
                | tee '\(log.path)'; \
                echo done > '\(status.path)'; sleep 600
                """
            try tmux.start(session: "tests", width: 160, height: 50, command: ["sh", "-c", command])
        }

        /// Runs the built `mischief` with the sample's socket directory and `--socket` naming the test bundle
        /// (`list` takes it as a name too).
        func mischief(_ arguments: [String]) throws -> CLI.Result {
            try CLI.run(
                arguments + ["--socket", LiveSample.bundle], environment: ["MISCHIEF_SOCKET_DIR": sockets.path])
        }

        /// Waits until `mischief list --json` shows scopes `probe` accepts.
        func waitForScopes<Value>(
            _ what: String, timeout: Duration = .seconds(120), probe: ([Scope]) -> Value?
        ) async throws -> Value {
            var last = ""
            return try await Poll.until(what, timeout: timeout, interval: .milliseconds(200), lastSeen: { last }) {
                let listed = try? mischief(["list", "--json"])
                last = (listed?.output ?? "") + (listed?.error ?? "") + "\n--- tests:\n" + tail()
                guard let listed, listed.status == 0,
                    let listings = try? JSONDecoder().decode([Listing].self, from: Data(listed.output.utf8)),
                    let scopes = listings.first?.scopes
                else { return nil }
                return probe(scopes)
            }
        }

        /// Starts `mischief attach` on the test process in a tmux session of its own (`console`), 120×40.
        func attachConsole() throws {
            let directory = sockets.path
            let command = """
                cd '\(directory)' && env MISCHIEF_SOCKET_DIR='\(directory)' XDG_CONFIG_HOME='\(directory)' \
                XDG_STATE_HOME='\(directory)' TERM=xterm-256color '\(CLI.binary.path)' attach --socket \
                \(LiveSample.bundle); sleep 600
                """
            try tmux.start(session: "console", width: 120, height: 40, command: ["sh", "-c", command])
        }

        /// The console's screen now.
        var console: String { tmux.screen("console") }

        /// Waits until the console's screen shows what `probe` looks for.
        func waitForConsole<Value>(
            _ what: String, timeout: Duration = .seconds(60), probe: (String) -> Value?
        ) async throws -> Value {
            try await tmux.wait(for: what, in: "console", timeout: timeout, probe: probe)
        }

        /// Writes the console's screen where `LIVE_TEST_CAPTURE` names (the testing article's capture), if it does.
        func keepCapture(_ screen: String) {
            guard let path = ProcessInfo.processInfo.environment["LIVE_TEST_CAPTURE"] else { return }
            try? screen.write(toFile: path, atomically: true, encoding: .utf8)
        }

        /// Waits until the test run ends; returns its output.
        func waitForEnd() async throws -> String {
            _ = try await Poll.until("the test run to end", timeout: .seconds(180), lastSeen: tail) {
                FileManager.default.fileExists(atPath: status.path) ? true : nil
            }
            return (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }

        private func tail() -> String {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? tmux.screen("tests")
            return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(separator: "\n")
        }

        func stop() {
            tmux.kill()
            try? FileManager.default.removeItem(at: sockets)
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only when Examples/LiveTestSample is built, and otherwise says how to build it.
    static var whenTheLiveSampleIsBuilt: Self {
        .enabled(
            if: LiveSample.isBuilt,
            "Examples/LiveTestSample is not built: Examples/LiveTestSample/run-e2e.sh builds it and runs this suite")
    }
}
