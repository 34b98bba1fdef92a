extension Event {
    private enum WireKeys: String, CodingKey { case id, time, kind, seam, source, message }

    /// Decodes an event whose `time` is in seconds, as the control API sends it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKeys.self)
        self.init(
            id: try container.decode(Int.self, forKey: .id), time: try container.decodeSeconds(forKey: .time),
            kind: try container.decode(Kind.self, forKey: .kind),
            seam: try container.decodeIfPresent(SeamID.self, forKey: .seam),
            source: try container.decodeIfPresent(String.self, forKey: .source),
            message: try container.decode(String.self, forKey: .message))
    }

    /// Encodes the event with `time` in seconds, which reads well in JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(time.seconds, forKey: .time)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(seam, forKey: .seam)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encode(message, forKey: .message)
    }
}
