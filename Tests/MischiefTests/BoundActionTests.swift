import Mischief
import Testing

/// Binding terms to action signatures, canonical terms and nudging.
struct BoundActionTests {
    typealias Parameter = ActionSignature.Parameter

    static let hour = SpecDuration(nanoseconds: 3_600_000_000_000)

    static let clock: [ActionSignature] = [
        ActionSignature(
            "shift", summary: "Moves the clock",
            parameters: [
                Parameter("by", .duration, step: .duration(hour), summary: "How far")
            ], composes: true),
        ActionSignature("freeze", summary: "Stops the clock", parameters: [Parameter("at", .date)]),
        ActionSignature(
            "dilate", summary: "Speeds the clock up",
            parameters: [
                Parameter("rate", .number, default: .integer(1), step: .number(0.1))
            ], composes: true),
        ActionSignature("virtual", summary: "Uses a virtual clock"),
    ]

    static let misc: [ActionSignature] = [
        ActionSignature(
            "random", summary: "Random numbers",
            parameters: [
                Parameter("seed", .integer, default: .integer(0), step: .integer(1)),
                Parameter("count", .integer, default: .integer(1)),
            ]),
        ActionSignature(
            "coordinate", summary: "A place",
            parameters: [
                Parameter("lat", .number), Parameter("lon", .number),
            ]),
        ActionSignature(
            "delay", summary: "Waits",
            parameters: [
                Parameter("by", .duration, step: .duration(SpecDuration(nanoseconds: 100_000_000)))
            ], composes: true),
        ActionSignature(
            "play", summary: "Plays a track",
            parameters: [
                Parameter("track", .string, default: .string("intro")),
                Parameter("loop", .flag),
                Parameter("volume", .percent, default: .percent(50), step: .percent(10)),
            ]),
        ActionSignature("return", summary: "Returns a value", parameters: [Parameter("value", .json)]),
        ActionSignature("log", summary: "Logs the call", composes: true),
        ActionSignature(
            "seq", summary: "Runs specs in turn",
            parameters: [
                Parameter("first", .spec), Parameter("then", .spec, default: .word("off")),
            ]),
        ActionSignature("speak", summary: "Speaks", parameters: [Parameter("pace", .word(["fast", "slow"]))]),
        ActionSignature("off", summary: "Does nothing"),
    ]

    func bind(_ text: String, _ signatures: [ActionSignature] = misc) throws -> BoundAction {
        try Spec(parsing: text).alternatives[0].terms[0].bind(to: signatures, seam: "test.seam")
    }

    func bindingError(
        _ text: String, _ signatures: [ActionSignature] = misc, seam: String = "test.seam"
    ) -> SpecError? {
        do {
            _ = try Spec(parsing: text).bind(to: signatures, seam: seam)
            return nil
        } catch {
            return error
        }
    }

    /// Invalid bindings with the expected column and message.
    static let invalid: [(String, Int, String)] = [
        ("random(sed: 1)", 8, "unknown argument 'sed' for 'random'; did you mean 'seed'?"),
        ("random(x: 1)", 8, "unknown argument 'x' for 'random'; available: seed, count"),
        ("log(x: 1)", 5, "unknown argument 'x' for 'log'; it takes no arguments"),
        ("coordinate(1.5)", 1, "missing argument 'lon' for 'coordinate'"),
        ("coordinate", 1, "missing argument 'lat' for 'coordinate'"),
        ("delay(1s, 2s)", 11, "too many arguments for 'delay': it takes 1"),
        ("log(1)", 5, "too many arguments for 'log': it takes none"),
        ("play(loop, loop)", 12, "'loop' is given twice"),
        ("random(1, seed: 2)", 11, "'seed' is given twice"),
        ("delay(\"x\")", 7, "'delay' takes a duration for 'by', got string \"x\""),
        ("random(seed: 1.5)", 8, "'random' takes an integer for 'seed', got number 1.5"),
        ("play(volume: 0.3)", 6, "'play' takes a percentage for 'volume', got number 0.3; write it with '%', like 30%"),
        ("play(volume: 120%)", 6, "'play' takes a percentage between 0% and 100% for 'volume', got 120%"),
        ("play(loop: 1)", 6, "'play' takes true or false for 'loop', got integer 1"),
        (
            "return(Tokyo)", 8,
            "'return' takes a JSON value for 'value', got word 'Tokyo'; quote strings, as in \"Tokyo\""
        ),
        ("return(1d)", 8, "'return' takes a JSON value for 'value', got duration 1d"),
        ("speak(fats)", 7, "'speak' takes one of fast, slow for 'pace', got word 'fats'; did you mean 'fast'?"),
        ("seq(\"a +\")", 5, "invalid spec for 'first': unexpected '+' at the end of the spec; expected an action"),
        ("seq(1)", 5, "'seq' takes a spec for 'first', got integer 1"),
        ("log + return(1)", 7, "'return' does not compose with '+'"),
        ("off -> log + off", 14, "'off' does not compose with '+'"),
        ("lgo", 1, "unknown action 'lgo' for test.seam; did you mean 'log'?"),
    ]

