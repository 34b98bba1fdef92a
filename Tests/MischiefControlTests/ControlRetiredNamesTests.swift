import Foundation
import Mischief
import MischiefControl
import Testing

/// The control API's names issue 46 retired still build and mean what they meant, for one release.
@Suite struct ControlRetiredNamesTests {
    /// The deprecated names read the same: `TargetInfo` is the header, with `uptime` in seconds; a `changes`
    /// message is a delta.
    @available(*, deprecated, message: "uses the retired names on purpose")
    @Test func theRetiredNamesStillWork() throws {
        let info = TargetInfo(
            name: "t", pid: 1, uptime: 1.5, apiVersion: 1, libraryVersion: "0", sessionSeed: 2, socket: nil)
        #expect(info.uptime == .milliseconds(1500) && info.apiVersion == 1 && info.sessionSeed == 2)
        let delta = StreamDelta(target: info, registry: Registry(sessionSeed: 1).delta(since: 0))
        #expect(StreamMessage.changes(delta) == .delta(delta))
    }
}
