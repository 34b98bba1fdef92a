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

    /// A guard's status, as a registry reports it or a client decodes it.
    public init(id: Int, definition: Guard, source: String, state: State) {
        self.id = id
        self.definition = definition
        self.source = source
        self.state = state
    }

    /// Whether it has tripped (and not been armed again).
    public var isTripped: Bool {
        if case .tripped = state { return true }
        return false
    }

    /// One line: `guard 1 errors(net.request) > 50% over 10s reverts everything: armed`, or `tripped: …` with
    /// the figures.
    public var description: String {
        switch state {
        case .armed: "guard \(id) \(definition): armed"
        case .tripped(_, let reason): "guard \(id) \(definition): tripped: \(reason)"
        }
    }
}
