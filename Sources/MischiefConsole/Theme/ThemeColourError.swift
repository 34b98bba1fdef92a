import Foundation
import Mischief

/// Why text in a theme file is not a colour.
public struct ThemeColourError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of mistake it is.
    public enum Reason: Hashable, Sendable {
        /// Starts with `#` but is not six hexadecimal digits.
        case badHex
        /// A number outside 0–255.
        case badIndex
        /// Not a colour name.
        case unknownName
    }

    /// The text as written.
    public var text: String
    /// What kind of mistake it is.
    public var reason: Reason
    /// The key the colour was written for (`muted`, `fg`), named in the message when known.
    public var key: String?

    /// Creates the error.
    public init(text: String, reason: Reason, key: String? = nil) {
        self.text = text
        self.reason = reason
        self.key = key
    }

    /// What is wrong and what was expected, e.g.
    /// `invalid colour "#12345" for 'muted': expected '#' and six hexadecimal digits, such as "#ffd75f"`.
    public var description: String {
        let place = key.map { " for '\($0)'" } ?? ""
        switch reason {
        case .badHex:
            return "invalid colour \"\(text)\"\(place): expected '#' and six hexadecimal digits, such as \"#ffd75f\""
        case .badIndex:
            return "colour index \(text)\(place) is out of range: expected 0 to 255"
        case .unknownName:
            let basic = Colour.Name.allCases.prefix(8).map(\.themeText).joined(separator: ", ")
            var message =
                "unknown colour \"\(text)\"\(place): expected \"#rrggbb\" (in quotes), an index 0 to 255,"
                + " default, or a name: \(basic), each also as bright-NAME"
            if let guess = suggestion(for: text.trimmingCharacters(in: .whitespaces), among: Colour.themeNames) {
                message += " (did you mean '\(guess)'?)"
            }
            return message
        }
    }
}
