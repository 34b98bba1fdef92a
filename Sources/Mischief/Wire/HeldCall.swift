#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A call a `pause` holds now, as a console shows it: a *breakpoint*. ``SeamSnapshot/heldCalls`` lists them, oldest
/// first; ``Registry/release(_:answer:holdNext:source:)`` lets them go unchanged, with a value the spec gives, or
/// failing.
///
/// In JSON it is `{"input": "…"}`.
public struct HeldCall: Hashable, Sendable, Codable {
    /// The call's input as people read it: JSON for an `Encodable` input (so it can be edited into a
    /// `return(…)`), a string quoted, anything else as Swift describes it; at most ``longestInput`` characters.
    public var input: String

    /// The longest input text kept: 4,000 characters (a longer one ends with `…`).
    public static let longestInput = 4_000

    /// A held call whose input reads `input`.
    public init(input: String) {
        self.input = input
    }

    /// `value` as ``input`` shows it: compact JSON with sorted keys when it is `Encodable` (with the default
    /// `JSONEncoder`, which `return(…)` decodes back), a string quoted, else `String(describing:)`.
    public static func render(_ value: Any) -> String {
        let text: String
        if let string = value as? String {
            text = string.debugDescription
        } else if let encodable = value as? any Encodable, let json = json(encodable) {
            text = json
        } else {
            text = String(describing: value)
        }
        return text.count > longestInput ? text.prefix(longestInput - 1) + "…" : text
    }

    private static func json(_ value: any Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}
