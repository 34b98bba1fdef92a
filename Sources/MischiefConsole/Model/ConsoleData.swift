import Mischief

/// Everything the console shows about a target, as plain values: what ``Console/update(_:_:)`` receives in a
/// ``ConsoleEvent/data(_:)`` event.
///
/// It is `Codable`, so a console attached over a socket receives the same value an in-process console builds
/// from a ``Registry`` snapshot, and tests can write one literally:
/// ```swift
/// let data = ConsoleData(
///     target: TargetHeader(name: "demo", pid: 42, uptime: .seconds(90), sessionSeed: 7, wallTime: now),
///     seams: [SeamRow(id: "clock.now", title: "Current date", category: "Clock")]
/// )
/// ```
public struct ConsoleData: Sendable, Codable, Equatable {
    /// Who the target is and what time it thinks it is.
    public var target: TargetHeader
    /// Every registered seam, in registry order.
    public var seams: [SeamRow]
    /// Every defined profile, in load order.
    public var profiles: [ProfileRow]
    /// Recent events, oldest first.
    public var events: [EventRow]
    /// The target's own screen.
    public var view: TargetView
    /// Whether the console still reaches the target.
    public var connection: ConnectionState

    /// Creates the data of one frame.
    public init(
        target: TargetHeader,
        seams: [SeamRow] = [],
        profiles: [ProfileRow] = [],
        events: [EventRow] = [],
        view: TargetView = TargetView(),
        connection: ConnectionState = .connected
    ) {
        self.target = target
        self.seams = seams
        self.profiles = profiles
        self.events = events
        self.view = view
        self.connection = connection
    }
}

/// Whether the console reaches its target.
public enum ConnectionState: Sendable, Codable, Equatable {
    /// Data is current.
    case connected
    /// The target went away or stopped answering; the payload says why. The data shown is the last received.
    case lost(String)
}
