import Mischief
import Testing

/// Valid specs: parsing, canonical printing and round trips.
struct SpecTests {
    /// Each valid spec with its canonical text.
    static let valid: [(String, String)] = [
        ("off", "off"),
        ("  off  ", "off"),
        ("off()", "off"),
        ("50%off", "50%off"),
        ("50% 3* shift(+1d)", "50%3*shift(1d)"),
        ("12.5%delay(250ms)", "12.5%delay(250ms)"),
        ("100%off", "100%off"),
        ("0%off", "0%off"),
        ("50.0%off", "50%off"),
        ("1e-05%off", "1e-05%off"),
        ("3*throw(\"boom\")", "3*throw(\"boom\")"),
        ("a -> b", "a -> b"),
        ("a->b->c", "a -> b -> c"),
        ("a+b", "a + b"),
        ("a + b -> c", "a + b -> c"),
        ("50%3*a(1) + 2*b -> 10%c", "50%3*a(1) + 2*b -> 10%c"),
        ("random-city", "random-city"),
        ("speak(en-XA, long-words)", "speak(en-XA, long-words)"),
        ("shift(-3h)", "shift(-3h)"),
        ("shift(24h)", "shift(1d)"),
        ("shift(90m)", "shift(90m)"),
        ("shift(+10y)", "shift(10y)"),
        ("shift(1.5s)", "shift(1500ms)"),
        ("shift(14d)", "shift(2w)"),
        ("delay(0ms)", "delay(0s)"),
        ("delay(1000us)", "delay(1ms)"),
        ("delay(2s, 7ns)", "delay(2s, 7ns)"),
        ("freeze(2038-01-19)", "freeze(2038-01-19T00:00:00Z)"),
        ("freeze(2038-01-19T03:14:08Z)", "freeze(2038-01-19T03:14:08Z)"),
        ("freeze(2038-01-19T05:14:08+02:00)", "freeze(2038-01-19T03:14:08Z)"),
        ("freeze(2038-01-19T03:14:08.500Z)", "freeze(2038-01-19T03:14:08.5Z)"),
        ("freeze(at: 1999-12-31T23:59)", "freeze(at: 1999-12-31T23:59:00Z)"),
        ("city(\"New York\")", "city(\"New York\")"),
        ("city(Tokyo)", "city(Tokyo)"),
        ("say(\"a\\\"b\\\\c\")", "say(\"a\\\"b\\\\c\")"),
        ("say(\"\\u00e9\\n\\/\")", "say(\"é\\n/\")"),
        ("say(\"\\ud83d\\ude00\")", "say(\"😀\")"),
        ("say(\"×\")", "say(\"×\")"),
        ("value(42)", "value(42)"),
        ("value(-7)", "value(-7)"),
        ("value(1.50)", "value(1.5)"),
        ("value(2.0)", "value(2)"),
        ("value(1e3)", "value(1000)"),
        ("value(99999999999999999999)", "value(1e+20)"),
        ("m(x: -0.5)", "m(x: -0.5)"),
        ("drop(30%)", "drop(30%)"),
        ("drop(12.50%)", "drop(12.5%)"),
        ("flags(true, false, null)", "flags(true, false, null)"),
        ("play(loop)", "play(loop)"),
        ("random(seed: 42, count: 3)", "random(seed: 42, count: 3)"),
        ("random(seed:42)", "random(seed: 42)"),
        ("shift( by : 1d )", "shift(by: 1d)"),
        ("return({\"name\": \"x\", \"tags\": [1, 2]})", "return({\"name\": \"x\", \"tags\": [1, 2]})"),
        ("return({ \"a\" : [ ] , \"b\" : { } })", "return({\"a\": [], \"b\": {}})"),
        ("at([2038-01-19, 1d, 30%, Tokyo])", "at([2038-01-19T00:00:00Z, 1d, 30%, Tokyo])"),
        ("seq(return(1), 2*throw(\"x\"), off)", "seq(return(1), 2*throw(\"x\"), off)"),
        ("seq(off -> on, a + b)", "seq(off -> on, a + b)"),
        ("seq(50%off, 10% 2* on)", "seq(50%off, 10%2*on)"),
        ("seq(off())", "seq(off())"),
        ("seq(then: -5ms, 30%)", "seq(then: -5ms, 30%)"),
        ("10%@key offline", "10%@key offline"),
        ("10% @ key offline", "10%@key offline"),
        ("12.50%@key 3* off", "12.5%@key 3*off"),
        ("10%@key a + b -> 5%@key c", "10%@key a + b -> 5%@key c"),
        ("seq(10%@key off, on)", "seq(10%@key off, on)"),
        ("f(by: 10% @key off)", "f(by: 10%@key off)"),
        ("say(\"@key\")", "say(\"@key\")"),
    ]

