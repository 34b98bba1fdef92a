import Mischief

/// One registry event as the console's event log and detail pane show it.
public struct EventRow: Sendable, Codable, Equatable, Identifiable {
    /// Increasing number within the target's registry.
    public var id: Int
    /// When, measured from the registry's start.
    public var time: Duration
    /// What happened: `registered`, `applied`, `reverted`, `revert-completed`, `refused` or `report`.
    public var kind: String
    /// The seam concerned, if any.
    public var seam: SeamID?
    /// Who made the change ("console", "profile Tokyo"), if it was a change.
    public var source: String?
    /// What happened, possibly on several lines (a refused spec carries its caret line).
    public var message: String

    /// Creates a row.
    public init(
        id: Int, time: Duration, kind: String, seam: SeamID? = nil, source: String? = nil, message: String
    ) {
        self.id = id
        self.time = time
        self.kind = kind
        self.seam = seam
        self.source = source
        self.message = message
    }

    /// The row of a registry event.
    public init(_ event: Event) {
        self.init(
            id: event.id, time: event.time, kind: event.kind.rawValue, seam: event.seam, source: event.source,
            message: event.message)
    }
}