    @Test(arguments: invalid)
    func reportsBindingErrors(_ text: String, _ column: Int, _ message: String) {
        let error = bindingError(text)
        #expect(error?.message == message)
        #expect(error?.column == column)
        #expect(error?.text == text)
    }

    @Test func unknownActionSuggestsOrLists() {
        let close = bindingError("shfit(1h)", Self.clock, seam: "clock.now")
        #expect(close?.message == "unknown action 'shfit' for clock.now; did you mean 'shift'?")
        #expect(close?.column == 1)
        let wrongType = bindingError("shift(\"x\")", Self.clock, seam: "clock.now")
        #expect(wrongType?.message == "'shift' takes a duration for 'by', got string \"x\"")
        #expect(wrongType?.column == 7)
        let far = bindingError("50%explode", Self.clock, seam: "clock.now")
        #expect(far?.message == "unknown action 'explode' for clock.now; available: shift, freeze, dilate, virtual")
        #expect(far?.column == 4)
        let prefix = bindingError("dil", Self.clock, seam: "clock.now")
        #expect(prefix?.message == "unknown action 'dil' for clock.now; did you mean 'dilate'?")
    }

    @Test func bindsValuesAndDefaults() throws {
        let random = try bind("random(7)")
        #expect(random.integer("seed") == 7)
        #expect(random.integer("count") == 1)
        let coordinate = try bind("coordinate(35, lon: 139.7)")
        #expect(coordinate.number("lat") == 35)
        #expect(coordinate.values["lat"] == .number(35))
        #expect(coordinate.number("lon") == 139.7)
        let delay = try bind("delay(250ms)")
        #expect(delay.duration("by") == .milliseconds(250))
        let freeze = try bind("freeze(2038-01-19T03:14:08Z)", Self.clock)
        #expect(freeze.date("at")?.secondsSince1970 == 2_147_483_648)
        let speak = try bind("speak(\"slow\")")
        #expect(speak.word("pace") == "slow")
        let returned = try bind("return({\"a\": [1, true]})")
        #expect(returned.json("value") == "{\"a\": [1, true]}")
    }

    @Test func flags() throws {
        let looping = try bind("play(loop)")
        #expect(looping.flag("loop"))
        #expect(looping.string("track") == "intro")
        #expect(looping.percent("volume") == 50)
        let plain = try bind("play(Tokyo)")
        #expect(!plain.flag("loop"))
        #expect(plain.string("track") == "Tokyo")
        let labelled = try bind("play(loop: true, volume: 80%)")
        #expect(labelled.flag("loop"))
        #expect(labelled.percent("volume") == 80)
    }

    @Test func specParameters() throws {
        let seq = try bind("seq(off, return(1))")
        #expect(seq.spec("first") == Spec(Spec.Term(action: "off")))
        #expect(seq.spec("then")?.description == "return(1)")
        let fromString = try bind("seq(\"a -> b\")")
        #expect(fromString.spec("first")?.alternatives.count == 2)
        #expect(fromString.spec("then") == Spec(Spec.Term(action: "off")))
        #expect(fromString.canonicalTerm.description == "seq(a -> b)")
    }

