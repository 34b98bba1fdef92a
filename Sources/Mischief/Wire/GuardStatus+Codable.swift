/// In JSON (`GET /v1/guards`) a guard is flat: `id`, `when` (the condition's text), `reverts` (`everything`,
/// `profile` or `entries`) with `profile` or `entries` (the layers' ids; a reader takes `"reverts": "layers"` with
/// `layers` too), `source`, `state` (`armed` or `tripped`), `watching` (an
/// armed guard whose charge is applied), and for a tripped one `trippedAt` (seconds of uptime) and `reason`.
extension GuardStatus: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, when, reverts, profile, entries, layers, source, state, watching, trippedAt, reason
    }

    /// Decodes a guard's status; a `when` that does not parse is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .when)
        let condition: Guard.Condition
        do throws(SpecError) {
            condition = try Guard.Condition(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .when, in: container, debugDescription: error.message)
        }
        let scope: Guard.Scope
        switch try container.decode(String.self, forKey: .reverts) {
        case "profile": scope = .profile(try container.decode(String.self, forKey: .profile))
        case "entries", "layers":
            let ids =
                try container.decodeIfPresent([Int].self, forKey: .entries)
                ?? container.decode([Int].self, forKey: .layers)
            scope = .layers(ids.map(LayerID.init(rawValue:)))
        default: scope = .everything
        }
        let state: State
        if try container.decode(String.self, forKey: .state) == "tripped" {
            state = .tripped(
                at: try container.decodeSeconds(forKey: .trippedAt),
                reason: try container.decode(String.self, forKey: .reason))
        } else {
            state = .armed
        }
        self.init(
            id: try container.decode(Int.self, forKey: .id), definition: Guard(condition, reverts: scope),
            source: try container.decode(String.self, forKey: .source), state: state,
            isWatching: try container.decodeIfPresent(Bool.self, forKey: .watching) ?? false)
    }

    /// Encodes the status flat, times in seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(definition.condition.description, forKey: .when)
        switch definition.reverts {
        case .everything:
            try container.encode("everything", forKey: .reverts)
        case .profile(let name):
            try container.encode("profile", forKey: .reverts)
            try container.encode(name, forKey: .profile)
        case .layers(let layers):
            try container.encode("entries", forKey: .reverts)
            try container.encode(layers.map(\.rawValue), forKey: .entries)
        }
        try container.encode(source, forKey: .source)
        switch state {
        case .armed:
            try container.encode("armed", forKey: .state)
            try container.encode(isWatching, forKey: .watching)
        case .tripped(let time, let reason):
            try container.encode("tripped", forKey: .state)
            try container.encode(time.seconds, forKey: .trippedAt)
            try container.encode(reason, forKey: .reason)
        }
    }
}
