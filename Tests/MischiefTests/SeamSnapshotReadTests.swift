import Testing

@testable import Mischief

/// `snapshot(of:)` reads one seam as `snapshot()` shows it: the same counters, layers and time left, and nothing for
/// a seam that is not registered.
@Suite struct SeamSnapshotReadTests {
    @Test func oneSeamReadsAsTheWholeSnapshotShowsIt() throws {
        let fixture = try Fixture()
        let observation = fixture.registry.observe()
        defer { withExtendedLifetime(observation) {} }
        try fixture.registry.apply(spec: "return(7)", to: "test.double", source: "cli")
        for input in 0..<3 { _ = fixture.double(input) }
        // Read first on its own: the counters of calls made since the last read are there.
        let one = try #require(fixture.registry.snapshot(of: "test.double"))
        #expect(one.counters.calls == 3)
        #expect(one.behaviourText == "return(7)")
        #expect(one.layers.map(\.source) == ["cli"])
        #expect(one == fixture.registry.snapshot().seam("test.double"))
        #expect(fixture.registry.snapshot(of: "test.parse") == fixture.registry.snapshot().seam("test.parse"))
        #expect(fixture.registry.snapshot(of: "test.nothing") == nil)
    }

    @Test func aLayersTimeLeftIsAsOfTheRead() throws {
        let clock = ManualRegistryClock()
        let registry = Registry(sessionSeed: 1, clock: clock, expiresOnItsOwn: false)
        let seam = Seam<Int, Int, Never>("test.double", title: "Double", category: "Test", summary: "") { $0 * 2 }
        try registry.register(seam)
        try registry.apply(spec: "return(7)", to: "test.double", ttl: .seconds(30))
        clock.advance(by: .seconds(10))
        let layer = try #require(registry.snapshot(of: "test.double")?.layers.last)
        #expect(layer.expiresIn == .seconds(20))
        #expect(layer == registry.snapshot().seam("test.double")?.layers.last)
    }
}
