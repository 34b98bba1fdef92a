/// A test scope as a console and the control API see it while its test runs: a row of the scope table
/// (``Registry/scopes``), so a person can watch one test of a running suite and change its world alone.
///
/// `GET /v1/scopes` answers with them, and a delta (``RegistryDelta/scopes``) carries them when any changed.
public struct ScopeSnapshot: Sendable, Codable, Hashable, Identifiable {
    /// The scope's number in the registry's table, from 1, in the order scopes were published.
    public var id: Int
    /// The scope's name: the test's name.
    public var name: String
    /// Whether its test runs, passed or failed.
    public var status: ScopeStatus
    /// When the test started, in seconds since the registry started.
    public var started: Double
    /// When it ended, in seconds since the registry started; nil while it runs.
    public var ended: Double?
    /// The seams called in the scope, each with its own counts (the scope's calls only), in the order first called.
    public var seams: [ScopeSeamCounts]
    /// The scope's layers still applied, oldest first: those its traits applied (no source) and those applied from
    /// outside it.
    public var layers: [ScopeLayer]
    /// Every layer applied from outside the scope, reverted ones too, oldest first.
    public var outside: [ScopeLayer]

    /// A row of the scope table; for tools and tests that make one by hand.
    public init(
        id: Int, name: String, status: ScopeStatus, started: Double, ended: Double? = nil,
        seams: [ScopeSeamCounts] = [], layers: [ScopeLayer] = [], outside: [ScopeLayer] = []
    ) {
        self.id = id
        self.name = name
        self.status = status
        self.started = started
        self.ended = ended
        self.seams = seams
        self.layers = layers
        self.outside = outside
    }

    /// The source a layer of the scope's own shows: `test: NAME`.
    public var ownSource: String { "test: \(name)" }

    /// How long the test ran, or has run by `now` (seconds since the registry started) while it runs.
    public func duration(now: Double) -> Double { max(0, (ended ?? now) - started) }
}

/// A test scope's state.
public enum ScopeStatus: String, Sendable, Codable, Hashable {
    /// Its test is running.
    case running
    /// Its test ended without an issue.
    case passed
    /// Its test recorded an issue or threw.
    case failed
}

/// One seam's calls in one scope.
public struct ScopeSeamCounts: Sendable, Codable, Hashable {
    /// The seam.
    public var seam: SeamID
    /// Calls made in the scope.
    public var calls: Int
    /// Calls a layer (the scope's or the registry's) answered.
    public var chaosCalls: Int
    /// Calls that threw.
    public var errors: Int
    /// Calls the scope's pauses hold now.
    public var held: Int
    /// The calls the scope's pauses hold now, oldest first, each with its input: a breakpoint on the test, as a
    /// console shows it (a seam's own ``SeamSnapshot/heldCalls`` are the registry's pauses').
    public var heldCalls: [HeldCall]

    /// Counts for `seam`.
    public init(
        seam: SeamID, calls: Int = 0, chaosCalls: Int = 0, errors: Int = 0, held: Int = 0, heldCalls: [HeldCall] = []
    ) {
        self.seam = seam
        self.calls = calls
        self.chaosCalls = chaosCalls
        self.errors = errors
        self.held = held
        self.heldCalls = heldCalls
    }

    private enum CodingKeys: String, CodingKey {
        case seam, calls, chaosCalls, errors, held, heldCalls
    }

    /// Reads counts as a server writes them; `heldCalls` may be missing (a server from before it was added).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seam = try container.decode(SeamID.self, forKey: .seam)
        calls = try container.decode(Int.self, forKey: .calls)
        chaosCalls = try container.decode(Int.self, forKey: .chaosCalls)
        errors = try container.decode(Int.self, forKey: .errors)
        held = try container.decode(Int.self, forKey: .held)
        heldCalls = try container.decodeIfPresent([HeldCall].self, forKey: .heldCalls) ?? []
    }
}

/// One behaviour applied to one seam in one ``ChaosScope``.
public struct ScopeLayer: Sendable, Codable, Hashable {
    /// Its number in its scope, from 1.
    public var id: Int
    /// The seam it changes.
    public var seam: SeamID
    /// Its spec, or the behaviour's text for one built in code.
    public var spec: String
    /// Who applied it from outside the scope (a console's session, the CLI, the API); nil for the scope's own
    /// code or its test's traits.
    public var source: String?
    /// The seed its random parts derive theirs from.
    public var seed: UInt64
    /// Whether it is still applied.
    public var isActive: Bool
    /// Whether it holds calls (a `pause`: a breakpoint on the test).
    public var hasPause: Bool
    /// How many calls of its seam had come into the scope when it was applied: it was made after that call and
    /// before the next, as a recording's ``Recording/Entry/call`` says. Kept for layers applied from outside, so
    /// `mischief export --scope` makes them again after the same calls; nil for the scope's own.
    public var call: Int?
    /// For a layer applied from outside and reverted since: how many calls of its seam had come into the scope then;
    /// nil while it is applied, and when it went with the scope's end (its test's), which is no revert.
    public var revertedCall: Int?

    /// A layer as a scope's table shows it.
    public init(
        id: Int, seam: SeamID, spec: String, source: String?, seed: UInt64, isActive: Bool, hasPause: Bool = false,
        call: Int? = nil, revertedCall: Int? = nil
    ) {
        self.id = id
        self.seam = seam
        self.spec = spec
        self.source = source
        self.seed = seed
        self.isActive = isActive
        self.hasPause = hasPause
        self.call = call
        self.revertedCall = revertedCall
    }
}
