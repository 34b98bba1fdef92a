import Foundation
import Mischief
import MischiefFiles
import Testing

/// A user's profile whose `key:` a preset already has is reported where the key is written, and defined without
/// it (so the console gives it a free key), instead of being silently unreachable behind the preset.
@Suite struct ProfileKeyClashTests {
    let registry = Registry(sessionSeed: 1)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-keys-\(UUID())")

    init() throws {
        let count = Seam<Int, Int, Never>("app.count", title: "Count", category: "App", summary: "n") { $0 }
        try registry.register(count)
        try registry.define(Profile(name: "Tokyo", key: 2, entries: [.init(seam: "app.count", spec: "return(2)")]))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "name: Mine\nkey: 2\nentries:\n  app.count: return(7)\n"
            .write(to: directory.appendingPathComponent("mine.yaml"), atomically: true, encoding: .utf8)
        try "name: Free\nkey: 5\nentries:\n  app.count: return(5)\n"
            .write(to: directory.appendingPathComponent("free.yaml"), atomically: true, encoding: .utf8)
    }

    func key(of name: String) -> Int? {
        registry.profiles.first { $0.profile.name == name }?.profile.key
    }

    @Test func aKeyAPresetHasIsReportedAndLeftOff() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (defined, diagnostics) = ProfileFile.loadAll(from: [directory], into: registry)
        #expect(Set(defined) == ["Mine", "Free"])
        let clash = try #require(diagnostics.first { $0.message.contains("hot key 2") }, "\(diagnostics)")
        #expect(clash.severity == .warning)
        #expect(clash.location.file.hasSuffix("mine.yaml") && clash.location.line == 2)
        #expect(clash.message == "hot key 2 is taken by 'Tokyo'; 'Mine' gets a free key instead")
        #expect(key(of: "Tokyo") == 2)
        #expect(key(of: "Mine") == nil)
        #expect(key(of: "Free") == 5)
    }

    @Test func keysTakenElsewhereCountToo() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // An attached console's target has its own presets: their keys come from it, not from this registry.
        let (_, diagnostics) = ProfileFile.loadAll(from: [directory], into: registry, keysTaken: [5: "Offline"])
        #expect(diagnostics.map(\.message).contains("hot key 5 is taken by 'Offline'; 'Free' gets a free key instead"))
        #expect(key(of: "Free") == nil)
        #expect(key(of: "Mine") == nil)
    }

    @Test func redefiningAPresetUnderItsOwnNameKeepsItsKey() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try "name: Tokyo\nkey: 2\nentries:\n  app.count: return(9)\n"
            .write(to: directory.appendingPathComponent("mine.yaml"), atomically: true, encoding: .utf8)
        let (_, diagnostics) = ProfileFile.loadAll(from: [directory], into: registry)
        #expect(!diagnostics.contains { $0.message.contains("hot key") }, "\(diagnostics)")
        #expect(key(of: "Tokyo") == 2)
    }
}
