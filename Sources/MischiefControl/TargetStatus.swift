import Foundation
import Mischief

/// `GET /v1/status`: what an orchestrator gates on, in one small answer: who the target is, whether chaos may
/// run there, what is applied now, what is held, and the counts.
///
/// ```sh
/// curl --unix-socket $S http://localhost/v1/status | jq '.summary.activeChanges'
/// ```
///
/// Unlike `GET /v1/seams` (and `mischief list --json`, which is built on it), it lists only the seams with
/// activity: a change applied, or calls, chaos calls, errors, calls in flight or held calls counted since their
/// last reset. The summary covers every seam. `guards` lists every guard, armed or tripped.
public struct TargetStatus: Sendable, Codable, Equatable {
    /// Name, pid, instance, versions, session seed and socket, as `GET /v1/target` gives them.
    public var target: TargetHeader
    /// Whether changes may be applied: false while the kill switch is engaged.
    public var chaosAllowed: Bool
    /// Why chaos is switched off, when it is.
    public var disabledReason: String?
    /// Whether `crash` behaviours may be applied (the target allowed them when it started).
    public var crashAllowed: Bool
    /// The active layers, oldest first: seam, spec, source, when applied (seconds from the target's start),
    /// seeds, and the session that owns each, if any. JSON: `active`.
    public var activeLayers: [LayerSnapshot]
    /// The seams with activity, in registration order, with their counters.
    public var seams: [SeamStatus]
    /// Totals over every seam.
    public var summary: StatusSummary
    /// The guards, each watching, armed or tripped with the figures that tripped it.
    public var guards: [GuardStatus]

    /// A status from its parts.
    public init(
        target: TargetHeader, chaosAllowed: Bool, disabledReason: String?, crashAllowed: Bool,
        activeLayers: [LayerSnapshot],
        seams: [SeamStatus], summary: StatusSummary, guards: [GuardStatus] = []
    ) {
        self.target = target
        self.chaosAllowed = chaosAllowed
        self.disabledReason = disabledReason
        self.crashAllowed = crashAllowed
        self.activeLayers = activeLayers
        self.seams = seams
        self.summary = summary
        self.guards = guards
    }
}

extension TargetStatus {
    // The JSON keeps the names /v1 has always sent.
    private enum CodingKeys: String, CodingKey {
        case activeLayers = "active"
        case target, chaosAllowed, disabledReason, crashAllowed, seams, summary, guards
    }

    /// Decodes a status; `guards` came after the rest, and a target that does not send it has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            target: try container.decode(TargetHeader.self, forKey: .target),
            chaosAllowed: try container.decode(Bool.self, forKey: .chaosAllowed),
            disabledReason: try container.decodeIfPresent(String.self, forKey: .disabledReason),
            crashAllowed: try container.decode(Bool.self, forKey: .crashAllowed),
            activeLayers: try container.decode([LayerSnapshot].self, forKey: .activeLayers),
            seams: try container.decode([SeamStatus].self, forKey: .seams),
            summary: try container.decode(StatusSummary.self, forKey: .summary),
            guards: try container.decodeIfPresent([GuardStatus].self, forKey: .guards) ?? [])
    }
}

/// One seam in ``TargetStatus``: its counters, and the spec calls get now.
public struct SeamStatus: Sendable, Codable, Equatable {
    /// The seam.
    public var seam: SeamID
    /// What calls get now, as a spec; nil when it runs its original (or runs a behaviour built in code).
    public var spec: String?
    /// Calls, chaos calls, errors (since the last reset), calls in flight and held.
    public var counters: SeamCounters

    /// A seam's status.
    public init(seam: SeamID, spec: String?, counters: SeamCounters) {
        self.seam = seam
        self.spec = spec
        self.counters = counters
    }
}

/// The totals of ``TargetStatus``.
public struct StatusSummary: Sendable, Codable, Equatable {
    // The JSON keeps the names /v1 has always sent.
    private enum CodingKeys: String, CodingKey {
        case activeLayers = "activeChanges"
        case seamsChanged, calls, chaosCalls, errors, inFlight, held
    }

    /// Layers applied now. JSON: `activeChanges`.
    public var activeLayers: Int
    /// Seams with at least one change applied.
    public var seamsChanged: Int
    /// Calls counted on every seam.
    public var calls: Int
    /// Calls a behaviour served.
    public var chaosCalls: Int
    /// Errors thrown on the chaos path.
    public var errors: Int
    /// Calls inside a behaviour now.
    public var inFlight: Int
    /// Calls a pause holds now.
    public var held: Int

    /// Totals from their values.
    public init(
        activeLayers: Int, seamsChanged: Int, calls: Int, chaosCalls: Int, errors: Int, inFlight: Int, held: Int
    ) {
        self.activeLayers = activeLayers
        self.seamsChanged = seamsChanged
        self.calls = calls
        self.chaosCalls = chaosCalls
        self.errors = errors
        self.inFlight = inFlight
        self.held = held
    }
}

extension ControlHandler {
    /// `GET /v1/status`.
    func status() -> TargetStatus {
        let snapshot = registry.snapshot()
        var active = snapshot.layers.filter { $0.status == .active }
        let owners = (try? withSessions { table in active.map { table.owner(of: $0.id, source: $0.source) } }) ?? []
        for index in active.indices where index < owners.count { active[index].session = owners[index] }
        var seams: [SeamStatus] = []
        var summary = StatusSummary(
            activeLayers: active.count, seamsChanged: 0, calls: 0, chaosCalls: 0, errors: 0, inFlight: 0, held: 0)
        for seam in snapshot.seams {
            let counters = seam.counters
            summary.calls += counters.calls
            summary.chaosCalls += counters.chaosCalls
            summary.errors += counters.errors
            summary.inFlight += counters.inFlight
            summary.held += counters.held
            let changed = seam.status == .active
            if changed { summary.seamsChanged += 1 }
            if changed || counters != SeamCounters() {
                seams.append(SeamStatus(seam: seam.id, spec: seam.spec, counters: counters))
            }
        }
        return TargetStatus(
            target: targetInfo(), chaosAllowed: snapshot.disabledReason == nil,
            disabledReason: snapshot.disabledReason, crashAllowed: registry.allowsCrash, activeLayers: active,
            seams: seams,
            summary: summary, guards: snapshot.guards)
    }
}
