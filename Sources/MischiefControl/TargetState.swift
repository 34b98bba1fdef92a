import Mischief

/// `GET /v1/console`: everything a console showed about the target, in one answer of the core's own values.
///
/// The route is deprecated and answers on for /v1 clients; a console reads `StreamDelta` from the events stream
/// (`GET /v1/events?changes=1`), and a one-off read asks `GET /v1/changes?since=0`.
public struct TargetState: Sendable, Codable, Equatable {
    /// Who the target is and what time it thinks it is.
    public var target: TargetHeader
    /// Every registered seam, in registry order, with its actions and layers.
    public var seams: [SeamSnapshot]
    /// Every defined profile, in load order.
    public var profiles: [ProfileStatus]
    /// Recent events, oldest first.
    public var events: [Event]
    /// The target's own screen.
    public var view: TargetView
    /// The guards, in the order they were added, each watching, armed or tripped.
    public var guards: [GuardStatus]

    /// The state of one moment.
    public init(
        target: TargetHeader, seams: [SeamSnapshot] = [], profiles: [ProfileStatus] = [], events: [Event] = [],
        view: TargetView = TargetView(), guards: [GuardStatus] = []
    ) {
        self.target = target
        self.seams = seams
        self.profiles = profiles
        self.events = events
        self.view = view
        self.guards = guards
    }
}

extension TargetState {
    /// Decodes a state; `guards` came after API version 1, and a target that does not send it has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            target: try container.decode(TargetHeader.self, forKey: .target),
            seams: try container.decode([SeamSnapshot].self, forKey: .seams),
            profiles: try container.decode([ProfileStatus].self, forKey: .profiles),
            events: try container.decode([Event].self, forKey: .events),
            view: try container.decode(TargetView.self, forKey: .view),
            guards: try container.decodeIfPresent([GuardStatus].self, forKey: .guards) ?? [])
    }
}
