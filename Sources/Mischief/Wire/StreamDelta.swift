#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A *delta*: the target's header as of now and what changed in its registry since a generation, stamped with the
/// generation it brings its reader to. The control API's events stream (`GET /v1/events?changes=1`) sends one per
/// batch as a `changes` message, `GET /v1/changes?since=G` answers with one, and a console's controller hands the
/// console one whenever the target changed, in process or attached.
///
/// A reader keeps a copy and the generation it is as of, and applies a delta when `registry.since` is at most that
/// generation and `registry.generation` is past it (a delta older than the copy is ignored): replace or add the
/// seams listed (keeping a seam's actions when the delta leaves them out: only a delta since 0 lists them), drop
/// those removed, replace the profiles, the guards and the view when present, and append the events it has not
/// seen (ids grow; a delta may repeat some).
public struct StreamDelta: Sendable, Codable, Equatable {
    /// Who the target is and what time it is there.
    public var target: TargetHeader
    /// What changed in the registry.
    public var registry: RegistryDelta

    /// A delta: the target's header as of now, and what changed in its registry
    /// (``Registry/delta(since:eventsAfter:)``).
    public init(target: TargetHeader, registry: RegistryDelta) {
        self.target = target
        self.registry = registry
    }

    // The JSON keeps the names the control API has always sent (`changes`), so /v1 clients read it unchanged; a
    // reader takes the glossary's name (`delta`) too.
    private enum CodingKeys: String, CodingKey {
        case target
        case registry = "changes"
    }

    private enum NewKeys: String, CodingKey {
        case delta
    }

    /// Decodes a delta whose registry's delta is under `changes` (v1) or `delta`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let target = try container.decode(TargetHeader.self, forKey: .target)
        let registry =
            try container.decodeIfPresent(RegistryDelta.self, forKey: .registry)
            ?? decoder.container(keyedBy: NewKeys.self).decode(RegistryDelta.self, forKey: .delta)
        self.init(target: target, registry: registry)
    }

    /// The registry generation a reader is as of once it has applied this delta.
    public var generation: UInt64 { registry.generation }

    /// Whether a reader as of `generation` can apply this delta: it starts at or before the reader and brings it
    /// further.
    public func follows(_ generation: UInt64) -> Bool {
        registry.since <= generation && registry.generation > generation
    }
}

extension StreamDelta {
    /// What a console shows of a delta besides the changes in it: the times to the second (the target's uptime, its
    /// wall-clock time and its clock's) and the registry's switches. A feed sends a delta that carries no change only
    /// when this differs from the last one it sent.
    package struct Shown: Equatable, Sendable {
        package let uptime: Int64
        package let wallTime: Int64
        package let targetTime: Int64?
        package let isCounting: Bool
        package let disabledReason: String?
    }

    package var shown: Shown {
        func second(_ date: Date) -> Int64 {
            let seconds = date.timeIntervalSince1970.rounded(.down)
            return Int64(exactly: seconds) ?? (seconds < 0 ? .min : .max)
        }
        return Shown(
            uptime: target.uptime.components.seconds, wallTime: second(target.wallTime),
            targetTime: target.targetTime.map(second), isCounting: registry.isCounting,
            disabledReason: registry.disabledReason)
    }
}
