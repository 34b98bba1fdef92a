import Mischief

/// One seam as the console lists it: what it is, what it does now, and how often it is called.
public struct SeamRow: Sendable, Codable, Equatable, Identifiable {
    /// The seam's id, such as `clock.now`.
    public var id: SeamID
    /// A short human title.
    public var title: String
    /// The group the console lists it under.
    public var category: String
    /// One line on what the seam guards.
    public var summary: String
    /// The seam's Swift types, such as `(Void) -> Date`.
    public var signature: String
    /// The active behaviour described for people (a spec's canonical form, or `closure` for one built in code);
    /// nil when the seam runs its original. Not always a spec: see ``spec``.
    public var behaviour: String?
    /// The canonical spec of the active behaviour, which can be applied again; nil when the seam runs its original
    /// or its behaviour was built in code. Optional in JSON (targets before it was added leave it out).
    public var spec: String?
    /// Calls counted so far.
    public var calls: Int
    /// Calls a behaviour served.
    public var chaosCalls: Int
    /// Errors thrown by behaviours.
    public var errors: Int
    /// Calls inside a behaviour right now.
    public var inFlight: Int
    /// Never applied, active, reverting (calls still in flight) or reverted.
    public var status: RevertStatus
    /// The actions specs can use on the seam, its own first.
    public var actions: [ActionRow]

    /// Creates a row.
    public init(
        id: SeamID,
        title: String,
        category: String,
        summary: String = "",
        signature: String = "",
        behaviour: String? = nil,
        spec: String? = nil,
        calls: Int = 0,
        chaosCalls: Int = 0,
        errors: Int = 0,
        inFlight: Int = 0,
        status: RevertStatus = .neverApplied,
        actions: [ActionRow] = []
    ) {
        self.id = id
        self.title = title
        self.category = category
        self.summary = summary
        self.signature = signature
        self.behaviour = behaviour
        self.spec = spec
        self.calls = calls
        self.chaosCalls = chaosCalls
        self.errors = errors
        self.inFlight = inFlight
        self.status = status
        self.actions = actions
    }

    /// The row of a seam in a registry snapshot, with the seam's actions (``Registry/actions(for:)``).
    public init(_ seam: SeamSnapshot, actions: [ActionSignature]) {
        self.init(
            id: seam.id, title: seam.info.title, category: seam.info.category, summary: seam.info.summary,
            signature: seam.info.signature, behaviour: seam.behaviour, spec: seam.spec, calls: seam.counters.calls,
            chaosCalls: seam.counters.chaosCalls, errors: seam.counters.errors, inFlight: seam.counters.inFlight,
            status: seam.status, actions: actions.map(ActionRow.init))
    }
}
