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
    /// The call's input as people read it (``readable(_:)``): JSON for an `Encodable` input, dates in ISO 8601 (so it
    /// can be edited into a `return(…)`), a string quoted, anything else as Swift describes it; at most
    /// ``longestInput`` characters. A console lays the JSON out over lines.
    public var input: String

    /// The longest input text kept: 4,000 characters (a longer one ends with `…`).
    public static let longestInput = 4_000

    /// A held call whose input reads `input`.
    public init(input: String) {
        self.input = input
    }

    /// `value` as a recorded decision keeps it: compact JSON with sorted keys when it is `Encodable` (with the
    /// default `JSONEncoder`, which `return(…)` decodes back), a string quoted, else `String(describing:)`.
    public static func render(_ value: Any) -> String {
        render(value, datesForPeople: false)
    }

    /// `value` as ``input`` shows it to people: as ``render(_:)``, but a `Date` as ISO 8601
    /// (`"joined":"2023-11-14T00:00:00Z"`), as a model's encoder writes dates for people, not as seconds since 2001;
    /// `return(…)` reads it back.
    public static func readable(_ value: Any) -> String {
        render(value, datesForPeople: true)
    }

    private static func render(_ value: Any, datesForPeople: Bool) -> String {
        let text: String
        if let string = value as? String {
            text = string.debugDescription
        } else if let encodable = value as? any Encodable, let json = json(encodable, datesForPeople: datesForPeople) {
            text = json
        } else {
            text = String(describing: value)
        }
        return text.count > longestInput ? text.prefix(longestInput - 1) + "…" : text
    }

    private static func json(_ value: any Encodable, datesForPeople: Bool) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if datesForPeople { encoder.dateEncodingStrategy = .iso8601 }
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}
