import Foundation
import Mischief

/// A reader's copy of a registry, kept as a console keeps it: ``TargetState``, brought forward by the one delta
/// applier (``TargetState/applying(_:eventLimit:)``).
extension TargetState {
    /// Everything `registry` holds now, as a reader's first delta carries it.
    static func following(_ registry: Registry) -> TargetState {
        TargetState(everything: registry.delta(since: 0).stamped, eventLimit: .max)
    }

    /// `changes` applied as a console applies a delta; nil when they do not follow this copy.
    func applying(_ changes: RegistryDelta) -> TargetState? {
        var copy = self
        return copy.applying(changes.stamped, eventLimit: .max) ? copy : nil
    }

    /// Applies what changed in `registry` since this copy's generation; returns that delta.
    @discardableResult
    mutating func follow(_ registry: Registry) -> RegistryDelta {
        let changes = registry.delta(since: generation)
        applying(changes.stamped, eventLimit: .max)
        return changes
    }

    /// The seam called `id`, if the copy has it.
    func seam(_ id: SeamID) -> SeamSnapshot? { seams.first { $0.id == id } }
}

extension RegistryDelta {
    /// The delta with a header, as a controller sends it.
    var stamped: StreamDelta {
        StreamDelta(
            target: TargetHeader(
                name: "test", pid: 1, uptime: uptime, sessionSeed: sessionSeed,
                wallTime: Date(timeIntervalSince1970: 0)),
            registry: self)
    }
}
