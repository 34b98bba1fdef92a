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
