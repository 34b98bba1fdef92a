import Foundation
import MischiefTestSupport
import Testing

/// `system.clock` in a process of its own (`mischief-system-probe`, as the rebinding is process-wide): code written
/// without Mischief sees every action and then the real time; timeouts, sleeps and Mischief's own clock stay exact.
@Suite(.oneAtATime) struct SystemClockEndToEndTests {
    /// The built probe, next to the test runner.
    static var probe: URL {
        CLI.binary.deletingLastPathComponent().appendingPathComponent("MischiefSystemProbe")
    }

    /// Runs the probe with `arguments` in a process of its own and returns its output, once it has ended with 0 (an
    /// expectation names the checks that failed otherwise).
    static func runProbe(_ arguments: [String], timeout: Duration) async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("system-probe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let probe = try ChildProcess.start(
            Self.probe, arguments, environment: [:], output: directory.appendingPathComponent("out"),
            error: directory.appendingPathComponent("err"))
        defer { probe.kill() }
        let status = try await probe.waitForExit(timeout: timeout)
        let output = probe.outputText
        let failed = output.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(
            status == 0,
            "the probe \(arguments) failed \(failed.count) checks:\n\(failed.joined(separator: "\n"))\n\(probe.errorText)"
        )
        return output
    }

    @Test func codeWrittenWithoutMischiefSeesTheSystemClockAndTimeoutsStayExact() async throws {
        let output = try await Self.runProbe([], timeout: .seconds(120))
        #expect(output.contains("failures: 0"))
        // Each kind of reading was checked under each action.
        for action in ["shift(+1d)", "freeze(2030-01-01)", "reverted", "uninstalled"] {
            #expect(output.contains("ok \(action): Date()"), "no Date() check under \(action)")
            #expect(output.contains("ok \(action): time()"), "no time() check under \(action)")
        }
    }
}

extension SystemClockEndToEndTests {
    /// Eight threads read the clock through every rebound slot and connect to a loopback listener (by name through
    /// getaddrinfo, and by address) while system.clock and system.net are applied and reverted 1,000 rounds,
    /// installed and uninstalled every ten (Scripts/sanitize-thread.sh runs 10,000 under ThreadSanitizer): every
    /// reading and connection is one the seams could give, each round sees what it applied, and every slot of the
    /// five functions ends as it began.
    @Test func readersOnEightThreadsSeeOnlyWhatTheSeamGivesWhileItIsInstalledAndUninstalled() async throws {
        let output = try await Self.runProbe(["--stress", "1000"], timeout: .seconds(300))
        #expect(output.contains("ok every one of"), "\(output)")
        #expect(output.contains("stress: 1000 rounds"), "\(output)")
    }
}

