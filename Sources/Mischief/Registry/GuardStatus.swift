/// A guard a registry holds: its definition, who added it, and whether it is armed or has tripped.
public struct GuardStatus: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// Whether a guard still watches.
    public enum State: Hashable, Sendable {
        /// It watches its condition (while what it guards is applied).
        case armed
        /// Its condition held at `at` (the registry's uptime) and it reverted what it guards; `reason` gives the
        /// figures and what was reverted. It stays tripped until armed again.
        case tripped(at: Duration, reason: String)
    }

    /// The guard's number within its registry, from 1.
    public let id: Int
    /// The condition and what it reverts.
    public let definition: Guard
    /// Who added it: `code`, `api`, or `profile NAME` for the guards a profile defines.
    public let source: String
    /// Armed or tripped.
    public let state: State
    /// Whether an armed guard watches now: what it guards is applied, so its condition is evaluated each round.
    /// An armed guard with nothing to guard waits, and its window starts when something is applied.
    public let isWatching: Bool

    /// A guard's status, as a registry reports it or a client decodes it.
    ///
    /// - Parameters:
    ///   - id: Its number within its registry.
    ///   - definition: Its condition and what it reverts.
    ///   - source: Who added it.
    ///   - state: Armed or tripped.
    ///   - isWatching: Whether what it guards is applied now (ignored when tripped).
    public init(id: Int, definition: Guard, source: String, state: State, isWatching: Bool = false) {
        self.id = id
        self.definition = definition
        self.source = source
        self.state = state
        self.isWatching = isWatching && state == .armed
    }

    /// Whether it has tripped (and not been armed again).
    public var isTripped: Bool {
        if case .tripped = state { return true }
        return false
    }

    /// `watching` (armed, and what it guards is applied), `armed` (nothing to guard yet) or `tripped`.
    public var stateName: String {
        isTripped ? "tripped" : isWatching ? "watching" : "armed"
    }

    /// One line: `guard 1 errors(net.request) > 50% over 10s reverts everything: watching`, or `tripped: …` with
    /// the figures.
    public var description: String {
        switch state {
        case .armed: "guard \(id) \(definition): \(stateName)"
        case .tripped(_, let reason): "guard \(id) \(definition): tripped: \(reason)"
        }
    }
}
