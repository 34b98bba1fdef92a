import Mischief

/// One registry event as the console's event log and detail pane show it.
public struct EventRow: Sendable, Codable, Equatable, Identifiable {
    /// Increasing number within the target's registry.
    public var id: Int
    /// When, measured from the registry's start.
    public var time: Duration
    /// What happened: `registered`, `applied`, `reverted`, `revert-completed`, `refused` or `report`.
    public var kind: String
    /// The seam concerned, if any.
    public var seam: SeamID?
    /// Who made the change ("console", "profile Tokyo"), if it was a change.
    public var source: String?
    /// What happened, possibly on several lines (a refused spec carries its caret line).
    public var message: String

    /// Creates a row.
    public init(
        id: Int, time: Duration, kind: String, seam: SeamID? = nil, source: String? = nil, message: String
    ) {
        self.id = id
        self.time = time
        self.kind = kind
        self.seam = seam
        self.source = source
        self.message = message
    }

    private enum CodingKeys: String, CodingKey { case id, time, kind, seam, source, message }

    /// Decodes a row whose `time` is in seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(Int.self, forKey: .id), time: try container.decodeSeconds(forKey: .time),
            kind: try container.decode(String.self, forKey: .kind),
            seam: try container.decodeIfPresent(SeamID.self, forKey: .seam),
            source: try container.decodeIfPresent(String.self, forKey: .source),
            message: try container.decode(String.self, forKey: .message))
    }

    /// Encodes the row with `time` in seconds, which reads well in JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(time.seconds, forKey: .time)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(seam, forKey: .seam)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encode(message, forKey: .message)
    }

    /// The row of a registry event.
    public init(_ event: Event) {
        self.init(
            id: event.id, time: event.time, kind: event.kind.rawValue, seam: event.seam, source: event.source,
            message: event.message)
    }
}
