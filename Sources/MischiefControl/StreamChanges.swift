import Foundation
import Mischief

/// A `changes` message of the events stream (`GET /v1/events?changes=1`): the target's header as of now and what
/// changed in its registry since the stream's previous `changes` message (the first: everything).
///
/// A client keeps its copy current by applying each one in order: replace or add the seams listed (keeping a
/// seam's actions when the message leaves them out: only the first message lists them), drop those removed,
/// replace the profiles and the view when present, and append the events it has not seen (ids grow; the message
/// may repeat some).
public struct StreamChanges: Sendable, Codable, Equatable {
    /// Who the target is and what time it is there.
    public var target: TargetHeader
    /// What changed in the registry.
    public var changes: RegistryChanges

    public init(target: TargetHeader, changes: RegistryChanges) {
        self.target = target
        self.changes = changes
    }
}

extension StreamChanges {
    /// What a console shows of a message besides the changes in it: the times to the second (the target's uptime,
    /// its wall-clock time and its clock's) and the registry's switches. The events feed sends a message that
    /// carries no change only when this differs from the last one it sent.
    struct Shown: Equatable {
        let uptime: Int64
        let wallTime: Int64
        let targetTime: Int64?
        let isCounting: Bool
        let disabledReason: String?
    }

    var shown: Shown {
        func second(_ date: Date) -> Int64 {
            let seconds = date.timeIntervalSince1970.rounded(.down)
            return Int64(exactly: seconds) ?? (seconds < 0 ? .min : .max)
        }
        return Shown(
            uptime: target.uptime.components.seconds, wallTime: second(target.wallTime),
            targetTime: target.targetTime.map(second), isCounting: changes.isCounting,
            disabledReason: changes.disabledReason)
    }
}
