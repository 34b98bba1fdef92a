/// One seam and the spec to apply to it: what a profile applies (``Profile/entries``) and what `MISCHIEF_APPLY`
/// applies (``EnvironmentChaos/entries``). ``Change`` is the same pair made ready to apply (the spec parsed and bound
/// to the seam's types); a profile file's `ProfileFile.Entry` (MischiefFiles) is one as written, with where.
///
/// ```swift
/// let tokyo = Profile(name: "Tokyo", entries: [SeamSpec(seam: "clock.now", spec: "shift(+9h)", ttl: .seconds(600))])
/// ```
public struct SeamSpec: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The seam the spec is applied to.
    public var seam: SeamID
    /// The spec, as text (see <doc:WritingSpecs>).
    public var spec: String
    /// The seed its random parts derive from; nil for the profile's seed, else the registry's session seed.
    public var seed: UInt64?
    /// The source it is applied with (what the event log and the console show); nil for the profile's or the
    /// variable's.
    public var source: String?
    /// How long the layer lasts once applied before the registry reverts it (see ``Registry/longestTTL``); nil for
    /// the profile's ``Profile/ttl``, or until reverted.
    public var ttl: Duration?

    /// `spec` for `seam`, applied with `seed` under `source`, for `ttl` when given.
    public init(seam: SeamID, spec: String, seed: UInt64? = nil, source: String? = nil, ttl: Duration? = nil) {
        self.seam = seam
        self.spec = spec
        self.seed = seed
        self.source = source
        self.ttl = ttl
    }

    /// `seam=spec`.
    public var description: String { "\(seam)=\(spec)" }

    private enum CodingKeys: String, CodingKey { case seam, spec, seed, source, ttl }

    /// Decodes a pair; `ttl` (seconds), `seed` and `source` may be missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seam: try container.decode(SeamID.self, forKey: .seam),
            spec: try container.decode(String.self, forKey: .spec),
            seed: try container.decodeIfPresent(UInt64.self, forKey: .seed),
            source: try container.decodeIfPresent(String.self, forKey: .source),
            ttl: try container.decodeIfPresent(Double.self, forKey: .ttl).map(Profile.ttl(seconds:)))
    }

    /// Encodes the pair, its `ttl` in seconds; `seed` and `source` only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seam, forKey: .seam)
        try container.encode(spec, forKey: .spec)
        try container.encodeIfPresent(seed, forKey: .seed)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(ttl?.seconds, forKey: .ttl)
    }
}
