import Mischief
import Testing

/// Suggestions for mistyped names.
struct SuggestionTests {
    static let cases: [(String, [String], String?)] = [
        ("shfit", ["shift", "freeze"], "shift"),
        ("frezee", ["shift", "freeze"], "freeze"),
        ("SHIFT", ["shift"], "shift"),
        ("sed", ["seed", "count"], "seed"),
        ("of", ["off", "on"], "off"),
        ("dil", ["shift", "dilate"], "dilate"),
        ("dilated-time", ["dilate"], "dilate"),
        ("explode", ["shift", "freeze", "dilate", "virtual"], nil),
        ("x", ["seed", "count"], nil),
        ("abc", [], nil),
    ]

    @Test(arguments: cases)
    func suggests(_ word: String, _ candidates: [String], _ expected: String?) {
        #expect(suggestion(for: word, among: candidates) == expected)
    }
}
