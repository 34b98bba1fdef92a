import Foundation
import MischiefTestSupport
import Testing

/// `system.net` in a process of its own (`MischiefSystemProbe --net`, as the rebinding is process-wide), on loopback
/// only: a plain socket client and URLSession (through libcurl) see every action, then the real network; Unix sockets
/// are never affected; uninstall puts every slot back.
@Suite(.oneAtATime) struct SystemNetEndToEndTests {
    @Test func codeWrittenWithoutMischiefSeesSystemNetAndUnixSocketsAreLeftAlone() async throws {
        let output = try await SystemClockEndToEndTests.runProbe(["--net"], timeout: .seconds(180))
        #expect(output.contains("failures: 0"))
        for check in [
            "ok dns(host: \"localhost\")", "ok refused(host: \"localhost\")", "ok hang: a blocking connect",
            "ok hang: a non-blocking connect", "ok latency(by: 200ms)", "ok resolve(host: \"example.invalid\"",
            "ok URLSession: refused(host: \"localhost\") fails", "ok URLSession: dns(host: \"probe.invalid\") fails",
            "ok every one of", "ok uninstalled: URLSession gets 200",
        ] {
            #expect(output.contains(check), "no \(check) line")
        }
        // What libcurl's caches do is recorded, not asserted: it depends on the libcurl version.
        for line in output.split(separator: "\n") where line.hasPrefix("observed") { print(line) }
    }
    /// `MischiefSystemProbe --limits`: a latency too long for the hooks' nanoseconds does not kill the process on its
    /// next connect; a connect sleeping through a latency returns when the layer is reverted or the seams
    /// uninstalled; `shift(+250y)` stops at the latest instant, not wrapping to 1692.
    @Test func noLatencyOrShiftKillsWedgesOrWrapsTheProcess() async throws {
        let output = try await SystemClockEndToEndTests.runProbe(["--limits"], timeout: .seconds(120))
        #expect(output.contains("failures: 0"), "\(output)")
    }
}
