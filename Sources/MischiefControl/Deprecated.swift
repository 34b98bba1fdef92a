import Foundation
import Mischief

// The names issue 29 retired, kept for one release (see Mischief's Deprecated.swift): a *delta* is what changed since
// a generation.

extension ControlClient {
    /// What changed after a registry generation (`GET /v1/changes`).
    @available(*, deprecated, renamed: "delta(since:eventsAfter:)")
    public func changes(since generation: UInt64, eventsAfter: Int? = nil) async throws(ControlClientError)
        -> StreamDelta
    {
        try await delta(since: generation, eventsAfter: eventsAfter)
    }
}

extension TargetStatus {
    /// The active layers, oldest first.
    @available(*, deprecated, renamed: "activeLayers")
    public var active: [LayerSnapshot] {
        get { activeLayers }
        set { activeLayers = newValue }
    }

    /// A status from its parts.
    @available(
        *, deprecated,
        renamed: "init(target:chaosAllowed:disabledReason:crashAllowed:activeLayers:seams:summary:guards:)"
    )
    public init(
        target: TargetInfo, chaosAllowed: Bool, disabledReason: String?, crashAllowed: Bool, active: [LayerSnapshot],
        seams: [SeamStatus], summary: StatusSummary, guards: [GuardStatus] = []
    ) {
        self.init(
            target: target, chaosAllowed: chaosAllowed, disabledReason: disabledReason, crashAllowed: crashAllowed,
            activeLayers: active, seams: seams, summary: summary, guards: guards)
    }
}

extension StatusSummary {
    /// Layers applied now.
    @available(*, deprecated, renamed: "activeLayers")
    public var activeChanges: Int {
        get { activeLayers }
        set { activeLayers = newValue }
    }

    /// Totals from their values.
    @available(*, deprecated, renamed: "init(activeLayers:seamsChanged:calls:chaosCalls:errors:inFlight:held:)")
    public init(
        activeChanges: Int, seamsChanged: Int, calls: Int, chaosCalls: Int, errors: Int, inFlight: Int, held: Int
    ) {
        self.init(
            activeLayers: activeChanges, seamsChanged: seamsChanged, calls: calls, chaosCalls: chaosCalls,
            errors: errors, inFlight: inFlight, held: held)
    }
}

// The names issue 46 retired: a *delta* is never *changes*.
extension ControlClient {
    /// The target's events stream; with `changes`, its deltas.
    @available(*, deprecated, renamed: "events(deltas:)")
    public func events(changes: Bool) -> AsyncThrowingStream<StreamMessage, any Error> {
        events(deltas: changes)
    }
}

extension StreamMessage {
    /// A delta message.
    @available(*, deprecated, renamed: "delta")
    public static func changes(_ delta: StreamDelta) -> StreamMessage { .delta(delta) }
}

/// Who the target is and how it serves (`GET /v1/target`): one type with a delta's header.
@available(*, deprecated, renamed: "TargetHeader")
public typealias TargetInfo = TargetHeader

/// The initialiser `TargetInfo` had, for code written against it.
extension TargetHeader {
    /// A target's description as `GET /v1/target` answered it, `uptime` in seconds.
    @available(
        *, deprecated,
        message: "use init(name:pid:uptime:sessionSeed:wallTime:…), uptime a Duration, with apiVersion: … label:"
    )
    public init(
        name: String, pid: Int32, uptime: Double, apiVersion: Int, libraryVersion: String, sessionSeed: UInt64,
        socket: String?, instance: String? = nil, label: String? = nil
    ) {
        self.init(
            name: name, pid: pid, uptime: .seconds(uptime), sessionSeed: sessionSeed, wallTime: Date(),
            apiVersion: apiVersion, libraryVersion: libraryVersion, socket: socket, instance: instance, label: label)
    }
}
