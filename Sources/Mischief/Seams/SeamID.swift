/// The dotted name of a seam, such as `clock.now`, `net.response`, `fp` or `d1.returnValue`.
///
/// The rules: an id is one or more segments separated by single dots. Each segment starts with a lowercase ASCII
/// letter (`a`-`z`) and goes on with ASCII letters of either case, digits, `-` or `_`; so camelCase segments
/// (`returnValue`) and digits after the first letter (`d1`, `l10n`) are fine, while an empty id, an empty segment
/// (`clock..now`, `clock.`), a segment starting with a capital, a digit or a symbol (`Clock.now`, `clock.2now`) and
/// spaces or other characters (`clock.n ow`, `clock/now`) are not. Ids are compared exactly, case included.
///
/// Ids are what specs, profiles, the console and the control socket use to name a seam. Text from outside (a
/// file, a request) goes through ``init(_:)``, which throws ``MischiefError/invalidSeamID(_:reason:)`` naming the
/// id and the rule it breaks. A literal in code (`Seam("clock.now", …)`) cannot throw, so it is checked when the
/// seam is registered: ``Registry/register(_:)-(AnySeam...)`` throws the same error, and nothing crashes.
public struct SeamID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as text.
    public let rawValue: String

    /// Validates and wraps an id.
    ///
    /// - Throws: ``MischiefError/invalidSeamID(_:reason:)`` naming what is wrong.
    public init(_ rawValue: String) throws(MischiefError) {
        if let problem = SeamID.problem(with: rawValue) {
            throw .invalidSeamID(rawValue, reason: problem)
        }
        self.rawValue = rawValue
    }

    /// An id written in code. It is not checked here, where nothing can be thrown: registering a seam with an
    /// invalid literal id throws ``MischiefError/invalidSeamID(_:reason:)``, and looking one up finds no seam.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// What is wrong with this id under the rules above, or nil when it is valid.
    var problem: String? { SeamID.problem(with: rawValue) }

    /// The category-like first segment (`clock` for `clock.now`).
    public var family: Substring { rawValue.prefix { $0 != "." } }

    /// The id as written, such as `clock.now`.
    public var description: String { rawValue }

    /// Orders ids by their text, so lists of seams sort by id.
    public static func < (lhs: SeamID, rhs: SeamID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Says what is wrong with `text` as an id, or nil when it is valid.
    static func problem(with text: String) -> String? {
        if text.isEmpty { return "an id cannot be empty; use a name such as 'clock.now' or 'fp'" }
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            guard let first = segment.unicodeScalars.first else {
                return "segment \(index + 1) is empty (two dots in a row, or a dot at an end)"
            }
            guard ("a"..."z").contains(first) else {
                return "segment '\(segment)' must start with a lowercase letter a-z"
            }
            for scalar in segment.unicodeScalars {
                let allowed =
                    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                    || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
                if !allowed {
                    return "segment '\(segment)' contains '\(scalar)'; use ASCII letters, digits, '-' or '_'"
                }
            }
        }
        return nil
    }
}

extension SeamID: Codable {
    /// Decodes an id from a string, refusing one that breaks the rules with the reason.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes the id as its string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
