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

    @Test func codeWrittenWithoutMischiefSeesTheSystemClockAndTimeoutsStayExact() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("system-probe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let probe = try ChildProcess.start(
            Self.probe, [], environment: [:], output: directory.appendingPathComponent("out"),
            error: directory.appendingPathComponent("err"))
        defer { probe.kill() }
        let status = try await probe.waitForExit(timeout: .seconds(120))
        let output = probe.outputText
        let failed = output.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(status == 0, "the probe failed \(failed.count) checks:\n\(failed.joined(separator: "\n"))\n\(probe.errorText)")
        #expect(output.contains("failures: 0"))
        // Each kind of reading was checked under each action.
        for action in ["shift(+1d)", "freeze(2030-01-01)", "reverted", "uninstalled"] {
            #expect(output.contains("ok \(action): Date()"), "no Date() check under \(action)")
            #expect(output.contains("ok \(action): time()"), "no time() check under \(action)")
        }
    }
}
