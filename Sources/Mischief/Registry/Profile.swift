/// A named set of entries (seam → spec), applied and reverted as a unit.
///
/// ```swift
/// let tokyo = Profile(name: "Tokyo", key: 2, entries: [
///     .init(seam: "location.current", spec: #"city("Tokyo")"#),
///     .init(seam: "clock.now", spec: "shift(+9h)"),
/// ])
/// try registry.define(tokyo)
/// try registry.apply(profile: "Tokyo")
/// ```
/// Profiles stack: on a replacing seam the later one wins, on a merging seam both apply, newest first;
/// reverting one uncovers what lies beneath.
public struct Profile: Hashable, Sendable, Codable {
    /// One seam and the spec to apply to it.
    public struct Entry: Hashable, Sendable, Codable {
        /// The seam the spec is applied to.
        public var seam: SeamID
        /// The spec, as text (see <doc:WritingSpecs>).
        public var spec: String

        /// An entry applying `spec` to `seam`.
        public init(seam: SeamID, spec: String) {
            self.seam = seam
            self.spec = spec
        }
    }

    /// The profile's unique name, as consoles and `apply(profile:)` use it.
    public var name: String
    /// What the profile does, in a sentence for people; nil when the name says it all.
    public var description: String?
    /// The console's hot key, 1–9.
    public var key: Int?
    /// The seed random parts without their own derive theirs from.
    public var seed: UInt64?
    /// The seams and the specs applied to them, in order, as one group.
    public var entries: [Entry]

    /// A profile; ``Registry/define(_:fileAccess:)`` checks it against the registered seams.
    ///
    /// - Parameters:
    ///   - name: The profile's unique name.
    ///   - description: What it does, for people.
    ///   - key: The console's hot key, 1–9.
    ///   - seed: The seed for random parts without their own; nil for the session seed.
    ///   - entries: The seams and their specs.
    public init(name: String, description: String? = nil, key: Int? = nil, seed: UInt64? = nil, entries: [Entry]) {
        self.name = name
        self.description = description
        self.key = key
        self.seed = seed
        self.entries = entries
    }
}

/// One problem with a profile, pointing at the entry at fault.
public struct ProfileProblem: Hashable, Sendable, CustomStringConvertible {
    /// The index of the entry in ``Profile/entries``, or nil for the profile as a whole.
    public let entry: Int?
    /// The seam the problem concerns, if one does.
    public let seam: SeamID?
    /// The spec error, when the spec is at fault (its column is within the spec text).
    public let specError: SpecError?
    /// What is wrong, and how to fix it where that is known.
    public let message: String

    /// The problem, after the seam's id when it concerns one.
    public var description: String {
        guard let seam else { return message }
        return "\(seam): \(message)"
    }
}

/// A defined profile and whether it is applied.
public struct ProfileStatus: Hashable, Sendable {
    /// The profile as defined.
    public let profile: Profile
    /// Whether any of its entries is active.
    public let isActive: Bool
}
