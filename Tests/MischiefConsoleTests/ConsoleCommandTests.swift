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

        /// Each command answers the next generation.
        private let generation = Mutex<UInt64>(1)

        func record(_ call: String) throws -> UInt64 {
            try record(call) as Void
            return generation.withLock {
                $0 += 1
                return $0
            }
        }

        func updates() -> AsyncStream<ConsoleUpdate> {
            AsyncStream { $0.yield(.reset(ConsoleFixtures.delta(ConsoleFixtures.data(), generation: 1))) }
        }
        func apply(_ spec: String, to seam: SeamID) async throws -> UInt64 { try record("apply \(seam) \(spec)") }
        func revert(_ seam: SeamID) async throws -> UInt64 { try record("revert \(seam)") }
        func revertAll() async throws -> UInt64 { try record("revertAll") }
        func setTTL(_ ttl: Duration?, on seam: SeamID) async throws -> UInt64 { try record("ttl \(seam)") }
        func release(_ seam: SeamID) async throws -> (released: Int, generation: UInt64) {
            (2, try record("release \(seam)"))
        }
        func resetCounters(_ seam: SeamID?) async throws -> UInt64 {
            try record("reset \(seam.map(\.rawValue) ?? "all")")
        }
        func toggleProfile(_ name: String) async throws -> (isOn: Bool, generation: UInt64) {
            (name.hasPrefix("On"), try record("toggle \(name)"))
        }
        func advanceTime(by duration: Duration) async throws -> UInt64 { try record("advance \(duration)") }
        func saveProfile(named name: String, overwrite: Bool) async throws -> String {
            try record("save \(name)") as Void
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
            results.append(await command.perform(with: controller)?.result)
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
            await ConsoleCommand.apply(seam: "clock.now", spec: "shfit").perform(with: controller)?.result
                == .failure(message))
        #expect(await ConsoleCommand.saveProfile("x").perform(with: controller)?.result == .failure(message))
    }

    /// A command's answer carries the generation that shows it; one that failed, none.
    @Test func answersCarryTheirGeneration() async {
        let controller = RecordingController()
        let first = await ConsoleCommand.revert("clock.now").perform(with: controller)
        let second = await ConsoleCommand.revertAll.perform(with: controller)
        #expect(first?.generation == 2 && second?.generation == 3)
        let refused = await ConsoleCommand.revertAll.perform(with: RecordingController(refusing: "no"))
        #expect(refused?.generation == 0)
    }

    @Test func dataRoundTripsThroughJSON() throws {
        let data = ConsoleFixtures.data(connection: .lost("socket closed"))
        let decoded = try JSONDecoder().decode(ConsoleData.self, from: JSONEncoder().encode(data))
        #expect(decoded == data)
    }
}
