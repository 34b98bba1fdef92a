/// Why Mischief refused a change. Every case says what happened, where, and how to fix it.
public enum MischiefError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A seam id is malformed.
    case invalidSeamID(String, reason: String)
    /// Two different seams were registered under one id.
    case duplicateSeam(SeamID)
    /// A change names a seam this registry does not know.
    case unknownSeam(SeamID)
    /// A change was made to a seam object other than the one registered under its id.
    case foreignSeam(SeamID)
    /// A behaviour cannot run on this seam (a throw on a seam that cannot throw, an async closure on a
    /// synchronous seam, an empty sequence, …).
    case unsupported(SeamID, String)
    /// A spec does not parse, or does not fit the seam.
    case invalidSpec(SeamID, SpecError)
    /// A profile has problems; nothing of it was applied.
    case invalidProfile(String, problems: [String])
    /// No profile of that name is defined.
    case unknownProfile(String)
    /// Chaos is switched off for this process (`MISCHIEF_DISABLED=1` or ``KillSwitch/engage(reason:)``).
    case disabled(reason: String)
    /// A time to live is not more than zero and at most ``Registry/longestTTL``.
    case invalidTTL(Duration)
    /// No guard has that id (see ``Registry/guards``).
    case unknownGuard(Int)
    /// The registry already keeps `limit` guards, the most it keeps (``Registry/guardLimit``).
    case tooManyGuards(limit: Int)

    /// The message: what went wrong, where, and how to fix it.
    public var description: String {
        switch self {
        case .invalidSeamID(let id, let reason):
            return "invalid seam id '\(id)': \(reason)"
        case .duplicateSeam(let id):
            return "a different seam is already registered as '\(id)'; give each seam its own id"
        case .unknownSeam(let id):
            return "no seam '\(id)' is registered; register it (registry.register(_:)) before changing it"
        case .foreignSeam(let id):
            return "the seam object for '\(id)' is not the one registered under that id; "
                + "declare each seam once and share it"
        case .unsupported(let id, let message):
            return "\(id): \(message)"
        case .invalidSpec(let id, let error):
            return error.message.contains(id.rawValue) ? error.description : "\(id): \(error)"
        case .invalidProfile(let name, let problems):
            return "profile '\(name)' was not applied:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        case .unknownProfile(let name):
            return "no profile named '\(name)' is defined"
        case .disabled(let reason):
            return "Mischief is disabled in this process (\(reason)); no behaviour can be changed"
        case .invalidTTL(let ttl):
            return
                "a ttl must be more than 0s and at most \(SpecDuration(Registry.longestTTL)), not \(SpecDuration(ttl))"
        case .unknownGuard(let id):
            return "no guard \(id); list the guards (registry.guards, GET /v1/guards) for their ids"
        case .tooManyGuards(let limit):
            return "this target already has \(limit) guards, the most it keeps; remove guards it no longer needs "
                + "(`mischief guard remove ID`, DELETE /v1/guards/ID, registry.removeGuard(_:)) and add again"
        }
    }
}

/// The error a seam whose failure type is `any Error` throws for `throw("message")` behaviours.
public struct InjectedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message given to the behaviour.
    public let message: String

    /// Makes an error carrying `message`.
    public init(_ message: String) { self.message = message }

    /// The message given to the behaviour.
    public var description: String { message }
}
