extension RegistryDelta: Codable {
    // The v1 JSON keys, which are the Swift names but one: `layers` is sent as `entries` (its v1 name; a reader takes
    // `layers` too). `seams` are ``SeamSnapshot``s in their flat JSON, `entries` ``LayerSnapshot``s, `events`
    // ``Event``s, `profiles` ``ProfileStatus``es, and `uptime` is in seconds. `profiles`, `guards` (``GuardStatus``es)
    // and `view` are absent when they did not change; `disabledReason` when the kill switch is off. The codebase
    // guide's glossary maps each word to its key.
    private enum CodingKeys: String, CodingKey {
        case layers = "entries"
        case generation, since, uptime, sessionSeed, isCounting, disabledReason, seams, removed, profiles
        case guards, events, view, lastEventID, scopes
    }

    private enum NewKeys: String, CodingKey {
        case layers
    }

    /// Decodes an answer of ``Registry/delta(since:eventsAfter:)`` as the control API sends it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            generation: try container.decode(UInt64.self, forKey: .generation),
            since: try container.decode(UInt64.self, forKey: .since),
            uptime: try container.decodeSeconds(forKey: .uptime),
            sessionSeed: try container.decode(UInt64.self, forKey: .sessionSeed),
            isCounting: try container.decode(Bool.self, forKey: .isCounting),
            disabledReason: try container.decodeIfPresent(String.self, forKey: .disabledReason),
            seams: try container.decode([SeamSnapshot].self, forKey: .seams),
            removed: try container.decode([SeamID].self, forKey: .removed),
            layers: try container.decodeIfPresent([LayerSnapshot].self, forKey: .layers)
                ?? decoder.container(keyedBy: NewKeys.self).decode([LayerSnapshot].self, forKey: .layers),
            profiles: try container.decodeIfPresent([ProfileStatus].self, forKey: .profiles),
            guards: try container.decodeIfPresent([GuardStatus].self, forKey: .guards),
            events: try container.decode([Event].self, forKey: .events),
            view: try container.decodeIfPresent(TargetView.self, forKey: .view),
            lastEventID: try container.decode(Int.self, forKey: .lastEventID))
        scopes = try container.decodeIfPresent([ScopeSnapshot].self, forKey: .scopes)
    }

    /// Encodes the answer, `uptime` in seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(generation, forKey: .generation)
        try container.encode(since, forKey: .since)
        try container.encode(uptime.seconds, forKey: .uptime)
        try container.encode(sessionSeed, forKey: .sessionSeed)
        try container.encode(isCounting, forKey: .isCounting)
        try container.encodeIfPresent(disabledReason, forKey: .disabledReason)
        try container.encode(seams, forKey: .seams)
        try container.encode(removed, forKey: .removed)
        try container.encode(layers, forKey: .layers)
        try container.encodeIfPresent(profiles, forKey: .profiles)
        try container.encodeIfPresent(guards, forKey: .guards)
        try container.encode(events, forKey: .events)
        try container.encodeIfPresent(view, forKey: .view)
        try container.encode(lastEventID, forKey: .lastEventID)
        try container.encodeIfPresent(scopes, forKey: .scopes)
    }
}

extension Registry {
    /// ``delta(since:eventsAfter:)`` with each listed seam's ``SeamSnapshot/actions`` filled in, as
    /// ``snapshot(includingActions:)`` does: what the control API sends a console.
    public func delta(since generation: UInt64, eventsAfter: Int? = nil, includingActions: Bool) -> RegistryDelta {
        var result = delta(since: generation, eventsAfter: eventsAfter)
        guard includingActions else { return result }
        for index in result.seams.indices {
            result.seams[index].actions = actions(for: result.seams[index].id) ?? []
        }
        return result
    }
}
