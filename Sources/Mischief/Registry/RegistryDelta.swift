/// What changed in a registry after a generation: what ``Registry/delta(since:eventsAfter:)`` returns.
///
/// A reader keeps a copy (a ``TargetState``, as a console does) and applies each answer to it with the one delta
/// applier there is, ``TargetState/applying(_:eventLimit:)``; a ``RegistryFollower`` wakes it when there is one:
///
/// ```swift
/// let header = TargetHeader(name: "app", pid: getpid(), uptime: .zero, sessionSeed: registry.sessionSeed, wallTime: .now)
/// var copy = TargetState(everything: StreamDelta(target: header, registry: registry.delta(since: 0)), eventLimit: 200)
/// for await _ in registry.changeSignals() {
///     let delta = registry.delta(since: copy.generation)
///     copy.applying(StreamDelta(target: header, registry: delta), eventLimit: 200)  // seams, layers, profiles, view
/// }
/// ```
///
/// `delta(since: 0)` is everything: every seam, every layer kept, the profiles and the view.
public struct RegistryDelta: Hashable, Sendable {
    /// The registry's generation when the answer was taken; ask with it next time.
    public let generation: UInt64
    /// The generation asked about.
    public let since: UInt64
    /// Time since the registry started.
    public let uptime: Duration
    /// The seed random behaviours derive their seeds from unless given one.
    public let sessionSeed: UInt64
    /// Whether calls are being counted now.
    public let isCounting: Bool
    /// Why changes are refused, when the kill switch is engaged.
    public let disabledReason: String?
    /// The seams registered or changed after `since` (behaviour, status, counters, layers), in registration
    /// order; a seam not listed is as it was.
    public internal(set) var seams: [SeamSnapshot]
    /// The seams unregistered after `since`. One that was registered again is in ``seams`` too: it moved to
    /// the end of the registration order.
    public let removed: [SeamID]
    /// Every layer the registry keeps for the seams in ``seams``, oldest first: replace each listed seam's
    /// layers with these (layers it no longer lists were pruned).
    public let layers: [LayerSnapshot]
    /// The profiles, each with whether it is applied, when any was defined or changed status after `since`.
    public let profiles: [ProfileStatus]?
    /// The guards with their state, when any was added, removed, armed or tripped after `since`.
    public let guards: [GuardStatus]?
    /// The events after the one the caller saw (or, without one, those logged after `since`), oldest first;
    /// at most what the event history keeps.
    public let events: [Event]
    /// The target's view, when it was published after `since`.
    public let view: TargetView?
    /// The id of the newest event.
    public let lastEventID: Int
    /// The test scopes (``Registry/scopes``), when any was published, ended, changed or called after `since`; nil
    /// when none changed (or the target publishes none).
    public internal(set) var scopes: [ScopeSnapshot]?

    /// A delta as a registry answers it; for tools and tests that make one by hand.
    public init(
        generation: UInt64, since: UInt64, uptime: Duration, sessionSeed: UInt64, isCounting: Bool,
        disabledReason: String? = nil, seams: [SeamSnapshot], removed: [SeamID] = [], layers: [LayerSnapshot] = [],
        profiles: [ProfileStatus]? = nil, guards: [GuardStatus]? = nil, events: [Event] = [], view: TargetView? = nil,
        lastEventID: Int = 0, scopes: [ScopeSnapshot]? = nil
    ) {
        self.generation = generation
        self.since = since
        self.uptime = uptime
        self.sessionSeed = sessionSeed
        self.isCounting = isCounting
        self.disabledReason = disabledReason
        self.seams = seams
        self.removed = removed
        self.layers = layers
        self.profiles = profiles
        self.guards = guards
        self.events = events
        self.view = view
        self.lastEventID = lastEventID
        self.scopes = scopes
    }

    /// Whether nothing but the time moved.
    public var isEmpty: Bool {
        seams.isEmpty && removed.isEmpty && profiles == nil && guards == nil && events.isEmpty && view == nil
            && scopes == nil
    }
}

extension Registry {
    /// What changed after `generation`: the seams registered or changed, those removed, the profiles' status
    /// if it changed, the events, and the target's view if it was published again.
    ///
    /// Its cost grows with what changed, not with the registry: reading it touches only the seams counted after
    /// `generation`, except that while calls are counted every seam's counters are read to find those that
    /// moved (a load per counter; no seam is rebuilt unless it changed). See ``RegistryDelta`` for a poller.
    ///
    /// - Parameters:
    ///   - generation: The ``RegistryDelta/generation`` or ``Snapshot/generation`` the caller is as of; 0 for
    ///     everything.
    ///   - eventsAfter: The id of the last event the caller saw; nil for the events logged after `generation`.
    public func delta(since generation: UInt64, eventsAfter: Int? = nil) -> RegistryDelta {
        let time = now
        return state.withLock { state in
            state.settle(time: time)
            state.readCounters(time: time)
            let ids = state.seams(changedSince: generation)
            var seams: [SeamSnapshot] = []
            var layers: [LayerSnapshot] = []
            seams.reserveCapacity(ids.count)
            for id in ids {
                seams.append(state.seamSnapshot(id))
                layers += state.records[id]!.keptLayers.compactMap { state.history[$0] }
            }
            if !state.deadlines.isEmpty {
                state.fillTimeLeft(&seams, at: time)  // as of now; a follower counts down from `expiresAt`
                layers = layers.map { $0.timed(at: time) }
            }
            let removed = state.generations.removed.filter { $0.value > generation }.map(\.key)
            let events =
                eventsAfter.map { state.events.events(after: $0, limit: .max) }
                ?? state.events.events(since: generation)
            let scopes = state.changedScopes(since: generation, time: time)
            var delta = RegistryDelta(
                generation: state.generations.current, since: generation, uptime: time, sessionSeed: sessionSeed,
                isCounting: state.isCounting, disabledReason: KillSwitch.reason, seams: seams,
                removed: removed.sorted { $0.rawValue < $1.rawValue },
                layers: layers.sorted { $0.id < $1.id },
                profiles: generation == 0 || state.generations.profiles > generation ? state.profileStatuses : nil,
                guards: generation == 0 || state.generations.guards > generation ? state.guardStatuses : nil,
                events: events, view: generation == 0 || state.generations.view > generation ? state.view : nil,
                lastEventID: state.events.lastID)
            delta.scopes = scopes
            return delta
        }
    }
}
