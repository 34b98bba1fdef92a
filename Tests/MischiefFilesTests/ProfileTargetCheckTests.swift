import Foundation
import Mischief
import MischiefFiles
import Testing

/// Profile files an attached console loads are checked against the target's seams (as the target lists them, with
/// their actions), not against the console's own empty registry: a good profile has no problems, a wrong one is
/// reported at the place in its file.
@Suite struct ProfileTargetCheckTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-target-\(UUID())")

    /// The seams of a target with `l10n.string` (a string seam), as `GET /v1/changes?since=0` lists them.
    static func targetSeams() throws -> [SeamSnapshot] {
        let target = Registry(sessionSeed: 1)
        try target.register(
            Seam<String, String, Never>("l10n.string", title: "Strings", category: "Text", summary: "s") { $0 })
        return target.snapshot(includingActions: true).seams
    }

    func write(_ name: String, _ text: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test func aProfileOfTheTargetsSeamsIsGoodThoughTheConsoleHasNoSeams() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("my-chaos.yaml", "name: my-chaos\nkey: 5\nentries:\n  l10n.string: return(\"Hallo\")\n")
        let (profiles, diagnostics) = ProfileFile.loadAll(
            from: [directory], checkedAgainst: try Self.targetSeams(), keysTaken: [:])
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(profiles.map(\.name) == ["my-chaos"])
        // The old check, against an empty registry, called the same file broken.
        let (defined, old) = ProfileFile.loadAll(from: [directory], into: Registry(sessionSeed: 1))
        #expect(defined.isEmpty && old.contains { $0.message.contains("no seam 'l10n.string' is registered") })
    }

    @Test func unknownSeamsAndBadSpecsAreLocatedInTheirFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("bad.yaml", "name: bad\nentries:\n  l10n.strng: off\n")
        try write("worse.yaml", "name: worse\ndescription: x\nkey: 3\nentries:\n  l10n.string: shout(2)\n")
        let (profiles, diagnostics) = ProfileFile.loadAll(
            from: [directory], checkedAgainst: try Self.targetSeams(), keysTaken: [2: "Tokyo"])
        #expect(profiles.isEmpty)
        let seam = try #require(diagnostics.first { $0.location.line == 3 }, "\(diagnostics)")
        #expect(seam.location.file.hasSuffix("bad.yaml") && seam.location.column == 3)
        #expect(seam.message.hasPrefix("no seam 'l10n.strng' is registered; did you mean 'l10n.string'?"))
        let spec = try #require(diagnostics.first { $0.location.file.hasSuffix("worse.yaml") }, "\(diagnostics)")
        #expect(spec.location.line == 5 && spec.location.column == 16, "\(spec)")
        #expect(spec.message.contains("shout"), "\(spec.message)")
    }
}
