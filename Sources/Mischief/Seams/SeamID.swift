/// The dotted name of a seam, such as `clock.now` or `net.response`.
///
/// An id has two or more segments separated by dots; each segment starts with a lowercase ASCII letter and goes
/// on with lowercase letters, digits, `-` or `_`. Ids are what specs, profiles, the console and the control
/// socket use to name a seam, so they are validated once, when the seam is declared.
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

    /// An id written in code; an invalid literal is a programming error.
    public init(stringLiteral value: String) {
        if let problem = SeamID.problem(with: value) {
            preconditionFailure("Invalid seam id '\(value)': \(problem)")
        }
        self.rawValue = value
    }

    /// The category-like first segment (`clock` for `clock.now`).
    public var family: Substring { rawValue.prefix { $0 != "." } }

    /// The id as written, such as `clock.now`.
    public var description: String { rawValue }

    /// Orders ids by their text, so lists of seams sort by id.
    public static func < (lhs: SeamID, rhs: SeamID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Says what is wrong with `text` as an id, or nil when it is valid.
    static func problem(with text: String) -> String? {
        if text.isEmpty { return "an id cannot be empty; use a dotted name such as 'clock.now'" }
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        if segments.count < 2 {
            return "an id needs at least two dot-separated segments, such as 'clock.now'"
        }
        for (index, segment) in segments.enumerated() {
            guard let first = segment.unicodeScalars.first else {
                return "segment \(index + 1) is empty (two dots in a row, or a dot at an end)"
            }
            guard ("a"..."z").contains(first) else {
                return "segment '\(segment)' must start with a lowercase letter a-z"
            }
            for scalar in segment.unicodeScalars {
                let allowed = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "-" || scalar == "_"
                if !allowed {
                    return "segment '\(segment)' contains '\(scalar)'; use lowercase letters, digits, '-' or '_'"
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
