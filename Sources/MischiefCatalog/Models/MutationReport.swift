/// What a ``ModelMutator`` did to one value: the mutations that stuck and the ones the model's decoder rejected.
///
/// ```swift
/// let (user, report) = mutator.mutate(user, seed: 42, callIndex: 0)
/// print(report)
/// // name: "Ann" → ""
/// // role: "admin" → "\u{FFFD}unknown" (rejected: cannot initialize Role from invalid String value …)
/// ```
public struct MutationReport: Hashable, Sendable, CustomStringConvertible {
    /// Mutations that were applied and that the model's decoder accepted.
    public var applied: [Mutation]
    /// Mutations the model's decoder rejected; the field kept its value.
    public var rejected: [Rejection]

    /// Creates a report.
    public init(applied: [Mutation] = [], rejected: [Rejection] = []) {
        self.applied = applied
        self.rejected = rejected
    }

    /// `true` when nothing was applied or rejected.
    public var isEmpty: Bool { applied.isEmpty && rejected.isEmpty }

    /// One short line per applied mutation, then one per rejection.
    public var lines: [String] {
        applied.map(\.description) + rejected.map(\.description)
    }

    /// ``lines`` joined by newlines.
    public var description: String { lines.joined(separator: "\n") }

    /// One field change, as JSON text: `age: 34 → -1`.
    public struct Mutation: Hashable, Sendable, CustomStringConvertible {
        /// Concrete path, e.g. `friends[0].name`.
        public var path: String
        /// The previous JSON text (`null` when absent).
        public var old: String
        /// The new JSON text.
        public var new: String

        /// Creates a mutation record.
        public init(path: String, old: String, new: String) {
            self.path = path
            self.old = old
            self.new = new
        }

        /// `path: old → new`, with long values abbreviated.
        public var description: String {
            "\(path): \(MutationReport.abbreviate(old)) → \(MutationReport.abbreviate(new))"
        }
    }

    /// A mutation the model's decoder refused, with the decoder's reason.
    public struct Rejection: Hashable, Sendable, CustomStringConvertible {
        /// Concrete path, e.g. `role`.
        public var path: String
        /// The JSON text the field kept (`null` when absent).
        public var old: String
        /// The JSON text that was attempted.
        public var attempted: String
        /// The `DecodingError`'s text (or why the mutation could not be attempted).
        public var reason: String

        /// Creates a rejection record.
        public init(path: String, old: String, attempted: String, reason: String) {
            self.path = path
            self.old = old
            self.attempted = attempted
            self.reason = reason
        }

        /// `path: old → attempted (rejected: reason)`.
        public var description: String {
            "\(path): \(MutationReport.abbreviate(old)) → \(MutationReport.abbreviate(attempted)) "
                + "(rejected: \(MutationReport.escape(reason)))"
        }
    }

    /// Longest JSON text shown verbatim in a report line.
    public static let displayLimit = 32

    /// Shortens `json` to ``displayLimit`` characters (`"xxxx…" (1002 chars)`) and escapes invisible or
    /// direction-changing characters (`\u{202E}`, `\u{FFFD}`) so a line never scrambles the console.
    public static func abbreviate(_ json: String) -> String {
        var shown = json
        var suffix = ""
        if json.count > displayLimit {
            shown = String(json.prefix(displayLimit))
            suffix = "… (\(json.count) chars)"
        }
        return escape(shown) + suffix
    }

    /// Escapes invisible, control and direction-changing characters as `\u{…}`.
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if scalar == "\u{FFFD}" || category == .format || category == .control {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