    @Test(arguments: valid)
    func parsesAndPrintsCanonically(_ text: String, _ canonical: String) throws {
        let spec = try Spec(parsing: text)
        #expect(spec.description == canonical)
    }

    @Test(arguments: valid)
    func canonicalTextRoundTrips(_ text: String, _ canonical: String) throws {
        let spec = try Spec(parsing: text)
        let reparsed = try Spec(parsing: spec.description)
        #expect(reparsed == spec)
        #expect(reparsed.hashValue == spec.hashValue)
        #expect(reparsed.description == canonical)
    }

    @Test func plusBindsTighterThanArrow() throws {
        let spec = try Spec(parsing: "a + b -> c")
        #expect(spec.alternatives.count == 2)
        #expect(spec.alternatives[0].terms.map(\.action) == ["a", "b"])
        #expect(spec.alternatives[1].terms.map(\.action) == ["c"])
    }

    @Test func termParts() throws {
        let term = try #require(Spec(parsing: "50% 3* shift(+1d, by: 2)").alternatives.first?.terms.first)
        #expect(term.probability == 50)
        #expect(term.count == 3)
        #expect(term.action == "shift")
        #expect(term.arguments.count == 2)
        #expect(term.arguments[0].value == .duration(SpecDuration(nanoseconds: 86_400_000_000_000)))
        #expect(term.arguments[1].label == "by")
        #expect(term.arguments[1].value == .integer(2))
        #expect(term.location == SourceRange(start: 1, end: 25))
        #expect(term.actionLocation == SourceRange(start: 8, end: 13))
        #expect(term.arguments[1].location == SourceRange(start: 19, end: 24))
    }

    @Test func keyedTermParts() throws {
        let term = try Spec(parsing: "10%@key 3*offline").alternatives[0].terms[0]
        #expect(term.probability == 10 && term.probabilityScope == .key && term.count == 3)
        #expect(term == Spec.Term(probability: 10, per: .key, count: 3, action: "offline"))
        #expect(term != Spec.Term(probability: 10, count: 3, action: "offline"))
        // Without a probability the scope means nothing: it neither prints nor counts for equality.
        let bare = Spec.Term(per: .key, action: "offline")
        #expect(bare.description == "offline" && bare == Spec.Term(action: "offline"))
        #expect(bare.hashValue == Spec.Term(action: "offline").hashValue)
    }

    @Test func locationsDoNotAffectEquality() throws {
        let spaced = try Spec(parsing: "   shift(  1d )")
        let tight = try Spec(parsing: "shift(1d)")
        #expect(spaced == tight)
        #expect(spaced.alternatives[0].terms[0].location != tight.alternatives[0].terms[0].location)
    }

    @Test func valueKinds() throws {
        let term = try Spec(parsing: "f(\"s\", 1, 1.5, 30%, 2s, 2038-01-19, true, null, w, [1], {\"k\": 1}, g(1))")
            .alternatives[0].terms[0]
        let values = term.arguments.map(\.value)
        #expect(values[0] == .string("s"))
        #expect(values[1] == .integer(1))
        #expect(values[2] == .number(1.5))
        #expect(values[3] == .percent(30))
        #expect(values[4] == .duration(SpecDuration(nanoseconds: 2_000_000_000)))
        #expect(values[5] == .date(SpecDate(seconds: 2_147_472_000)))
        #expect(values[6] == .bool(true))
        #expect(values[7] == .null)
        #expect(values[8] == .word("w"))
        #expect(values[9] == .array([.integer(1)]))
        #expect(values[10] == .object([.init("k", .integer(1))]))
        #expect(values[11] == .spec(Spec(Spec.Term(action: "g", arguments: [.init(value: .integer(1))]))))
    }

    @Test func nestedSpecsAndWords() throws {
        let term = try Spec(parsing: "seq(off, off(), 2*on, a -> b)").alternatives[0].terms[0]
        #expect(term.arguments[0].value == .word("off"))
        #expect(term.arguments[1].value == .spec(Spec(Spec.Term(action: "off"))))
        guard case .spec(let counted) = term.arguments[2].value else {
            Issue.record("expected a nested spec")
            return
        }
        #expect(counted.alternatives[0].terms[0].count == 2)
        guard case .spec(let fallback) = term.arguments[3].value else {
            Issue.record("expected a nested spec")
            return
        }
        #expect(fallback.alternatives.count == 2)
    }

