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

/// The names issue 46 retired still build and mean what they meant, for one release; the API's decoders read the
/// glossary's names beside the v1 keys.
@Suite struct RetiredLayerNamesTests {
    @available(*, deprecated, message: "uses the retired names on purpose")
    @Test func theRetiredNamesStillWork() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Never>("old.layers", title: "Old layers", category: "Test", summary: "") { $0 }
        try registry.register(seam)
        let applied = try registry.apply([Change(seam, .constant(7))], source: "test")
        #expect(registry.snapshot().seam("old.layers")?.behaviourText == "return(7)")
        registry.revert(entries: Set(applied.layers))
        registry.settle()
        #expect(registry.snapshot().seam("old.layers")?.behaviourText == nil)
        let entry: Profile.Entry = Profile.Entry(seam: "old.layers", spec: "return(1)", ttl: .seconds(5))
        let variable = EnvironmentChaos.Entry(seam: "old.layers", spec: "off", seed: 3, source: "x", ttl: nil)
        #expect(entry == SeamSpec(seam: "old.layers", spec: "return(1)", ttl: .seconds(5)))
        #expect(variable.seed == 3 && variable.source == "x" && variable.description == "old.layers=off")
        let given = Guard.Scope.entries([LayerID(rawValue: 2)])
        #expect(given == .layers([LayerID(rawValue: 2)]) && given.description == "entries #2")
    }

    /// A stream delta written with the glossary's names (`delta`, `layers`, a layer's `layer`) reads as the v1 one.
    @Test func theDecodersReadTheGlossarysNames() throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Int, Int, Never>("glossary.count", title: "Count", category: "Test", summary: "") { $0 }
        try registry.register(seam)
        _ = try registry.apply([Change(seam, .constant(7))], source: "test")
        let header = TargetHeader(
            name: "t", pid: 1, uptime: .seconds(2), sessionSeed: 1, wallTime: Date(timeIntervalSince1970: 0))
        let v1Data = try JSONEncoder().encode(StreamDelta(target: header, registry: registry.delta(since: 0)))
        let v1 = try #require(try JSONSerialization.jsonObject(with: v1Data) as? [String: Any])
        var delta = try #require(v1["changes"] as? [String: Any])
        let layers = try #require(delta.removeValue(forKey: "entries") as? [[String: Any]])
        #expect(layers.count == 1 && layers.allSatisfy { $0["entry"] != nil })
        delta["layers"] = layers.map { layer in
            var layer = layer
            layer["layer"] = layer.removeValue(forKey: "entry")
            return layer
        }
        let renamed = try JSONSerialization.data(withJSONObject: ["target": v1["target"]!, "delta": delta])
        let read = try JSONDecoder().decode(StreamDelta.self, from: renamed)
        #expect(read == (try JSONDecoder().decode(StreamDelta.self, from: v1Data)))
        #expect(read.registry.layers.map(\.seam) == ["glossary.count"])
    }

    /// A guard status that names its layers with the glossary's word (`"reverts": "layers"`, `layers`) reads as the
    /// v1 one (`entries`), which is what it is written as.
    @Test func aGuardsLayersReadUnderEitherName() throws {
        let status = GuardStatus(
            id: 3, definition: try Guard(parsing: "no-success(a.b) for 1s", reverts: .layers([LayerID(rawValue: 4)])),
            source: "code", state: .armed)
        let v1 = try #require(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(status)) as? [String: Any])
        #expect(v1["reverts"] as? String == "entries" && v1["entries"] as? [Int] == [4])
        var renamed = v1
        renamed["reverts"] = "layers"
        renamed["layers"] = renamed.removeValue(forKey: "entries")
        let data = try JSONSerialization.data(withJSONObject: renamed)
        #expect(try JSONDecoder().decode(GuardStatus.self, from: data) == status)
    }
}
