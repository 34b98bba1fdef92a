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
        public var seam: SeamID
        public var spec: String

        public init(seam: SeamID, spec: String) {
            self.seam = seam
            self.spec = spec
        }
    }

    public var name: String
    public var description: String?
    /// The console's hot key, 1–9.
    public var key: Int?
    /// The seed random parts without their own derive theirs from.
    public var seed: UInt64?
    public var entries: [Entry]

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
    public let seam: SeamID?
    /// The spec error, when the spec is at fault (its column is within the spec text).
    public let specError: SpecError?
    public let message: String

    public var description: String {
        guard let seam else { return message }
        return "\(seam): \(message)"
    }
}

/// A defined profile and whether it is applied.
public struct ProfileStatus: Hashable, Sendable {
    public let profile: Profile
    /// Whether any of its entries is active.
    public let isActive: Bool
}