    @Test func jsonText() throws {
        let term = try Spec(parsing: "return({\"a\": [1, 2.5, \"x\\\"y\"], \"b\": null, \"c\": true})")
            .alternatives[0].terms[0]
        #expect(term.arguments[0].value.jsonText == "{\"a\": [1, 2.5, \"x\\\"y\"], \"b\": null, \"c\": true}")
        #expect(Spec.Value.string("é\n").jsonText == "\"é\\n\"")
        #expect(Spec.Value.word("Tokyo").jsonText == nil)
        #expect(Spec.Value.duration(SpecDuration(nanoseconds: 1)).jsonText == nil)
        #expect(Spec.Value.array([.integer(1), .word("x")]).jsonText == nil)
        #expect(Spec.Value.percent(30).jsonText == nil)
    }

    @Test func programmaticValuesPrint() {
        #expect(Spec.Value.number(2).description == "2")
        #expect(Spec.Value.string("tab\there\u{1}").description == "\"tab\\there\\u0001\"")
        let term = Spec.Term(probability: 12.5, count: 2, action: "a", arguments: [.init(label: "k", value: .null)])
        #expect(Spec(term).description == "12.5%2*a(k: null)")
    }

    // MARK: Strings that would join their quotes

    /// Values whose first scalar joins the opening quote (a combining mark, a joiner, a variation selector),
    /// whose last joins the closing quote (U+0600, a prepended concatenation mark), or that hold controls.
    static let joining = [
        "\u{301}x", "\u{200D}x", "x\u{600}", "\u{FE0F}", "\u{600}", "\u{301}\u{301}", "x\u{600}\u{600}",
        "\"\u{301}", "x\u{600}\n", "\u{E0100}x", "a\u{202E}b\u{2066}", "\u{85}", "e\u{301}",
    ]

    @Test(arguments: joining)
    func stringsThatWouldJoinTheirQuotesRoundTrip(_ value: String) throws {
        let spec = Spec(Spec.Term(action: "return", arguments: [.init(value: .string(value))]))
        let text = spec.description
        // Every quote of the printed text stays a character of its own, so the text reads the same by characters.
        #expect(text.unicodeScalars.filter { $0 == "\"" }.count == text.filter { $0 == "\"" }.count, "\(text)")
        let parsed = try Spec(parsing: text)
        guard case .string(let back) = parsed.alternatives[0].terms[0].arguments[0].value else {
            Issue.record("not a string: \(parsed)")
            return
        }
        #expect(Array(back.unicodeScalars) == Array(value.unicodeScalars))
        #expect(parsed.description == text)
    }

    @Test func joiningScalarsPrintAsEscapes() throws {
        #expect(Spec.Value.string("\u{301}x").description == "\"\\u0301x\"")
        #expect(Spec.Value.string("x\u{600}").description == "\"x\\u0600\"")
        #expect(Spec.Value.string("\u{200D}\u{301}").description == "\"\\u200D\\u0301\"")
        #expect(Spec.Value.string("\u{E0100}").description == "\"\\uDB40\\uDD00\"")
        // Marks inside the text stay as they are.
        #expect(Spec.Value.string("e\u{301}").description == "\"e\u{301}\"")
        #expect(try Spec(parsing: "return(\"\\u0301x\")").description == "return(\"\\u0301x\")")
    }

    @Test func aMarkRightAfterTheOpeningQuoteBelongsToTheString() throws {
        let spec = try Spec(parsing: "return(\"\u{301}x\")")
        #expect(spec.description == "return(\"\\u0301x\")")
        let spaced = try Spec(parsing: "say(\"\u{200D}\") + return(\"x\u{600}\")")
        #expect(spaced.description == "say(\"\\u200D\") + return(\"x\\u0600\")")
    }

    // MARK: Random token soups: no crashes, errors inside the text, round trips

    static let fuzzPieces = [
        "a", "b", "off", "seq", "(", ")", ",", ":", "%", "*", "+", "->", "-", "1", "50", ".", "5", "d", "ms", "\"x\"",
        "\"", "\\", "[", "]", "{", "}", " ", " ", "2038-01-19", "T03:14", "Z", "e", "×", "seed", "true", "null", "0",
        "1.5", "100", "+1d", "\"k\":", "2*", "30%", "@", "@key", "key", "10%@key ",
    ]

    @Test func randomSpecs() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var parsed = 0
        for _ in 0..<5_000 {
            let text = (0..<(1 + next(12))).map { _ in Self.fuzzPieces[next(Self.fuzzPieces.count)] }.joined()
            do {
                let spec = try Spec(parsing: text)
                parsed += 1
                let again = try Spec(parsing: spec.description)
                #expect(again == spec, "\(text) -> \(spec)")
                #expect(again.description == spec.description, "\(text)")
            } catch {
                #expect((1...(text.count + 1)).contains(error.column), "\(text): \(error.message)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(parsed > 50)
    }
}
