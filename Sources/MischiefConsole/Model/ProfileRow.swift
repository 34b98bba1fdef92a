import Mischief

/// One profile as the console's profile bar shows it.
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

    /// Creates a row.
    public init(name: String, summary: String? = nil, key: Int? = nil, isOn: Bool = false, entryCount: Int = 0) {
        self.name = name
        self.summary = summary
        self.key = key
        self.isOn = isOn
        self.entryCount = entryCount
    }

    /// The row of a defined profile (``Registry/profiles``).
    public init(_ status: ProfileStatus) {
        self.init(
            name: status.profile.name, summary: status.profile.description, key: status.profile.key,
            isOn: status.isActive, entryCount: status.profile.entries.count)
    }
}
