import Mischief
import Testing

/// A `reverted` event names what was reverted and who asked: its source is who asked, and its message the behaviour
/// text with `(applied by …)` when someone else had applied it.
@Suite struct RevertEventTests {
    func reverted(_ registry: Registry) -> [Event] { registry.events().filter { $0.kind == .reverted } }

    @Test func aConsoleSwitchingAProfileOffIsNamedWithTheProfileItReverted() throws {
        let f = try Fixture()
        try f.registry.define(Profile(name: "Tokyo", key: 1, entries: [.init(seam: "test.double", spec: "return(3)")]))
        try f.registry.apply(profile: "Tokyo")
        #expect(try f.registry.toggle(profile: "Tokyo", source: "console") == false)
        let event = try #require(reverted(f.registry).last)
        #expect(event.seam == "test.double")
        #expect(event.source == "console")
        #expect(event.message == "return(3) (applied by profile Tokyo)")
        #expect(event.description == "reverted test.double return(3) (applied by profile Tokyo) [console]")
    }

    @Test func everyWayToRevertSaysWhoAsked() throws {
        let f = try Fixture()
        try f.registry.define(Profile(name: "P", entries: [.init(seam: "test.double", spec: "return(1)")]))
        try f.registry.apply(profile: "P")
        f.registry.revert(profile: "P", source: "alice (s1)")
        try f.registry.apply(spec: "return(2)", to: "test.double", source: "cli")
        f.registry.revert(seam: "test.double", source: "console")
        let applied = try f.registry.apply(spec: "return(4)", to: "test.double", source: "api")
        f.registry.revert(applied, source: "test")
        try f.registry.apply(spec: "return(5)", to: "test.double", source: "console")
        f.registry.revertAll(source: "console")
        #expect(
            reverted(f.registry).map(\.description) == [
                "reverted test.double return(1) (applied by profile P) [alice (s1)]",
                "reverted test.double return(2) (applied by cli) [console]",
                "reverted test.double return(4) (applied by api) [test]",
                // Who applied it asked: nothing more to say.
                "reverted test.double return(5) [console]",
            ])
    }

    @Test func withNobodyNamedTheRevertIsWhoeverAppliedIt() throws {
        let f = try Fixture()
        let applied = try f.registry.apply(spec: "return(1)", to: "test.double", source: "code")
        f.registry.revert(applied)
        #expect(reverted(f.registry).map(\.description) == ["reverted test.double return(1) [code]"])
    }

    @Test func aLongBehaviourIsCutButWhoAppliedItStays() throws {
        let f = try Fixture()
        let long = "return(\"" + String(repeating: "x", count: 2_000) + "\")"
        try f.registry.apply(spec: long, to: "test.rules", source: "profile Long")
        f.registry.revert(seam: "test.rules", source: "console")
        let event = try #require(reverted(f.registry).last)
        #expect(event.message.utf8.count <= Event.maximumMessageLength)
        #expect(event.message.hasSuffix("… (applied by profile Long)"))
    }
}
