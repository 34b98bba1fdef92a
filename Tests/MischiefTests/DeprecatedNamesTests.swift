import Foundation
import Mischief
import Testing

/// The names issue 29 retired still build and mean what they meant, for one release (see `Deprecated.swift`). The
/// test is itself deprecated, so using them here warns nobody.
@Suite struct DeprecatedNamesTests {
    @available(*, deprecated, message: "uses the retired names on purpose")
    @Test func theRetiredNamesStillWork() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Never>("old.names", title: "Old names", category: "Test", summary: "") { $0 }
        try registry.register(seam)
        let applied = try registry.apply([Change(seam, .constant(7))], source: "test")
        let ids: [EntryID] = applied.entries
        #expect(ids == applied.layers)
        #expect(registry.snapshot().entries == registry.snapshot().layers)
        let changes: RegistryChanges = registry.changes(since: 0)
        #expect(changes.entries.map(\.id) == ids)
        #expect(registry.changes(since: 0, includingActions: true).generation == changes.generation)
        let header = TargetHeader(name: "t", pid: 1, uptime: .zero, sessionSeed: 1, wallTime: .now)
        var stream = StreamChanges(target: header, changes: changes)
        #expect(stream.changes == stream.registry)
        stream.changes = registry.delta(since: changes.generation)
        #expect(stream.registry.since == changes.generation)
        let shown = try #require(registry.snapshot().seam("old.names"))
        #expect(shown.behaviour == shown.behaviourText)
        #expect(shown.layers.map(\.behaviour) == shown.layers.map(\.behaviourText))
        #expect(Change(seam, .constant(1)).behaviourDescription == "return(1)")
    }
}
