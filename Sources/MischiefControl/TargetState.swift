import Mischief

/// `GET /v1/console`: everything a console shows about the target, in one answer of the core's own values.
public struct TargetState: Sendable, Codable, Equatable {
    /// Who the target is and what time it thinks it is.
    public var target: TargetHeader
    /// Every registered seam, in registry order, with its actions and layers.
    public var seams: [SeamSnapshot]
    /// Every defined profile, in load order.
    public var profiles: [ProfileStatus]
    /// Recent events, oldest first.
    public var events: [Event]
    /// The target's own screen.
    public var view: TargetView

    /// The state of one moment.
    public init(
        target: TargetHeader, seams: [SeamSnapshot] = [], profiles: [ProfileStatus] = [], events: [Event] = [],
        view: TargetView = TargetView()
    ) {
        self.target = target
        self.seams = seams
        self.profiles = profiles
        self.events = events
        self.view = view
    }
}