    /// Terms with their canonical form after binding.
    static let canonical: [(String, String)] = [
        ("random(0, count: 3)", "random(count: 3)"),
        ("random(seed: 5)", "random(5)"),
        ("random(count: 1, seed: 0)", "random"),
        ("play(\"intro\", loop: false, volume: 50%)", "play"),
        ("play(volume: 80%, loop: true, track: Tokyo)", "play(\"Tokyo\", loop, volume: 80%)"),
        ("play(loop)", "play(loop)"),
        ("50%2*dilate(2)", "50%2*dilate(2)"),
        ("dilate(1.0)", "dilate"),
        ("seq(first: off, then: off)", "seq(off)"),
        ("seq(first: return(1), then: 2*log)", "seq(return(1), then: 2*log)"),
        ("shift(by: +24h)", "shift(1d)"),
    ]

    @Test(arguments: canonical)
    func canonicalTerm(_ text: String, _ expected: String) throws {
        let signatures = Self.misc + Self.clock
        let bound = try bind(text, signatures)
        let term = bound.canonicalTerm
        #expect(term.description == expected)
        let reparsed = try Spec(parsing: term.description).alternatives[0].terms[0]
        #expect(reparsed == term)
        #expect(try reparsed.bind(to: signatures, seam: "test.seam").values == bound.values)
    }

    /// Terms nudged by a number of steps.
    static let nudges: [(String, Int, String?)] = [
        ("delay(250ms)", 2, "delay(450ms)"),
        ("delay(250ms)", -3, "delay(-50ms)"),
        ("50%2*delay(1s)", 1, "50%2*delay(1100ms)"),
        ("shift(1d)", 1, "shift(25h)"),
        ("shift(-1h)", 1, "shift(0s)"),
        ("dilate(0.1)", 2, "dilate(0.3)"),
        ("dilate", 5, "dilate(1.5)"),
        ("dilate(1.5)", 5, "dilate(2)"),
        ("random(7)", -7, "random"),
        ("play(volume: 95%)", 1, "play(volume: 100%)"),
        ("play(loop, volume: 15%)", -3, "play(loop, volume: 0%)"),
        ("play", 1, "play(volume: 60%)"),
        ("virtual", 1, nil),
        ("freeze(2038-01-19)", 1, nil),
        ("unknown", 1, nil),
    ]

    @Test(arguments: nudges)
    func nudging(_ text: String, _ steps: Int, _ expected: String?) throws {
        let term = try Spec(parsing: text).alternatives[0].terms[0]
        let nudged = term.nudged(by: steps, signatures: Self.misc + Self.clock)
        #expect(nudged?.description == expected)
    }

    @Test func datesNudgeByTheirDurationStep() throws {
        let freeze = [
            ActionSignature(
                "freeze", summary: "",
                parameters: [
                    .init("at", .date, step: .duration(SpecDuration(.seconds(86_400))))
                ])
        ]
        let term = try Spec(parsing: "freeze(2038-01-19T03:14:08Z)").alternatives[0].terms[0]
        #expect(term.nudged(by: 1, signatures: freeze)?.description == "freeze(2038-01-20T03:14:08Z)")
        #expect(term.nudged(by: -19, signatures: freeze)?.description == "freeze(2037-12-31T03:14:08Z)")
        let late = try Spec(parsing: "freeze(9999-12-31T12:00:00Z)").alternatives[0].terms[0]
        #expect(late.nudged(by: 1, signatures: freeze) == nil)
    }

    @Test func compositionRule() throws {
        let bound = try Spec(parsing: "log + 2*delay(1s) -> return(1)").bind(to: Self.misc, seam: "test.seam")
        #expect(bound.map(\.count) == [2, 1])
        #expect(bound[0][1].term.count == 2)
        #expect(bound[1][0].signature.name == "return")
    }

    @Test func programmaticTermErrors() {
        let term = Spec.Term(action: "nope")
        #expect(throws: SpecError(text: "nope", column: 1, message: "unknown action 'nope' for x; it has no actions")) {
            try term.bind(to: [], seam: "x")
        }
    }
}
