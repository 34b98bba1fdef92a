import Mischief

/// One profile as the console's profile bar and profile list show it.
public struct ProfileRow: Sendable, Codable, Equatable {
    /// The profile's name.
    public var name: String
    /// Its description, if it has one.
    public var summary: String?
    /// Its hot key, 1–9, if it has one.
    public var key: Int?
    /// Whether any of its entries is active.
    public var isOn: Bool
    /// How many seam entries it holds.
    public var entryCount: Int
    /// The seams its entries change, in entry order, each once.
    public var seams: [SeamID]

    /// Creates a row.
    public init(
        name: String, summary: String? = nil, key: Int? = nil, isOn: Bool = false, entryCount: Int = 0,
        seams: [SeamID] = []
    ) {
        self.name = name
        self.summary = summary
        self.key = key
        self.isOn = isOn
        self.entryCount = entryCount
        self.seams = seams
    }

    /// The row of a defined profile (``Registry/profiles``).
    public init(_ status: ProfileStatus) {
        var seams: [SeamID] = []
        for entry in status.profile.entries where !seams.contains(entry.seam) { seams.append(entry.seam) }
        self.init(
            name: status.profile.name, summary: status.profile.description, key: status.profile.key,
            isOn: status.isActive, entryCount: status.profile.entries.count, seams: seams)
    }

    private enum CodingKeys: String, CodingKey {
        case name, summary, key, isOn, entryCount, seams
    }

    /// Decodes a row; `seams` may be missing (a target of an older Mischief sends none).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        key = try container.decodeIfPresent(Int.self, forKey: .key)
        isOn = try container.decode(Bool.self, forKey: .isOn)
        entryCount = try container.decode(Int.self, forKey: .entryCount)
        seams = try container.decodeIfPresent([SeamID].self, forKey: .seams) ?? []
    }
}
