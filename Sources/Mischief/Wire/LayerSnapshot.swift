/// One layer in a ``Snapshot``: one behaviour applied on one seam's stack.
///
/// In JSON (the control API's `layers`), its id is `entry` (a reader takes `layer` too), times are in seconds, and
/// `session` names the control session that owns it. `ttl`, `expiresAt` and `expiresIn` are there only for a layer
/// with a time to live (and may be missing in what an older target sends).
public struct LayerSnapshot: Hashable, Sendable, Identifiable, Codable {
    /// The layer's id, for ``Registry/revert(layers:source:)``.
    public let id: LayerID
    /// The seam the layer is on.
    public let seam: SeamID
    /// The behaviour described for people (a spec's canonical form, or `closure` for one built in code).
    public let behaviourText: String
    /// The canonical spec it was made from, which can be applied again; nil for a behaviour built in code.
    public let spec: String?
    /// Who applied it ("console", "profile Tokyo", "test").
    public let source: String
    /// The layers applied together with this one share a group number.
    public let group: Int
    /// When it was applied, measured from the registry's start.
    public let appliedAt: Duration
    /// When it was reverted, measured from the registry's start; nil while it is applied.
    public let revertedAt: Duration?
    /// Whether it is active, reverting (calls still inside it) or reverted.
    public let status: RevertStatus
    /// The seeds its random parts use.
    public let seeds: [UInt64]
    /// The control session that owns it; nil for a lasting change (the registry itself never sets it).
    public var session: String?
    /// Its time to live: how long it lasts after it was applied (or after its time to live was last set) before the
    /// registry reverts it by itself; nil when it lasts until reverted.
    public let ttl: Duration?
    /// When it expires, measured from the registry's start like ``appliedAt``; nil when it has no time to live or
    /// is no longer active. Compare it with a later uptime to count down.
    public let expiresAt: Duration?
    /// How long it has left, as of the snapshot (or the control API's answer) it is in; nil without a deadline.
    public var expiresIn: Duration?

    /// A layer, as the registry reports it or a client decodes it.
    public init(
        id: LayerID, seam: SeamID, behaviour: String, spec: String? = nil, source: String, group: Int = 0,
        appliedAt: Duration = .zero, revertedAt: Duration? = nil, status: RevertStatus, seeds: [UInt64] = [],
        session: String? = nil, ttl: Duration? = nil, expiresAt: Duration? = nil, expiresIn: Duration? = nil
    ) {
        self.id = id
        self.seam = seam
        self.behaviourText = behaviour
        self.spec = spec
        self.source = source
        self.group = group
        self.appliedAt = appliedAt
        self.revertedAt = revertedAt
        self.status = status
        self.seeds = seeds
        self.session = session
        self.ttl = ttl
        self.expiresAt = expiresAt
        self.expiresIn = expiresIn
    }

    // `id` is `entry` in the v1 JSON; a reader takes `layer` too.
    private enum CodingKeys: String, CodingKey {
        case id = "entry"
        case behaviourText = "behaviour"
        case seam, spec, source, group, appliedAt, revertedAt, status, seeds, session
        case ttl, expiresAt, expiresIn
    }

    private enum NewKeys: String, CodingKey {
        case layer
    }

    /// Decodes a layer whose times are in seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: LayerID(
                rawValue: try container.decodeIfPresent(Int.self, forKey: .id)
                    ?? decoder.container(keyedBy: NewKeys.self).decode(Int.self, forKey: .layer)),
            seam: try container.decode(SeamID.self, forKey: .seam),
            behaviour: try container.decode(String.self, forKey: .behaviourText),
            spec: try container.decodeIfPresent(String.self, forKey: .spec),
            source: try container.decode(String.self, forKey: .source),
            group: try container.decodeIfPresent(Int.self, forKey: .group) ?? 0,
            appliedAt: try container.decodeIfPresent(Double.self, forKey: .appliedAt).map { .seconds($0) } ?? .zero,
            revertedAt: try container.decodeIfPresent(Double.self, forKey: .revertedAt).map { .seconds($0) },
            status: try container.decode(RevertStatus.self, forKey: .status),
            seeds: try container.decodeIfPresent([UInt64].self, forKey: .seeds) ?? [],
            session: try container.decodeIfPresent(String.self, forKey: .session),
            ttl: try container.decodeIfPresent(Double.self, forKey: .ttl).map { .seconds($0) },
            expiresAt: try container.decodeIfPresent(Double.self, forKey: .expiresAt).map { .seconds($0) },
            expiresIn: try container.decodeIfPresent(Double.self, forKey: .expiresIn).map { .seconds($0) })
    }

    /// Encodes the layer with its times in seconds, which read well in JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.rawValue, forKey: .id)
        try container.encode(seam, forKey: .seam)
        try container.encode(behaviourText, forKey: .behaviourText)
        try container.encodeIfPresent(spec, forKey: .spec)
        try container.encode(source, forKey: .source)
        try container.encode(group, forKey: .group)
        try container.encode(appliedAt.seconds, forKey: .appliedAt)
        try container.encodeIfPresent(revertedAt?.seconds, forKey: .revertedAt)
        try container.encode(status, forKey: .status)
        try container.encode(seeds, forKey: .seeds)
        try container.encodeIfPresent(session, forKey: .session)
        try container.encodeIfPresent(ttl?.seconds, forKey: .ttl)
        try container.encodeIfPresent(expiresAt?.seconds, forKey: .expiresAt)
        try container.encodeIfPresent(expiresIn?.seconds, forKey: .expiresIn)
    }
}
