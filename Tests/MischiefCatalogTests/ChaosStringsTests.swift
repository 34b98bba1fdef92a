import Foundation
import Mischief
import Testing

@testable import MischiefCatalog

@Suite("ChaosStrings")
struct ChaosStringsTests {
    static let table = [
        "greeting": "Welcome back, %@! You have %d new messages.",
        "markup": "Tap <b>{name}</b> to continue &amp; 100%% done",
    ]

    let registry = Registry(sessionSeed: 1)
    let strings = ChaosStrings(id: "l10n.test") { lookup in table[lookup.key] ?? lookup.value ?? lookup.key }

    init() throws { try registry.register(strings.seam) }

    func looking(up key: String, with spec: String) throws -> String {
        try registry.apply(spec: spec, to: "l10n.test")
        defer { registry.revertAll() }
        return strings.string(key)
    }

    @Test func theOriginalLookupAnswersWithoutChaos() {
        #expect(strings.string("greeting") == Self.table["greeting"])
        #expect(strings.string("missing", default: "Fallback") == "Fallback")
        #expect(strings.format("greeting", "Ann", 3) == "Welcome back, Ann! You have 3 new messages.")
    }

    @Test(arguments: [
        "accents", "expand(2)", "brackets", "double", "rtl", "wide", "long-words", "en-XA", "ar-XB",
        "accents + expand(1.5) + brackets + double + wide",
    ])
    func everyTransformKeepsEachPlaceholderOnceAndInOrder(spec: String) throws {
        for key in Self.table.keys {
            let original = FormatSegments.placeholders(in: Self.table[key]!)
            let changed = try looking(up: key, with: spec)
            #expect(FormatSegments.placeholders(in: changed) == original, "\(spec) on \(key): \(changed)")
            #expect(changed != Self.table[key])
        }
    }

    @Test func formattingStillGetsTheRightArguments() throws {
        try registry.apply(spec: "en-XA", to: "l10n.test")
        let text = strings.format("greeting", "Ann", 3)
        #expect(text.hasPrefix("[Ŵéļçöɱé ƀåçķ, Ann! Ýöû ĥåṽé 3 ñéŵ ɱéššåĝéš."))
        #expect(text.hasSuffix("]"))
    }

    @Test func transformsComposeLeftToRight() throws {
        #expect(try looking(up: "x", with: "brackets + double") == "[x] [x]")
        #expect(try looking(up: "x", with: "double + brackets") == "[x x]")
    }

    @Test func chainedExpansionInALookupStopsAtTheCap() throws {
        // Four expand(10) on 40 characters took 38.6 s per lookup and gave 400,000 characters before the cap.
        let key = String(repeating: "Lookup ", count: 6) + "Ok"
        let text = try looking(up: key, with: "expand(10) + expand(10) + expand(10) + expand(10)")
        #expect(text.hasPrefix(key))
        #expect(text.unicodeScalars.count <= PseudoLocalisation.maximumLength)
    }

    @Test func showKeysAndEmptyReplaceTheText() throws {
        #expect(try looking(up: "greeting", with: "show-keys") == "greeting")
        #expect(try looking(up: "greeting", with: "show-keys + brackets") == "[greeting]")
        #expect(try looking(up: "greeting", with: "empty") == "")
    }

    @Test func expandRefusesARatioOutOfRangeAtItsColumn() throws {
        #expect(throws: MischiefError.self) { try registry.apply(spec: "accents + expand(0.5)", to: "l10n.test") }
        do throws(MischiefError) {
            try registry.apply(spec: "accents + expand(0.5)", to: "l10n.test")
        } catch {
            guard case .invalidSpec(_, let specError) = error else { Issue.record("\(error)"); return }
            #expect(specError.column == 18)
        }
    }

    @Test func theBundleAdapterFallsBackToTheDefaultValue() {
        let bundled = ChaosStrings(id: "l10n.bundle", bundle: .main)
        #expect(bundled.string("no.such.key", default: "Hello") == "Hello")
    }
}
