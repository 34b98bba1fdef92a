import Foundation
import Mischief
import MischiefConsole
import Testing

/// The console's names issue 46 retired still build and mean what they meant, for one release.
@Suite struct ConsoleRetiredNamesTests {
    @available(*, deprecated, message: "uses the retired names on purpose")
    @Test func theRetiredNamesStillWork() {
        let state = ConsoleFixtures.state()
        #expect(state.lostChanges == state.lostLayers)
        #expect(state.hasUnsavedChanges == state.hasUnsavedLayers)
        let header = TargetHeader(
            name: "t", pid: 1, uptime: .seconds(1), sessionSeed: 1, wallTime: Date(timeIntervalSince1970: 0))
        let delta = StreamDelta(target: header, registry: Registry(sessionSeed: 1).delta(since: 0))
        #expect(ConsoleUpdate.changes(delta) == .delta(delta))
    }
}
