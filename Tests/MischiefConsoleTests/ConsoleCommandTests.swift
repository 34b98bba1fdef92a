import Foundation
import Mischief
import MischiefConsole
import Synchronization
import Testing

/// Commands run against a controller, and the data model's Codable form.
@Suite struct ConsoleCommandTests {
    /// A controller that records calls and refuses what it is told to.
    final class RecordingController: ConsoleController {
        let calls = Mutex<[String]>([])
        let refusal: String?

        init(refusing refusal: String? = nil) { self.refusal = refusal }

        func record(_ call: String) throws {
            calls.withLock { $0.append(call) }
            if let refusal { throw ConsoleError.refused(refusal) }
        }

        func load() async throws -> ConsoleData { ConsoleFixtures.data() }
        func apply(_ spec: String, to seam: SeamID) async throws { try record("apply \(seam) \(spec)") }
        func revert(_ seam: SeamID) async throws { try record("revert \(seam)") }
        func revertAll() async throws { try record("revertAll") }
        func release(_ seam: SeamID) async throws -> Int {
            try record("release \(seam)")
            return 2
        }
        func resetCounters(_ seam: SeamID?) async throws { try record("reset \(seam.map(\.rawValue) ?? "all")") }
        func toggleProfile(_ name: String) async throws -> Bool {
            try record("toggle \(name)")
            return name.hasPrefix("On")
        }
        func advanceTime(by duration: Duration) async throws { try record("advance \(duration)") }
        func saveProfile(named name: String, overwrite: Bool) async throws -> String {
            try record("save \(name)")
            return "/profiles/\(name).yaml"
        }
    }

    @Test func performCallsTheController() async {
        let controller = RecordingController()
        let commands: [ConsoleCommand] = [
            .apply(seam: "clock.now", spec: "shift(1d)"), .revert("clock.now"), .revertAll, .toggleProfile("Tokyo"),
            .toggleProfile("On time"), .advanceTime(.seconds(3_600)), .saveProfile("Morning"), .cycleTheme, .quit,
        ]
        var results: [CommandResult?] = []
        for command in commands {
            results.append(await command.perform(with: controller))
        }
        #expect(
            results == [
                .success(nil), .success(nil), .success(nil), .success("profile Tokyo switched off"),
                .success("profile On time switched on"), .success(nil), .success("/profiles/Morning.yaml"), nil, nil,
            ])
        #expect(
            controller.calls.withLock { $0 } == [
                "apply clock.now shift(1d)", "revert clock.now", "revertAll", "toggle Tokyo", "toggle On time",
                "advance 3600.0 seconds",
                "save Morning",
            ])
    }

    @Test func refusalsBecomeFailuresWithTheMessageAsItIs() async {
        let message = "unknown action 'shfit' for clock.now; did you mean 'shift'?\n  shfit\n  ^"
        let controller = RecordingController(refusing: message)
        #expect(
            await ConsoleCommand.apply(seam: "clock.now", spec: "shfit").perform(with: controller)
                == .failure(message))
        #expect(await ConsoleCommand.saveProfile("x").perform(with: controller) == .failure(message))
    }

    @Test func dataRoundTripsThroughJSON() throws {
        let data = ConsoleFixtures.data(connection: .lost("socket closed"))
        let decoded = try JSONDecoder().decode(ConsoleData.self, from: JSONEncoder().encode(data))
        #expect(decoded == data)
    }
}
