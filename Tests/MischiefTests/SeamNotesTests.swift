import Foundation
import Mischief
import Testing

/// `Registry.annotate(_:notes:)`: what a seam's owner says it reaches travels with the seam's snapshot, in deltas
/// and in JSON, and only a real change counts as one.
@Suite struct SeamNotesTests {
    @Test func notesAreInTheSnapshotAndADeltaCarriesTheirChange() throws {
        let f = try Fixture()
        #expect(f.registry.snapshot().seam("test.double")?.notes == [])
        let generation = f.registry.snapshot().generation
        f.registry.annotate("test.double", notes: ["rebound: libA.so", "not loaded yet: libB.so"])
        let delta = f.registry.delta(since: generation)
        #expect(delta.seams.map(\.id) == ["test.double"])
        #expect(delta.seams.first?.notes == ["rebound: libA.so", "not loaded yet: libB.so"])
        #expect(f.registry.snapshot().seam("test.double")?.notes == ["rebound: libA.so", "not loaded yet: libB.so"])
    }

    @Test func theSameNotesAgainAndAnUnknownSeamChangeNothing() throws {
        let f = try Fixture()
        f.registry.annotate("test.double", notes: ["one"])
        let generation = f.registry.snapshot().generation
        f.registry.annotate("test.double", notes: ["one"])
        f.registry.annotate("no.such", notes: ["two"])
        #expect(f.registry.delta(since: generation).isEmpty)
        #expect(f.registry.snapshot().seam("no.such") == nil)
    }

    @Test func theJSONCarriesNotesOnlyForASeamThatHasThem() throws {
        let f = try Fixture()
        let plain = try JSONEncoder().encode(try #require(f.registry.snapshot().seam("test.double")))
        #expect(!String(decoding: plain, as: UTF8.self).contains("\"notes\""))
        f.registry.annotate("test.double", notes: ["rebound: none"])
        let seam = try #require(f.registry.snapshot().seam("test.double"))
        let decoded = try JSONDecoder().decode(SeamSnapshot.self, from: try JSONEncoder().encode(seam))
        #expect(decoded.notes == ["rebound: none"])
        #expect(decoded == seam)
    }
}
