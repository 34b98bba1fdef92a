import Foundation
import Mischief
import MischiefFiles
import Testing

/// `ttl:` in profile files: on the profile and on an entry (which wins), in the spec duration syntax.
@Suite struct ProfileTTLTests {
    static let timed = """
        name: Brief
        ttl: 10m
        entries:
          clock.now: shift(+1d)
          location.current:
            spec: city("Tokyo")
            ttl: 30s
        """

    private func failure(_ text: String) -> String? {
        do {
            _ = try ProfileFile.load(text: text, file: "profiles/p.yaml")
            return nil
        } catch {
            return error.diagnostics.first?.description
        }
    }

    @Test func aProfileAndAnEntryCarryTheirTTLs() throws {
        let file = try #require(try ProfileFile.load(text: Self.timed, file: "p.yaml").first)
        #expect(file.ttl == .seconds(600))
        #expect(file.entries.map(\.ttl) == [nil, .seconds(30)])
        #expect(file.entries.map(\.spec) == ["shift(+1d)", #"city("Tokyo")"#])
        let profile = try file.profile()
        #expect(profile.ttl == .seconds(600))
        #expect(profile.entryTTLs == [.seconds(600), .seconds(30)])  // the entry's own wins
    }

    @Test func aTimedProfileIsWrittenAndLoadsBackTheSame() throws {
        let file = try #require(try ProfileFile.load(text: Self.timed, file: "p.yaml").first)
        let yaml = file.yaml()
        #expect(yaml.contains("ttl: 10m\n"))
        #expect(yaml.contains("    spec: city(\"Tokyo\")\n    ttl: 30s\n") || yaml.contains("    ttl: 30s\n"))
        let again = try #require(try ProfileFile.load(text: yaml, file: "p.yaml").first)
        #expect(again.withoutLocations() == file.withoutLocations())
    }

    @Test func aBadTTLIsAnErrorAtItsPlace() {
        let profileTTL = failure("name: P\nttl: soon\nentries:\n  clock.now: freeze\n")
        #expect(profileTTL?.hasPrefix("profiles/p.yaml:2:6:") == true, "\(profileTTL ?? "loaded")")
        #expect(profileTTL?.contains("expected a duration such as 30s, 10m or 1h, not 'soon'") == true)

        let entryTTL = failure("name: P\nentries:\n  clock.now:\n    spec: freeze\n    ttl: 0s\n")
        #expect(entryTTL?.hasPrefix("profiles/p.yaml:5:10:") == true, "\(entryTTL ?? "loaded")")
        #expect(entryTTL?.contains("a ttl must be more than 0s and at most 1d, not 0s") == true)

        let tooLong = failure("name: P\nttl: 2d\nentries: {}\n")
        #expect(tooLong?.contains("not 2d") == true, "\(tooLong ?? "loaded")")

        let badUnit = failure("name: P\nttl: 3 fortnights\nentries: {}\n")
        #expect(badUnit != nil)

        let noSpec = failure("name: P\nentries:\n  clock.now:\n    ttl: 5s\n")
        #expect(noSpec?.contains("spec") == true, "\(noSpec ?? "loaded")")
    }

    @Test(arguments: ["30s", "10m", "1.5h", "+1d", " 250ms "])
    func specDurationsParseOnTheirOwn(_ text: String) throws {
        let parsed = try SpecDuration(parsing: text)
        #expect(parsed.nanoseconds > 0)
    }

    @Test(arguments: ["", "s", "10", "ten s", "1..5s", "5 s", "10parsecs"])
    func nonDurationsAreRefused(_ text: String) {
        #expect(throws: SpecError.self) { try SpecDuration(parsing: text) }
    }
}
