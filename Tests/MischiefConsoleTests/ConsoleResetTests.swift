import Foundation
import Mischief
import MischiefConsole
import Synchronization
import Testing

/// `z` and `Z`: zero the selected seam's counters, or every seam's.
@Suite struct ConsoleResetTests {
    typealias F = ConsoleFixtures

    @Test func zResetsTheSelectedSeamsCountersAndSaysSo() throws {
        var state = F.state()
        let seam = try #require(state.selectedSeam?.id)
        #expect(F.press([.character("z")], &state) == [.resetCounters(seam)])
        _ = Console.update(&state, .commandFinished(.resetCounters(seam), .success(nil)))
        #expect(state.message?.text == "\(seam): counters reset")
        _ = Console.update(&state, .commandFinished(.resetCounters(seam), .failure("unknown seam \(seam)")))
        #expect(state.message == .init("unknown seam \(seam)", isError: true))
    }

    @Test func capitalZResetsEverySeam() {
        var state = F.state()
        #expect(F.press([.character("Z")], &state) == [.resetCounters(nil)])
        _ = Console.update(&state, .commandFinished(.resetCounters(nil), .success(nil)))
        #expect(state.message?.text == "every seam's counters reset")
    }

    @Test func theCommandReachesTheController() async {
        let controller = ConsoleCommandTests.RecordingController()
        #expect(await ConsoleCommand.resetCounters("clock.now").perform(with: controller)?.result == .success(nil))
        #expect(await ConsoleCommand.resetCounters(nil).perform(with: controller)?.result == .success(nil))
        #expect(controller.calls.withLock { $0 } == ["reset clock.now", "reset all"])
    }

    @Test func aLocalControllerZeroesTheRegistrysCounters() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Never>("t.double", title: "Double", category: "T", summary: "") { $0 * 2 }
        try registry.register(seam)
        registry.countsAlways = true
        _ = seam(1)
        let controller = LocalController(
            registry: registry, name: "test", saveDirectory: URL(fileURLWithPath: "/nonexistent"))
        try await controller.resetCounters("t.double")
        #expect(registry.counters("t.double")?.calls == 0)
        #expect(registry.events().last?.source == "console")
        await #expect(throws: ConsoleError.self) { try await controller.resetCounters("t.nothing") }
    }

    @Test func theHelpListsTheKeys() {
        var state = F.state(rows: 40, columns: 120)
        _ = F.press([.character("?")], &state)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("zero the seam's counters"))
    }
}
