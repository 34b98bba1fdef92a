/// One seam's counters, status and behaviour: what the control API's events stream sends (in its `counters`
/// message) for each seam whose counts or state changed.
///
/// In JSON it is flat: `seam`, `calls`, `chaosCalls`, `errors`, `inFlight`, `held`, `status`, `behaviour` (`held`
/// may be missing in what an older target sends).
public struct SeamUpdate: Hashable, Sendable, Codable {
    /// The seam.
    public var seam: SeamID
    /// Its call counters.
    public var counters: SeamCounters
    /// Never applied, active, reverting (calls still in flight) or reverted.
    public var status: RevertStatus
    /// The behaviour calls get now, described for people; nil when the seam runs its original.
    public var behaviour: String?

    /// An update with these values.
    public init(seam: SeamID, counters: SeamCounters, status: RevertStatus, behaviour: String? = nil) {
        self.seam = seam
        self.counters = counters
        self.status = status
        self.behaviour = behaviour
    }

    /// The update of a seam in a snapshot.
    public init(_ seam: SeamSnapshot) {
        self.init(seam: seam.id, counters: seam.counters, status: seam.status, behaviour: seam.behaviourText)
    }

    private enum CodingKeys: String, CodingKey {
        case seam, calls, chaosCalls, errors, inFlight, held, status, behaviour
    }

    /// Decodes a flat update.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seam: try container.decode(SeamID.self, forKey: .seam),
            counters: SeamCounters(
                calls: try container.decode(Int.self, forKey: .calls),
                chaosCalls: try container.decode(Int.self, forKey: .chaosCalls),
                errors: try container.decode(Int.self, forKey: .errors),
                inFlight: try container.decode(Int.self, forKey: .inFlight),
                held: try container.decodeIfPresent(Int.self, forKey: .held) ?? 0),
            status: try container.decode(RevertStatus.self, forKey: .status),
            behaviour: try container.decodeIfPresent(String.self, forKey: .behaviour))
    }

    /// Encodes the update flat.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seam, forKey: .seam)
        try container.encode(counters.calls, forKey: .calls)
        try container.encode(counters.chaosCalls, forKey: .chaosCalls)
        try container.encode(counters.errors, forKey: .errors)
        try container.encode(counters.inFlight, forKey: .inFlight)
        try container.encode(counters.held, forKey: .held)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(behaviour, forKey: .behaviour)
    }
}
