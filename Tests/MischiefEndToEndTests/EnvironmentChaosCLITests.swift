import Foundation
import MischiefTestSupport
import Testing

/// `MISCHIEF_APPLY` given to the built `mischief demo --headless`, as a CI job would set it: applied as the demo's
/// seams register and announced on stderr; one entry that does not parse and nothing applies; one that does not fit
/// its seam and what the others applied is reverted, with a problem in the event log.
@Suite(.oneAtATime) struct EnvironmentChaosCLITests {
    @Test func theVariableAppliesAsTheDemosSeamsRegister() async throws {
        let demo = try await HeadlessDemo.start(
            environment: ["MISCHIEF_APPLY": "clock.now=shift(+1d); net.request=50% offline"])
        defer { demo.kill() }
        #expect(try demo.behaviour(of: "clock.now") == "shift(1d)")
        #expect(try demo.behaviour(of: "net.request") == "50%offline")
        let layers = try demo.seam("clock.now")["layers"] as? [[String: Any]]
        #expect(layers?.map { $0["source"] as? String } == ["MISCHIEF_APPLY"])
        #expect(demo.process.errorText.contains("mischief: MISCHIEF_APPLY is active: clock.now=shift(+1d)"))
    }

    @Test func anEntryThatDoesNotParseAppliesNothing() async throws {
        let demo = try await HeadlessDemo.start(environment: ["MISCHIEF_APPLY": "clock.now=shift(+1d); net.request"])
        defer { demo.kill() }
        #expect(try demo.behaviour(of: "clock.now") == nil)
        #expect(
            demo.process.errorText.contains(
                "mischief: MISCHIEF_APPLY entry 2 'net.request': expected SEAM=SPEC, such as clock.now=shift(+1d); "
                    + "nothing from MISCHIEF_APPLY is applied"), "\(demo.process.errorText)")
    }

    @Test func anEntryThatDoesNotFitItsSeamRevertsTheOthers() async throws {
        let demo = try await HeadlessDemo.start(
            environment: ["MISCHIEF_APPLY": "clock.now=shift(+1d); net.request=50% ofline"])
        defer { demo.kill() }
        #expect(try demo.behaviour(of: "clock.now") == nil)
        #expect(try demo.behaviour(of: "net.request") == nil)
        let problems = try demo.events().filter { $0["kind"] as? String == "problem" }
        let message = try #require(problems.last?["message"] as? String)
        #expect(message.contains("entry 'net.request=50% ofline' does not fit its seam"), "\(message)")
        #expect(
            message.contains("did you mean 'offline'?") && message.contains("reverted what it had applied to clock.now")
        )
        #expect(demo.process.errorText.contains("mischief: MISCHIEF_APPLY entry 'net.request=50% ofline'"))
    }

    @Test func aProfileFileAppliesToTheDemoAsItsSeamsRegister() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ci-chaos-\(UUID()).yaml")
        try "name: CI\nseed: 5\nentries:\n  clock.now: shift(+2h)\n".write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let demo = try await HeadlessDemo.start(environment: ["MISCHIEF_PROFILE": url.path])
        defer { demo.kill() }
        #expect(try demo.behaviour(of: "clock.now") == "shift(2h)")
        let layers = try demo.seam("clock.now")["layers"] as? [[String: Any]]
        #expect(layers?.map { $0["source"] as? String } == ["MISCHIEF_PROFILE CI"])
        #expect(demo.process.errorText.contains("mischief: MISCHIEF_PROFILE is active: clock.now=shift(+2h)"))
    }
}
