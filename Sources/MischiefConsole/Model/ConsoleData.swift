import Mischief

/// What the console shows about a target: the target's state (``TargetState``, the core's one type for it, read
/// through this value as if its own: `data.seams`) and whether the console still reaches the target. The console
/// builds it from its controller's deltas (``ConsoleUpdate``), with the one applier
/// (``TargetState/applying(_:eventLimit:)``).
///
/// A console attached over a socket shows the same values an in-process console takes from a ``Registry``, and
/// tests can write one literally:
/// ```swift
/// let data = ConsoleData(
///     target: TargetHeader(name: "demo", pid: 42, uptime: .seconds(90), sessionSeed: 7, wallTime: now),
///     seams: [SeamSnapshot(id: "clock.now", title: "Current date", category: "Clock")]
/// )
/// ```
@dynamicMemberLookup
public struct ConsoleData: Sendable, Codable, Equatable {
    /// The target's state as last received.
    public var state: TargetState
    /// Whether the console still reaches the target.
    public var connection: ConnectionState

    /// The data of a reachable (or lost) target in `state`.
    public init(state: TargetState, connection: ConnectionState = .connected) {
        self.state = state
        self.connection = connection
    }

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
        self.init(
            state: TargetState(
                target: target, seams: seams, profiles: profiles, events: events, view: view, guards: guards,
                generation: generation),
            connection: connection)
    }

    /// The target's state, field by field: `data.seams`, `data.generation`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<TargetState, Value>) -> Value {
        get { state[keyPath: keyPath] }
        set { state[keyPath: keyPath] = newValue }
    }

    /// The data a delta since 0 (everything: a controller's first, or the first from a new connection) describes.
    public init(everything delta: StreamDelta, eventLimit: Int) {
        self.init(state: TargetState(everything: delta, eventLimit: eventLimit))
    }

    /// Applies a delta when it follows the state's generation (``TargetState/applying(_:eventLimit:)``), and then
    /// counts the target as reached; returns whether it did.
    @discardableResult
    public mutating func applying(_ delta: StreamDelta, eventLimit: Int) -> Bool {
        guard state.applying(delta, eventLimit: eventLimit) else { return false }
        connection = .connected
        return true
    }
}

/// Whether the console reaches its target.
public enum ConnectionState: Sendable, Codable, Equatable {
    /// Data is current.
    case connected
    /// The target went away or stopped answering; the payload says why. The data shown is the last received.
    case lost(String)
}
