import Foundation
import Mischief
import MischiefFiles
import Testing

/// `guards:` in profile files: guard conditions that revert the profile, with located errors.
@Suite struct ProfileGuardTests {
    static let guarded = """
        name: Flaky network
        guards:
          - errors(net.request) > 50% over 10s
          - "no-success(net.request) for 30s"
        entries:
          net.request: throw("down")
        """

    func registry() throws -> Registry {
        let registry = Registry(sessionSeed: 1)
        try registry.register(
            Seam<Int, Int, any Error>("net.request", title: "Request", category: "Net", summary: "") { $0 },
            Seam<Void, Int, Never>("not.health", title: "Not health", category: "Net", summary: "") { 1 })
        return registry
    }

    @Test func aProfileCarriesItsGuardsIntoTheRegistry() throws {
        let file = try #require(try ProfileFile.load(text: Self.guarded, file: "p.yaml").first)
        #expect(file.guardTexts == ["errors(net.request) > 50% over 10s", "no-success(net.request) for 30s"])
        #expect(file.guards.first?.location?.description.hasSuffix("p.yaml:3:5") == true)
        let profile = try file.profile()
        #expect(profile.guards == file.guardTexts)
        let registry = try registry()
        #expect(ProfileFile.check([file], against: registry).isEmpty)
        try registry.define(profile)
        #expect(registry.guards.map(\.definition.reverts) == [.profile("Flaky network"), .profile("Flaky network")])
        #expect(registry.guards.map(\.source) == ["profile Flaky network", "profile Flaky network"])
    }

    @Test func aGuardedProfileIsWrittenAndLoadsBackTheSame() throws {
        let file = try #require(try ProfileFile.load(text: Self.guarded, file: "p.yaml").first)
        let yaml = file.yaml()
        #expect(yaml.contains("guards:\n  - "))
        let again = try #require(try ProfileFile.load(text: yaml, file: "p.yaml").first)
        #expect(again.withoutLocations() == file.withoutLocations())
        #expect(ProfileFile(try file.profile()).guardTexts == file.guardTexts)
    }

    @Test func aBadGuardIsAnErrorAtItsColumn() throws {
        let text = """
            name: P
            guards:
              - errors(net.request) > 50% ovr 10s
              - check(not.health)
              - errors(no.such) > 5% over 1m
            entries: {}
            """
        let file = try #require(try ProfileFile.load(text: text, file: "profiles/p.yaml").first)
        let diagnostics = ProfileFile.check([file], against: try registry()).map(\.description)
        #expect(diagnostics.count == 3, "\(diagnostics)")
        #expect(diagnostics[0].hasPrefix("profiles/p.yaml:3:31:"), "\(diagnostics)")
        #expect(diagnostics[0].contains("guard: expected 'over', found 'ovr'"))
        #expect(diagnostics[1].hasPrefix("profiles/p.yaml:4:5:"), "\(diagnostics)")
        #expect(diagnostics[1].contains("needs a seam that takes nothing and returns Bool"))
        #expect(diagnostics[2].hasPrefix("profiles/p.yaml:5:5:"), "\(diagnostics)")
        #expect(diagnostics[2].contains("no seam 'no.such'"))
    }
}
