/// In JSON (`GET /v1/profiles`) a profile's status is flat: `name`, `summary`, `key`, `isOn`, `entryCount`, the
/// `seams` it changes, then its `entries` and `seed`.
extension ProfileStatus: Codable {
    /// A defined profile and whether it is applied.
    public init(_ profile: Profile, isActive: Bool = false) {
        self.init(profile: profile, isActive: isActive)
    }

    /// The seams the profile's entries change, in entry order, each once.
    public var seams: [SeamID] {
        var seams: [SeamID] = []
        for entry in profile.entries where !seams.contains(entry.seam) { seams.append(entry.seam) }
        return seams
    }

    private enum CodingKeys: String, CodingKey { case name, summary, key, isOn, entryCount, seams, entries, seed }

    /// Decodes a profile's status; `entries` and `seed` may be missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let profile = Profile(
            name: try container.decode(String.self, forKey: .name),
            description: try container.decodeIfPresent(String.self, forKey: .summary),
            key: try container.decodeIfPresent(Int.self, forKey: .key),
            seed: try container.decodeIfPresent(UInt64.self, forKey: .seed),
            entries: try container.decodeIfPresent([SeamSpec].self, forKey: .entries) ?? [])
        self.init(profile, isActive: try container.decode(Bool.self, forKey: .isOn))
    }

    /// Encodes the status flat.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profile.name, forKey: .name)
        try container.encodeIfPresent(profile.description, forKey: .summary)
        try container.encodeIfPresent(profile.key, forKey: .key)
        try container.encode(isActive, forKey: .isOn)
        try container.encode(profile.entries.count, forKey: .entryCount)
        try container.encode(seams, forKey: .seams)
        try container.encode(profile.entries, forKey: .entries)
        try container.encodeIfPresent(profile.seed, forKey: .seed)
    }
}
