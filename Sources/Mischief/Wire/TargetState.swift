/// Everything a reader knows about a target at one moment, as plain values: its header, its seams, profiles,
/// guards, its own screen and the latest events, as of one registry generation.
///
/// One type for every reader: a console (in process, or attached over the socket) keeps one and brings it forward
/// with each ``StreamDelta`` (``applying(_:eventLimit:)``); the control API's `GET /v1/console` answers one; tests
/// write one literally:
/// ```swift
/// let state = TargetState(
///     target: TargetHeader(name: "demo", pid: 42, uptime: .seconds(90), sessionSeed: 7, wallTime: now),
///     seams: [SeamSnapshot(id: "clock.now", title: "Current date", category: "Clock")]
/// )
/// ```
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
    /// The registry generation this state is as of (see ``StreamDelta``): a delta applies only when it follows it.
    /// 0 for a state that was not built from deltas.
    public var generation: UInt64
    /// The tests of a test process serving as a live session, each a scope (``ScopeSnapshot``); empty for other
    /// targets.
    public var scopes: [ScopeSnapshot] = []

    /// The state of one moment.
    public init(
        target: TargetHeader, seams: [SeamSnapshot] = [], profiles: [ProfileStatus] = [], events: [Event] = [],
        view: TargetView = TargetView(), guards: [GuardStatus] = [], generation: UInt64 = 0
    ) {
        self.target = target
        self.seams = seams
        self.profiles = profiles
        self.events = events
        self.view = view
        self.guards = guards
        self.generation = generation
    }

    private enum CodingKeys: String, CodingKey {
        case target, seams, profiles, events, view, guards, generation, scopes
    }

    /// Decodes a state; `guards` came after API version 1 and `generation` later still: a target that does not send
    /// them has no guards and generation 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            target: try container.decode(TargetHeader.self, forKey: .target),
            seams: try container.decode([SeamSnapshot].self, forKey: .seams),
            profiles: try container.decode([ProfileStatus].self, forKey: .profiles),
            events: try container.decode([Event].self, forKey: .events),
            view: try container.decode(TargetView.self, forKey: .view),
            guards: try container.decodeIfPresent([GuardStatus].self, forKey: .guards) ?? [],
            generation: try container.decodeIfPresent(UInt64.self, forKey: .generation) ?? 0)
        scopes = try container.decodeIfPresent([ScopeSnapshot].self, forKey: .scopes) ?? []
    }

    /// Encodes the state; `generation` only when it is not 0, so `GET /v1/console` sends the JSON it always sent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(target, forKey: .target)
        try container.encode(seams, forKey: .seams)
        try container.encode(profiles, forKey: .profiles)
        try container.encode(events, forKey: .events)
        try container.encode(view, forKey: .view)
        try container.encode(guards, forKey: .guards)
        if generation != 0 { try container.encode(generation, forKey: .generation) }
        if !scopes.isEmpty { try container.encode(scopes, forKey: .scopes) }
    }
}

extension TargetState {
    /// The state a delta since 0 (everything: a reader's first, or the first from a new connection) describes.
    public init(everything delta: StreamDelta, eventLimit: Int) {
        self.init(target: delta.target)
        apply(delta, eventLimit: eventLimit)
    }

    /// Applies a delta (see ``StreamDelta``) when it follows this state's ``generation``; returns whether it did. A
    /// delta older than the state, or one that starts after it (which would leave a gap), changes nothing.
    ///
    /// The header as sent; the seams listed replaced or added in place (keeping their actions when the delta leaves
    /// them out); those removed dropped; the profiles, the guards and the view when sent; the events not seen yet
    /// appended, keeping the newest `eventLimit`.
    @discardableResult
    public mutating func applying(_ delta: StreamDelta, eventLimit: Int) -> Bool {
        guard delta.follows(generation) || (generation == 0 && delta.registry.since == 0) else { return false }
        apply(delta, eventLimit: eventLimit)
        return true
    }

    private mutating func apply(_ delta: StreamDelta, eventLimit: Int) {
        let registry = delta.registry
        target = delta.target
        generation = registry.generation
        // Actions are only in a delta since 0; a later one lists the seams without them.
        var actions: [SeamID: [ActionSignature]] = [:]
        for seam in seams where !seam.actions.isEmpty { actions[seam.id] = seam.actions }
        if registry.since == 0 {
            seams = []
        } else if !registry.removed.isEmpty {
            let removed = Set(registry.removed)
            seams.removeAll { removed.contains($0.id) }
        }
        var index: [SeamID: Int] = [:]
        for (offset, seam) in seams.enumerated() { index[seam.id] = offset }
        for var seam in registry.seams {
            if seam.actions.isEmpty, let known = actions[seam.id] { seam.actions = known }
            if let offset = index[seam.id] {
                seams[offset] = seam
            } else {
                index[seam.id] = seams.count
                seams.append(seam)
            }
        }
        if let profiles = registry.profiles { self.profiles = profiles }
        if let guards = registry.guards { self.guards = guards }
        if let view = registry.view { self.view = view }
        if let scopes = registry.scopes {
            self.scopes = scopes
        } else if registry.since == 0 {
            self.scopes = []
        }
        let newest = events.last?.id ?? 0
        let fresh = registry.events.filter { $0.id > newest }
        if !fresh.isEmpty { events = Array((events + fresh).suffix(eventLimit)) }
    }
}