/// `mischief demo --headless --system`, driven with the CLI as a user would: the plain `Date()` line of the demo's
/// screen follows `system.clock`, and its plain fetch line (URLSession with no MischiefNetwork) follows `system.net`.
@Suite(.oneAtATime) struct SystemDemoEndToEndTests {
    /// The demo's `System date (plain Date())` line, as `GET /v1/target/view` shows it.
    static func systemDate(_ demo: HeadlessDemo) throws -> String? {
        let view = try demo.get("target/view") as? [String: Any]
        let lines = (view?["lines"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
        return lines.first { $0.hasPrefix("System date (plain Date()): ") }?
            .dropFirst("System date (plain Date()): ".count).description
    }

    /// The demo's `Plain fetch (URLSession, no MischiefNetwork)` line after its prefix, as `GET /v1/target/view`
    /// shows it: `200 OK in 3 ms`, `failed: connection refused`, `waiting`.
    static func plainFetch(_ demo: HeadlessDemo) throws -> String? {
        let prefix = "Plain fetch (URLSession, no MischiefNetwork): "
        let view = try demo.get("target/view") as? [String: Any]
        let lines = (view?["lines"] as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
        return lines.first { $0.hasPrefix(prefix) }?.dropFirst(prefix.count).description
    }

    /// The UTC date `days` from now, as the demo writes it.
    static func utcDate(inDays days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.dateComponents(
            [.year, .month, .day], from: Date().addingTimeInterval(Double(days) * 86_400))
        return String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    }

    @Test func applyingAShiftToSystemClockMovesThePlainDateLine() async throws {
        let demo = try await HeadlessDemo.start(arguments: ["--system"])
        defer { demo.kill() }
        _ = try await Poll.until("the report on standard error", lastSeen: { demo.process.errorText }) {
            demo.process.errorText.contains("system.clock rebound: ") ? true : nil
        }
        let list = try demo.mischief(["list", "--socket", demo.socket])
        #expect(list.output.contains("system.clock"), "system.clock is listed:\n\(list.output)")
        #expect(list.output.contains("system.net"), "system.net is listed:\n\(list.output)")
        // What each reaches, under its row: coverage library by library, and what they never change.
        for line in [
            "libFoundationEssentials.so", "not rebound: libdispatch.so (never by default", "not chosen (name one",
            "never changed: monotonic and boot clocks", "may hide a change: libcurl keeps DNS answers",
        ] {
            #expect(list.output.contains(line), "\(line) in:\n\(list.output)")
        }
        _ = try await Poll.until("the plain Date() line", lastSeen: { (try? Self.systemDate(demo)) ?? "none" }) {
            try Self.systemDate(demo) == Self.utcDate(inDays: 0) ? true : nil
        }
        let applied = try demo.mischief(["apply", "--socket", demo.socket, "system.clock", "shift(+1d)"])
        #expect(applied.status == 0, "\(applied.error)")
        _ = try await Poll.until(
            "tomorrow on the plain Date() line", lastSeen: { (try? Self.systemDate(demo)) ?? "none" }
        ) {
            try Self.systemDate(demo) == Self.utcDate(inDays: 1) ? true : nil
        }
        let reverted = try demo.mischief(["revert", "--socket", demo.socket, "system.clock"])
        #expect(reverted.status == 0, "\(reverted.error)")
        _ = try await Poll.until(
            "today again on the plain Date() line", lastSeen: { (try? Self.systemDate(demo)) ?? "none" }
        ) {
            try Self.systemDate(demo) == Self.utcDate(inDays: 0) ? true : nil
        }
    }

    @Test func refusingSystemNetFailsThePlainFetchAndRevertingBringsItBack() async throws {
        let demo = try await HeadlessDemo.start(arguments: ["--system"])
        defer { demo.kill() }
        let seen = { (try? Self.plainFetch(demo)) ?? "no plain fetch line" }
        _ = try await Poll.until("a 200 on the plain fetch line", lastSeen: seen) {
            try Self.plainFetch(demo)?.hasPrefix("200 OK in ") == true ? true : nil
        }
        // The demo fetches from its own server on 127.0.0.1; a rule for that address refuses its connects.
        let applied = try demo.mischief([
            "apply", "--socket", demo.socket, "system.net", #"refused(host: "127.0.0.1")"#,
        ])
        #expect(applied.status == 0, "\(applied.error)")
        _ = try await Poll.until("connection refused on the plain fetch line", lastSeen: seen) {
            try Self.plainFetch(demo) == "failed: connection refused" ? true : nil
        }
        let reverted = try demo.mischief(["revert", "--socket", demo.socket, "system.net"])
        #expect(reverted.status == 0, "\(reverted.error)")
        _ = try await Poll.until("a 200 again on the plain fetch line", lastSeen: seen) {
            try Self.plainFetch(demo)?.hasPrefix("200 OK in ") == true ? true : nil
        }
    }
}

/// A target installs the system seams before its server starts (`SystemSeams.install`), and its task pool is then
/// blocked for good; the CLI lists them with what they cover and changes them through the control socket, which
/// `system.net` never touches.
@Suite(.oneAtATime) struct SystemSeamsServerEndToEndTests {
    @Test func aServerInstallsTheSystemSeamsAndTheCLIDrivesThemThroughABlockedTarget() async throws {
        let demo = try await HeadlessDemo.startBlockingItsTaskPool(arguments: ["--system"])
        defer { demo.kill() }
        let list = try demo.mischief(["list", "--socket", demo.socket, "--json"])
        #expect(list.status == 0, "\(list.error)")
        let listings = try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]]
        let seams = (listings?.first?["seams"] as? [[String: Any]]) ?? []
        let clock = seams.first { $0["id"] as? String == "system.clock" }
        let net = seams.first { $0["id"] as? String == "system.net" }
        let clockNotes = clock?["notes"] as? [String] ?? []
        #expect(clockNotes.first?.hasPrefix("rebound: ") == true, "system.clock's coverage: \(clockNotes)")
        #expect(clockNotes.first?.contains("libFoundationEssentials.so") == true, "\(clockNotes)")
        #expect((net?["notes"] as? [String])?.contains { $0.hasPrefix("never changed: AF_UNIX") } == true)
        // Other seams send no notes.
        #expect(seams.filter { $0["notes"] != nil }.count == 2, "only the system seams have notes")
        for spec in [("system.net", "refused"), ("system.clock", "shift(+1d)")] {
            let applied = try demo.mischief(["apply", "--socket", demo.socket, spec.0, spec.1])
            #expect(applied.status == 0, "apply \(spec): \(applied.error)")
        }
        #expect(try demo.behaviour(of: "system.net") == "refused")
        #expect(try demo.behaviour(of: "system.clock") == "shift(1d)")
        let reverted = try demo.mischief(["revert", "--socket", demo.socket, "--all"])
        #expect(reverted.status == 0, "\(reverted.error)")
        #expect(try demo.behaviour(of: "system.net") == nil)
    }
}

extension SystemDemoEndToEndTests {
    /// Scripts and the README read the socket path from the first line of `mischief demo --headless`; with `--system`
    /// the system seams' report came first, a 1.5 KB line on standard error. Now, with both streams in one file
    /// (`2>&1`), the socket path is the first line and the report follows a line a family, wrapped at 100 columns.
    @Test func theSocketPathIsTheFirstLineEvenWithTheSystemReport() async throws {
        let directory = try HeadlessDemo.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("demo.sock").path
        let both = directory.appendingPathComponent("both.out")
        let demo = try ChildProcess.start(
            CLI.binary, ["demo", "--headless", "--system", "--socket", socket, "--seed", "11"],
            environment: HeadlessDemo.environment(in: directory), directory: directory, output: both, error: both)
        defer { demo.kill() }
        let text = try await Poll.until("the demo to say how to attach", lastSeen: { demo.outputText }) {
            () -> String? in
            if let status = demo.exited() {
                throw Poll.Failure(description: "the demo exited with \(status): \(demo.outputText)")
            }
            return demo.outputText.contains("mischief attach ") ? demo.outputText : nil
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == socket, "the first line:\n\(text)")
        #expect(lines.contains { $0.hasPrefix("system.clock rebound: ") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("system.net rebound: ") }, "\(text)")
        let long = lines.filter { $0.count > 100 && !$0.contains(socket) }
        #expect(long.isEmpty, "lines over 100 columns:\n\(long.joined(separator: "\n"))")
    }
}
