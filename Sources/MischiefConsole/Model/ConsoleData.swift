import Mischief

/// Everything the console shows about a target, as plain values: what ``Console/update(_:_:)`` receives in a
/// ``ConsoleEvent/data(_:)`` event.
///
/// It holds the core's own values (the control API's wire format), so a console attached over a socket shows the
/// same values an in-process console takes from a ``Registry`` snapshot, and tests can write one literally:
/// ```swift
/// let data = ConsoleData(
///     target: TargetHeader(name: "demo", pid: 42, uptime: .seconds(90), sessionSeed: 7, wallTime: now),
///     seams: [SeamSnapshot(id: "clock.now", title: "Current date", category: "Clock")]
/// )
/// ```
public struct ConsoleData: Sendable, Codable, Equatable {
    /// Who the target is and what time it thinks it is.
    public var target: TargetHeader
    /// Every registered seam, in registry order.
    public var seams: [SeamSnapshot]
    /// Every defined profile, in load order.
    public var profiles: [ProfileStatus]
    /// Recent events, oldest first.
    public var events: [Event]
    /// The target's own screen.
    public var view: TargetView
    /// The target's guards, in the order they were added: watching, armed or tripped.
    public var guards: [GuardStatus]
    /// Whether the console still reaches the target.
    public var connection: ConnectionState
    /// The registry generation this data is as of (see ``StreamDelta``): a delta applies only when it follows it.
    public var generation: UInt64

    /// Creates the data of one frame.
    public init(
        target: TargetHeader,
        seams: [SeamSnapshot] = [],
        profiles: [ProfileStatus] = [],
        events: [Event] = [],
        view: TargetView = TargetView(),
        guards: [GuardStatus] = [],
        connection: ConnectionState = .connected,
        generation: UInt64 = 0
    ) {
        self.target = target
        self.seams = seams
        self.profiles = profiles
        self.events = events
        self.view = view
        self.guards = guards
        self.connection = connection
        self.generation = generation
    }
}

/// Whether the console reaches its target.
public enum ConnectionState: Sendable, Codable, Equatable {
    /// Data is current.
    case connected
    /// The target went away or stopped answering; the payload says why. The data shown is the last received.
    case lost(String)
}
