import Foundation
import Mischief
import MischiefConsole
import Testing

/// The in-process console follows its registry with the core's follower, as the control server's streams do.
@Suite struct LocalControllerFollowTests {
    /// The registry counts calls while a console reads the controller's updates: its follower watches the registry,
    /// so the counts a console shows do not depend on whoever started it asking for them. (The session's recording
    /// numbers calls whether or not anyone watches: the switch is what tells.)
    @Test func theRegistryCountsWhileAConsoleReadsUpdates() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Never>("t.double", title: "Double", category: "T", summary: "") { $0 * 2 }
        try registry.register(seam)
        let controller = LocalController(
            registry: registry, name: "test", saveDirectory: URL(fileURLWithPath: "/nonexistent"))
        #expect(!registry.delta(since: 0).isCounting, "nobody watches yet")
        let updates = controller.updates()
        #expect(registry.delta(since: 0).isCounting, "a console reads: the registry counts")
        var reader = updates.makeAsyncIterator()
        guard case .reset(let everything) = await reader.next() else {
            Issue.record("the first update is not everything")
            return
        }
        #expect(everything.registry.isCounting)
    }
}
