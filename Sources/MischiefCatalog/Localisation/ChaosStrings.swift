import Foundation
import Mischief

/// The `l10n.*` family: every localised string the target looks up, so pseudo-localisation can stretch,
/// mirror, widen or hide them live.
///
/// Wrap whatever the target uses to look strings up; for Foundation's bundles there is an adapter:
/// ```swift
/// let strings = ChaosStrings(bundle: .module)
/// try Registry.shared.register(strings.seam)
///
/// let title = strings.string("home.title", default: "Welcome")
/// let count = strings.format("inbox.count", default: "%d new messages", 3)
///
/// try Registry.shared.apply(spec: "accents + expand(1.5) + brackets", to: "l10n.string")
/// strings.string("home.title", default: "Welcome")     // "[Ŵéļçöɱé one two three four]"
/// ```
///
/// Actions: `accents`, `expand(ratio)`, `brackets`, `double`, `rtl`, `wide`, `long-words` (text transforms that
/// compose left to right with `+`), `show-keys` and `empty` (which replace the text), and the presets `en-XA`
/// and `ar-XB`. Every transform keeps each format placeholder (`%@`, `%d`, `%1$s`, `%%`, `{name}`) and markup
/// tag exactly once, unchanged and in order, so `String(format:)` still gets the right arguments.
public final class ChaosStrings: Sendable {
    /// The seam every lookup goes through.
    public let seam: Seam<StringLookup, String, Never>

    /// Declares the string seam around the target's own lookup.
    public init(id: SeamID = "l10n.string", original: @escaping @Sendable (StringLookup) -> String) {
        seam = Seam(
            id, title: "Localised strings", category: "Localisation",
            summary: "Every string the target shows, looked up by key", actions: ChaosStrings.actions,
            original: original)
    }

    /// Declares the string seam around `bundle.localizedString(forKey:value:table:)`.
    ///
    /// On Linux, swift-corelibs-foundation reads `.strings` tables from the bundle's `*.lproj` folders; a
    /// missing key gives the default value, as on Apple's platforms.
    public convenience init(id: SeamID = "l10n.string", bundle: Bundle) {
        self.init(id: id) { lookup in
            bundle.localizedString(forKey: lookup.key, value: lookup.value, table: lookup.table)
        }
    }

    /// The string for `key` (one counted call).
    public func string(_ key: String, table: String? = nil, default value: String? = nil) -> String {
        seam(StringLookup(key: key, table: table, value: value))
    }

    /// The string for `key` used as a format, filled with `arguments` (as `String(format:)`).
    public func format(_ key: String, table: String? = nil, default value: String? = nil, _ arguments: any CVarArg...)
        -> String
    {
        String(format: string(key, table: table, default: value), arguments: arguments)
    }

    // MARK: Actions

    typealias Action = SeamAction<StringLookup, String, Never>

    static let actions: [Action] = [
        transform("accents", "Latin letters become accented look-alikes (en-XA)", .accents),
        .transform(
            ActionSignature(
                "expand", summary: "filler words until the text is this many times as long",
                parameters: [
                    .init(
                        "ratio", .number, default: .number(1.4), step: .number(0.1),
                        summary: "the length ratio, 1–10; short strings grow more")
                ],
                composes: true)
        ) { (action, context) throws(SpecError) in
            let ratio = action.number("ratio")!
            guard (1...10).contains(ratio) else {
                throw context.error("the ratio must be between 1 and 10", argument: "ratio", of: action)
            }
            return pipeline([.expand(ratio: ratio)])
        },
        transform("brackets", "[ and ] around the text, so a clipped end shows", .brackets),
        transform("double", "every run of text twice (Xcode's double-length language)", .double),
        transform("rtl", "right-to-left override marks around the text (ar-XB)", .rtl),
        transform("wide", "full-width forms that take two terminal columns", .wide),
        transform("long-words", "German-style compounds with no break opportunity", .longWords),
        .produce(ActionSignature("show-keys", summary: "the lookup key instead of the text", composes: true)) { _, _ in
            .closure { call in PseudoLocalisation([.showKeys]).apply(to: "", key: call.input.key) }
        },
        .produce(ActionSignature("empty", summary: "the empty string", composes: true)) { _, _ in .constant("") },
        .transform(
            ActionSignature(
                "en-XA", summary: "accents + expand(1.4) + brackets, as Android's en-XA",
                composes: true)
        ) { _, _ in pipeline(PseudoLocalisation.enXA.transforms) },
        .transform(ActionSignature("ar-XB", summary: "the text right to left, as Android's ar-XB", composes: true)) {
            _, _ in pipeline(PseudoLocalisation.arXB.transforms)
        },
    ]

    private static func transform(_ name: String, _ summary: String, _ transform: PseudoTransform) -> Action {
        .transform(ActionSignature(name, summary: summary, composes: true)) { _, _ in pipeline([transform]) }
    }

    private static func pipeline(_ transforms: [PseudoTransform]) -> @Sendable (String) -> String {
        let pseudo = PseudoLocalisation(transforms)
        return { pseudo.apply(to: $0, key: "") }
    }
}

/// One string lookup: what Foundation's `localizedString(forKey:value:table:)` takes.
public struct StringLookup: Hashable, Sendable, Codable {
    /// The key in the strings table.
    public var key: String
    /// The table (file) name; nil for the default `Localizable`.
    public var table: String?
    /// The text to use when the key is missing.
    public var value: String?

    /// A lookup of `key` in `table`, falling back to `value`.
    public init(key: String, table: String? = nil, value: String? = nil) {
        self.key = key
        self.table = table
        self.value = value
    }
}
