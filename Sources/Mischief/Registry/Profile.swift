/// A named set of seams and specs (``SeamSpec``), applied and reverted as a unit: each becomes a layer.
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
    /// The profile's unique name, as consoles and `apply(profile:)` use it.
    public var name: String
    /// What the profile does, in a sentence for people; nil when the name says it all.
    public var description: String?
    /// The console's hot key, 1–9.
    public var key: Int?
    /// The seed random parts without their own derive theirs from.
    public var seed: UInt64?
    /// The seams and the specs applied to them, in order, as one group.
    public var entries: [SeamSpec]
    /// How long its entries last once applied before the registry reverts them, unless an entry has its own
    /// ``SeamSpec/ttl``; nil for as long as the profile is on.
    public var ttl: Duration?
    /// Guards that revert this profile when their condition holds, as text (``Guard/Condition/init(parsing:)``):
    /// `errors(net.request) > 50% over 10s`. They are armed again each time the profile is applied.
    public var guards: [String]

    /// A profile; ``Registry/define(_:fileAccess:)`` checks it against the registered seams.
    ///
    /// - Parameters:
    ///   - name: The profile's unique name.
    ///   - description: What it does, for people.
    ///   - key: The console's hot key, 1–9.
    ///   - seed: The seed for random parts without their own; nil for the session seed.
    ///   - entries: The seams and their specs.
    ///   - ttl: How long its entries last once applied; nil for as long as the profile is on.
    ///   - guards: Guards that revert the profile, as text.
    public init(
        name: String, description: String? = nil, key: Int? = nil, seed: UInt64? = nil, entries: [SeamSpec],
        ttl: Duration? = nil, guards: [String] = []
    ) {
        self.name = name
        self.description = description
        self.key = key
        self.seed = seed
        self.entries = entries
        self.ttl = ttl
        self.guards = guards
    }

    private enum CodingKeys: String, CodingKey { case name, description, key, seed, entries, ttl, guards }

    /// Decodes a profile; everything but `name` and `entries` may be missing, `ttl` is in seconds, `guards` a list
    /// of guard conditions.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            description: try container.decodeIfPresent(String.self, forKey: .description),
            key: try container.decodeIfPresent(Int.self, forKey: .key),
            seed: try container.decodeIfPresent(UInt64.self, forKey: .seed),
            entries: try container.decode([SeamSpec].self, forKey: .entries),
            ttl: try container.decodeIfPresent(Double.self, forKey: .ttl).map(Profile.ttl(seconds:)),
            guards: try container.decodeIfPresent([String].self, forKey: .guards) ?? [])
    }

    /// Encodes the profile, its `ttl` in seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(key, forKey: .key)
        try container.encodeIfPresent(seed, forKey: .seed)
        try container.encode(entries, forKey: .entries)
        try container.encodeIfPresent(ttl?.seconds, forKey: .ttl)
        if !guards.isEmpty { try container.encode(guards, forKey: .guards) }
    }

    /// The time to live each entry gets when the profile is applied: its own, else the profile's.
    public var entryTTLs: [Duration?] { entries.map { $0.ttl ?? ttl } }

    /// A number of seconds from JSON as a time to live, without trapping on numbers a `Duration` cannot hold
    /// (``Registry/check(ttl:)`` refuses what is out of range).
    static func ttl(seconds: Double) -> Duration {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return .seconds(seconds.isNaN ? 0 : 1e12) }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}

/// One problem with a profile, pointing at the entry at fault.
public struct ProfileProblem: Hashable, Sendable, CustomStringConvertible {
    /// The index of the entry in ``Profile/entries``, or nil for the profile as a whole (or one of its guards).
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
