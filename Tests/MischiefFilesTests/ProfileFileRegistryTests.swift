import Foundation
import Mischief
import MischiefFiles
import Testing

@Suite struct ProfileFileRegistryTests {
    static func registry() throws -> (Registry, Seam<Int, Int, Never>, Seam<Void, String, any Error>) {
        let registry = Registry(sessionSeed: 1)
        let count = Seam<Int, Int, Never>("app.count", title: "Count", category: "App", summary: "n") { $0 }
        let name = Seam<Void, String, any Error>("app.name", title: "Name", category: "App", summary: "s") { "Ann" }
        try registry.register(count, name)
        return (registry, count, name)
    }

    @Test func problemsPointIntoTheFileAndInsideTheSpec() throws {
        let (registry, _, _) = try Self.registry()
        let text = """
            name: Broken
            key: 3
            entries:
              app.count: retrun(1)
              app.nmae: return("x")
              app.name: 50%throw("x") -> retrun("y")
            """
        let profiles = try ProfileFile.load(text: text, file: "profiles/broken.yaml")
        let diagnostics = ProfileFile.check(profiles, against: registry)
        #expect(
            diagnostics.map(\.description) == [
                "profiles/broken.yaml:4:14: error: unknown action 'retrun' for app.count; did you mean 'return'?",
                "profiles/broken.yaml:5:3: error: no seam 'app.nmae' is registered; did you mean 'app.name'?",
                "profiles/broken.yaml:6:30: error: unknown action 'retrun' for app.name; did you mean 'return'?",
            ])
    }

    @Test func loadAllDefinesGoodProfilesAndSkipsBrokenOnesWithoutApplyingAnything() throws {
        let (registry, count, _) = try Self.registry()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "name: Zero\nkey: 1\nentries:\n  app.count: return(0)\n"
            .write(to: directory.appendingPathComponent("a.yaml"), atomically: true, encoding: .utf8)
        try "name: Bad\nkey: 1\nentries:\n  app.count: return(\"x\")\n"
            .write(to: directory.appendingPathComponent("b.yaml"), atomically: true, encoding: .utf8)
        try "name: [unclosed\n".write(to: directory.appendingPathComponent("c.yaml"), atomically: true, encoding: .utf8)
        let (defined, diagnostics) = ProfileFile.loadAll(from: [directory], into: registry)
        #expect(defined == ["Zero"])
        let messages = diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(messages.contains("4:21 return(…) needs JSON for Int: expected Int"))
        #expect(messages.contains { $0.hasPrefix("2:6 hot key 1 is used by both 'Zero'") })
        #expect(diagnostics.contains { $0.location.file.hasSuffix("c.yaml") })
        #expect(count(5) == 5)  // nothing applied
        try registry.apply(profile: "Zero")
        #expect(count(5) == 0)
    }

    @Test func aSavedStringThatStartsWithACombiningMarkLoadsAndApplies() throws {
        let (registry, _, name) = try Self.registry()
        try registry.apply(spec: #"return("\u0301x") -> throw("\u200Dy\u0600")"#, to: "app.name")
        let (state, _) = registry.currentState(named: "Marks", seed: nil)
        let saved = ProfileFile(state).yaml()
        registry.revertAll()
        let reloaded = try ProfileFile.load(text: saved, file: "marks.yaml")
        #expect(ProfileFile.check(reloaded, against: registry).isEmpty, "\(saved)")
        try registry.define(try reloaded[0].profile())
        try registry.apply(profile: "Marks")
        #expect(Array(try name().unicodeScalars) == ["\u{301}", "x"])
    }

    @Test func theCurrentStateSavesAndLoadsBackEqual() throws {
        let (registry, _, _) = try Self.registry()
        try registry.apply(spec: "3*return(1) -> off", to: "app.count")
        try registry.apply(spec: #"50%throw("a: b # c") -> return("it's")"#, to: "app.name")
        let (state, _) = registry.currentState(named: "Saved", seed: 7)
        let file = ProfileFile(state)
        let reloaded = try ProfileFile.load(text: file.yaml(), file: "saved.yaml")
        #expect(try reloaded.map { try $0.profile() } == [state])
    }
}
