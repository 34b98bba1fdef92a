import Foundation
import Mischief
import Testing

/// The limits that keep a spec from crashing or stalling the target: its length, the terms of a `+` composition,
/// and how deeply the behaviour it makes nests (issue #28).
struct SpecLimitTests {
    /// `n` copies of `term` joined by `separator`.
    static func repeated(_ term: String, _ count: Int, separator: String = "+") -> String {
        Array(repeating: term, count: count).joined(separator: separator)
    }

    @Test func aLongCompositionIsRefusedWithTheLimitNamed() throws {
        for count in [Spec.maximumCompositionTerms + 1, 2_000, 5_000] {
            let text = Self.repeated("delay(0ms)", count)
            let error = #expect(throws: SpecError.self) { try Spec(parsing: text) }
            #expect(error?.message.contains("at most \(Spec.maximumCompositionTerms) terms") == true, "\(count)")
        }
        // 20,000 terms are past the length before they are past the terms.
        let error = #expect(throws: SpecError.self) { try Spec(parsing: Self.repeated("delay(0ms)", 20_000)) }
        #expect(error?.message.contains("at most \(Spec.maximumLength) bytes") == true)
    }

    @Test func theErrorPointsAtTheFirstTermPastTheLimit() throws {
        let text = Self.repeated("log", Spec.maximumCompositionTerms + 1)
        let error = #expect(throws: SpecError.self) { try Spec(parsing: text) }
        #expect(error?.column == Spec.maximumCompositionTerms * 4 + 1)
    }

    @Test func aCompositionAtTheLimitParses() throws {
        let spec = try Spec(parsing: Self.repeated("log(\"x\")", Spec.maximumCompositionTerms))
        #expect(spec.alternatives[0].terms.count == Spec.maximumCompositionTerms)
    }

    @Test func aSpecPastTheMaximumLengthIsRefusedWithTheLimitNamed() throws {
        let identifier = String(repeating: "a", count: 900_000)
        let error = #expect(throws: SpecError.self) { try Spec(parsing: identifier) }
        #expect(error?.message.contains("at most \(Spec.maximumLength) bytes") == true)
        #expect(error?.column == Spec.maximumLength + 1)
        let atLimit = String(repeating: "a", count: Spec.maximumLength)
        _ = try Spec(parsing: atLimit)
    }

    @Test func theLengthCountsBytesAndTheColumnCountsScalars() throws {
        // "é" is two bytes of UTF-8, one scalar: the limit is crossed at scalar maximumLength / 2 + 1.
        let text = "say(\"" + String(repeating: "é", count: Spec.maximumLength / 2) + "\")"
        let error = #expect(throws: SpecError.self) { try Spec(parsing: text) }
        #expect(error?.message.contains("at most \(Spec.maximumLength) bytes") == true)
        #expect(error?.column == (Spec.maximumLength - 5) / 2 + 6)
    }

    @Test func longFallbacksAndSequencesWithinTheLengthParse() throws {
        let fallbacks = Self.repeated("1*off", 5_000, separator: " -> ")
        #expect(try Spec(parsing: fallbacks).alternatives.count == 5_000)
        let sequence = "seq(" + Self.repeated("off", 10_000, separator: ", ") + ")"
        #expect(try Spec(parsing: sequence).alternatives[0].terms[0].arguments.count == 10_000)
    }
}

/// Behaviours that nest past ``Behaviour/maximumDepth`` are refused when applied, whatever made them: code, or
/// specs nested in quoted strings (which each parse on their own, within their own limits).
struct BehaviourDepthTests {
    /// `text` as a spec string: quoted, with `\` and `"` escaped.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `levels` of `seq("log + … + seq(…)")`, each with `terms` logs: nests about `levels × terms` deep.
    static func nestedInStrings(levels: Int, terms: Int) -> String {
        var text = "return(4)"
        for _ in 0..<levels {
            text = "seq(" + quoted(Array(repeating: "log", count: terms).joined(separator: " + ") + " + " + text) + ")"
        }
        return text
    }

    @Test func aBehaviourNestedPastTheLimitInCodeIsRefused() throws {
        let fixture = try Fixture()
        // Just past the limit: far deeper chains are only slower to build and to free (freeing one recurses per
        // level, which overflowed a pool thread's stack under ThreadSanitizer at 2,000).
        let depth = Behaviour<Int, Int, Never>.maximumDepth + 8
        var behaviour = Behaviour<Int, Int, Never>.original
        for _ in 0..<depth { behaviour = behaviour.logged("x") }
        let error = #expect(throws: MischiefError.self) { try fixture.registry.apply(fixture.double, behaviour) }
        #expect(error?.description.contains("at most \(Behaviour<Int, Int, Never>.maximumDepth) levels") == true)
        #expect(fixture.double(2) == 4)
        var asyncBehaviour = Behaviour<Int, String, any Error>.original
        for _ in 0..<depth { asyncBehaviour = asyncBehaviour.delayed(by: .zero) }
        #expect(throws: MischiefError.self) { try fixture.registry.apply(fixture.fetch, asyncBehaviour) }
    }

    @Test func aSpecNestedPastTheLimitThroughStringsIsRefused() throws {
        let fixture = try Fixture()
        let text = Self.nestedInStrings(levels: 5, terms: 60)
        let error = #expect(throws: MischiefError.self) { try fixture.registry.apply(spec: text, to: "test.double") }
        #expect(
            error?.description.contains("at most \(Behaviour<Int, Int, Never>.maximumDepth) levels") == true,
            "\(String(describing: error).prefix(300))")
        #expect(fixture.double(2) == 4)
    }

    /// The attack of issue #28: on the old code this overflowed the stack of the thread applying it.
    @Test func twentyThousandTermsAreRefusedNotACrash() throws {
        let fixture = try Fixture()
        for term in ["delay(0ms)", "log(\"x\")"] {
            let text = SpecLimitTests.repeated(term, 20_000)
            #expect(throws: MischiefError.self) { try fixture.registry.apply(spec: text, to: "test.double") }
        }
        #expect(fixture.double(2) == 4)
    }

    @Test func aCompositionAtTheTermLimitAppliesAndRuns() throws {
        let fixture = try Fixture()
        let text = SpecLimitTests.repeated("delay(0ms)", Spec.maximumCompositionTerms)
        let applied = try fixture.registry.apply(spec: text, to: "test.double")
        #expect(fixture.double(2) == 4)
        fixture.registry.revert(applied)
    }
}
