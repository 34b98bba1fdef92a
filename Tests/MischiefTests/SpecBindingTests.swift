import Mischief
import Testing

/// Specs applied to real seams: generic actions, seam actions, composition, fallback, seeds, errors.
@Suite struct SpecBindingTests {
    /// A string seam with two transforms and a producer of its own, to exercise composition.
    static func textSeam() -> Seam<String, String, any Error> {
        Seam<String, String, any Error>(
            "test.text", title: "Text", category: "Test", summary: "echo",
            actions: [
                .transform(ActionSignature("upper", summary: "upper-cases", composes: true)) { _, _ in
                    { $0.uppercased() }
                },
                .transform(
                    ActionSignature(
                        "suffix", summary: "adds text",
                        parameters: [.init("text", .string, default: .string("!"), summary: "what to add")],
                        composes: true)
                ) { action, _ in
                    let text = action.string("text")!
                    return { $0 + text }
                },
                .produce(
                    ActionSignature(
                        "word", summary: "a fixed word", parameters: [.init("word", .string)], composes: true)
                ) { action, _ in .constant(action.string("word")!) },
            ]
        ) { $0 }
    }

    @Test func genericActionsFollowTheSeamsTypes() throws {
        let f = try Fixture()
        #expect(
            f.registry.actions(for: "test.double")?.map(\.name) == [
                "off", "delay", "pause", "log", "crash", "seq", "return", "random",
            ])
        #expect(
            f.registry.actions(for: "test.parse")?.map(\.name) == [
                "off", "delay", "pause", "log", "crash", "seq", "return", "throw", "random",
            ])
        #expect(f.registry.actions(for: "test.optional")?.map(\.name).contains("nil") == true)
    }

    @Test func returnDecodesJSONIntoTheOutputType() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "return(5)", to: "test.double")
        #expect(f.double(1) == 5)
        try f.registry.apply(spec: "nil", to: "test.optional")
        #expect(f.optional() == nil)
        try f.registry.apply(spec: #"return("hi")"#, to: "test.optional")
        #expect(f.optional() == "hi")
    }

    @Test func fallbackCountsAndProbabilities() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "2*return(1) -> return(2)", to: "test.double")
        #expect((0..<4).map { _ in f.double(0) } == [1, 1, 2, 2])
        try f.registry.apply(spec: "0%return(1) -> off", to: "test.double")
        #expect(f.double(3) == 6)
        try f.registry.apply(spec: "100%return(1)", to: "test.double")
        #expect(f.double(3) == 1)
        try f.registry.apply(spec: "off -> return(9)", to: "test.double")
        #expect(f.double(3) == 6)  // off always fires
    }

    @Test func throwOnlyWhereTheSeamCanThrow() throws {
        let f = try Fixture()
        try f.registry.apply(spec: #"throw("bad")"#, to: "test.parse")
        #expect(throws: InjectedError("bad")) { try f.parse("1") }
        #expect {
            try f.registry.apply(spec: #"throw("bad")"#, to: "test.double")
        } throws: { error in
            (error as? MischiefError)?.description == """
                unknown action 'throw' for test.double; available: off, delay, pause, log, crash, seq, return, random
                  throw("bad")
                  ^
                """
        }
    }

    @Test func sequenceOfSpecs() throws {
        let f = try Fixture()
        let applied = try f.registry.apply(spec: "seq(return(1), off, 2*return(3))", to: "test.double")
        #expect((0..<5).map { _ in f.double(10) } == [1, 20, 3, 3, 20])
        #expect(
            f.registry.snapshot().layers.first { applied.layers.contains($0.id) }?.behaviourText
                == "seq(return(1), off, 2*return(3))")
    }

    @Test func compositionAppliesTransformsLeftToRightAfterTheProducer() throws {
        let registry = Registry(sessionSeed: 1)
        let text = Self.textSeam()
        try registry.register(text)
        try registry.apply(spec: "upper + suffix", to: "test.text")
        #expect(try text("hi") == "HI!")
        try registry.apply(spec: #"suffix("?") + upper"#, to: "test.text")
        #expect(try text("hi") == "HI?")
        try registry.apply(spec: "word(ok) + upper + suffix", to: "test.text")
        #expect(try text("hi") == "OK!")
        try registry.apply(spec: "delay(1ms) + word(late)", to: "test.text")
        #expect(try text("hi") == "late")
    }

    @Test(arguments: [
        (#"return("a") + return("b")"#, 15, "'return' and 'return' both make the value; a '+' composition takes one"),
        ("upper + word(x)", 9, "'word' replaces the value the actions before it changed; put it first"),
        ("upper + 50%suffix", 9, "put '%' and '*' on the first action of a '+' composition; they apply to all of it"),
        ("off + upper", 1, "'off' does not compose with '+'"),
        ("uper", 1, "unknown action 'uper' for test.text; did you mean 'upper'?"),
        (#"suffix("a", "b")"#, 13, "too many arguments for 'suffix': it takes 1"),
        ("return(\"a\") + suffix(txt: 1)", 22, "unknown argument 'txt' for 'suffix'; did you mean 'text'?"),
    ])
    func compositionErrorsPointAtTheTerm(_ spec: String, _ column: Int, _ message: String) throws {
        let registry = Registry(sessionSeed: 1)
        try registry.register(Self.textSeam())
        #expect {
            try registry.apply(spec: spec, to: "test.text")
        } throws: { error in
            guard case .invalidSpec(_, let specError) = error as? MischiefError else { return false }
            return specError.column == column && specError.message == message
        }
        #expect(registry.snapshot().layers.isEmpty)
    }

    @Test func returnWithJSONOfTheWrongTypeNamesTheArgument() throws {
        let f = try Fixture()
        #expect {
            try f.registry.apply(spec: #"return("x")"#, to: "test.double")
        } throws: { error in
            guard case .invalidSpec(_, let specError) = error as? MischiefError else { return false }
            return specError.column == 8 && specError.message == "return(…) needs JSON for Int: expected Int"
        }
    }

    @Test func canonicalFormRoundTrips() throws {
        let f = try Fixture()
        for spec in ["50% 3*return( 1 ) ->off", "delay(1000ms)+return(2)", "seq(off,return(1))", "random(seed: 7)"] {
            let canonical = try f.registry.canonical(spec: spec, for: "test.double")
            #expect(try f.registry.canonical(spec: canonical, for: "test.double") == canonical)
        }
        #expect(
            try f.registry.canonical(spec: "delay(1000ms)+return(2)", for: "test.double") == "delay(1s) + return(2)")
    }

    @Test func randomSeedComesFromTheSpecElseTheProfileElseTheSession() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "random(seed: 7)", to: "test.double")
        #expect(f.registry.snapshot().seam("test.double")?.seeds == [7])
        try f.registry.apply(spec: "random", to: "test.double", seed: 99)
        let fromProfile = try #require(f.registry.snapshot().seam("test.double")?.seeds.first)
        try f.registry.apply(spec: "random", to: "test.double")
        let fromSession = try #require(f.registry.snapshot().seam("test.double")?.seeds.first)
        #expect(fromProfile != fromSession)
        // Same session seed and spec in another registry: the same seed and values.
        let g = try Fixture()
        try g.registry.apply(spec: "random", to: "test.double")
        #expect(g.registry.snapshot().seam("test.double")?.seeds.first == fromSession)
        #expect((0..<10).map { _ in f.double(0) } == (0..<10).map { _ in g.double(0) })
    }
}
