import Mischief
import Testing

@Suite struct ProfileTests {
    @Test func profilesStackAndRevertingOneUncoversWhatLiesBeneath() throws {
        let f = try Fixture()
        try f.registry.define(
            Profile(
                name: "A", key: 1,
                entries: [
                    .init(seam: "test.double", spec: "return(1)"), .init(seam: "test.rules", spec: #"return("A")"#),
                ]))
        try f.registry.define(
            Profile(
                name: "B", key: 2,
                entries: [
                    .init(seam: "test.double", spec: "return(2)"), .init(seam: "test.rules", spec: #"0%return("B")"#),
                ]))
        try f.registry.apply(profile: "A")
        try f.registry.apply(profile: "B")
        #expect(f.double(0) == 2)
        #expect(f.rules("x") == "A")  // merging: B's rule does not fire, so A's answers
        #expect(f.registry.profiles.map(\.isActive) == [true, true])
        f.registry.revert(profile: "B")
        #expect(f.double(0) == 1)
        #expect(try f.registry.toggle(profile: "A") == false)
        #expect(f.double(0) == 0 && f.rules("x") == "original x")
        #expect(f.registry.profiles.map(\.isActive) == [false, false])
    }

    @Test func aProfileWithProblemsReportsThemAllAndAppliesNothing() throws {
        let f = try Fixture()
        let bad = Profile(
            name: "Bad", key: 12,
            entries: [
                .init(seam: "test.double", spec: "return(1)"),
                .init(seam: "test.dubble", spec: "return(1)"),
                .init(seam: "test.parse", spec: "retrun(1)"),
            ])
        let problems = f.registry.problems(in: bad)
        #expect(
            problems.map(\.description) == [
                "hot key 12 is not one of 1–9",
                "test.dubble: no seam 'test.dubble' is registered; did you mean 'test.double'?",
                "test.parse: unknown action 'retrun' for test.parse; did you mean 'return'?",
            ])
        #expect(problems[2].entry == 2 && problems[2].specError?.column == 1)
        #expect(throws: MischiefError.self) { try f.registry.define(bad) }
        #expect(f.registry.profiles.isEmpty)
        #expect(throws: MischiefError.unknownProfile("Bad")) { try f.registry.apply(profile: "Bad") }
    }

    @Test func currentStateSavesAsAProfileThatReappliesTheSame() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "3*return(1) -> off", to: "test.double")
        try f.registry.apply(spec: #"return("new")"#, to: "test.rules", source: "first")
        try f.registry.apply(spec: #"return("old")"#, to: "test.rules", source: "second")
        try f.registry.apply(f.parse, .closure { _ in 0 })
        let (saved, skipped) = f.registry.currentState(named: "Saved", seed: 5)
        #expect(
            saved.entries == [
                .init(seam: "test.double", spec: "3*return(1) -> off"),
                .init(seam: "test.rules", spec: #"return("old") -> return("new")"#),
            ])
        #expect(skipped == ["test.parse"])
        let g = try Fixture()
        try g.registry.define(saved)
        try g.registry.apply(profile: "Saved")
        #expect(g.registry.currentState(named: "Saved", seed: 5).profile == saved)
    }
}
