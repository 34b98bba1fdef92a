import Mischief

/// The event log's own state (`e`): which line is selected, its filter, and whether one event is open whole.
///
/// Lines are the events after filtering and folding (``EventLog/lines(of:)``); the selection counts from the
/// newest, so new events arriving keep the selected one in place relative to the bottom.
public struct EventLog: Sendable, Equatable {
    /// The selected line, counted from the newest (0 is the last line).
    public internal(set) var selected = 0
    /// What lines must contain (case-insensitively) in their kind, seam, source or message; empty shows all.
    public internal(set) var filter = TextField()
    /// Whether keys go to the filter.
    public internal(set) var isFiltering = false
    /// Whether the selected event is shown whole.
    public internal(set) var showsDetail = false

    /// An event log with the newest line selected.
    public init() {}

    /// One line of the log: an event and how many identical ones it stands for.
    public struct Line: Sendable, Equatable {
        /// The latest of the identical events.
        public var event: Event
        /// How many there were (1 when the event is unique).
        public var count: Int
        /// When the first of them happened.
        public var firstTime: Duration
    }

    /// `events` filtered by ``filter`` and folded: identical events (same kind, seam, source and message) make one
    /// line with their count, where the latest of them is; oldest first.
    public func lines(of events: [Event]) -> [Line] {
        let needle = filter.text.lowercased()
        let kept = needle.isEmpty ? events : events.filter { Self.text(of: $0).lowercased().contains(needle) }
        struct Key: Hashable {
            let kind: Event.Kind, seam: String?, source: String?, message: String
        }
        var counts: [Key: (count: Int, first: Duration)] = [:]
        for event in kept {
            let key = Key(kind: event.kind, seam: event.seam?.rawValue, source: event.source, message: event.message)
            counts[key, default: (0, event.time)].count += 1
        }
        var seen: Set<Key> = []
        var lines: [Line] = []
        for event in kept.reversed() {
            let key = Key(kind: event.kind, seam: event.seam?.rawValue, source: event.source, message: event.message)
            guard seen.insert(key).inserted, let folded = counts[key] else { continue }
            lines.append(Line(event: event, count: folded.count, firstTime: folded.first))
        }
        return lines.reversed()
    }

    /// The text a filter looks in.
    static func text(of event: Event) -> String {
        [event.kind.rawValue, event.seam?.rawValue ?? "", event.source ?? "", event.message].joined(separator: " ")
    }
}
