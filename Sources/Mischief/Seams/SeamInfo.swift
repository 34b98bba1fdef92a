/// What a seam is, independent of its types: the part a console, a profile file or the control socket sees.
public struct SeamInfo: Hashable, Sendable {
    /// The seam's unique dotted id, such as `clock.now`.
    public let id: SeamID
    /// A short human title, such as "Current date".
    public let title: String
    /// The group the console lists the seam under, such as "Clock".
    public let category: String
    /// One line on what the seam guards.
    public let summary: String
    /// How a newer change meets an older one on this seam.
    public let stacking: Stacking
    /// Whether calls to the seam are `async`.
    public let isAsync: Bool
    /// Whether the seam can throw, and so accept `throw` behaviours made from a message.
    public let canThrow: Bool
    /// The Swift types of the seam, for messages: `(Void) -> Date`.
    public let signature: String
}

/// How layers stacked on one seam combine.
public enum Stacking: String, Hashable, Sendable, Codable {
    /// The newest change is the seam's behaviour; reverting it uncovers the one beneath.
    case replace
    /// Every change applies, newest first: a call goes to the newest behaviour, and on to older ones when it
    /// does not fire (rule lists such as network rules).
    case merge
}
