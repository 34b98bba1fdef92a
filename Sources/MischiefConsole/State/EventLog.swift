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
    /// Whether times are the target's wall clock (`w`) rather than time since it started.
    public internal(set) var showsWallClock = false

    /// An event log with the newest line selected.
    public init() {}

    /// One line of the log: an event and how many identical ones in a row it stands for.
    public struct Line: Sendable, Equatable {
        /// The latest of the identical events; the line shows its time.
        public var event: Event
        /// How many there were in a row (1 when the event is not repeated at once).
        public var count: Int
        /// When the first of them happened.
        public var firstTime: Duration
    }

    /// `events` filtered by ``filter`` and folded: a run of identical events one after the other (same kind, seam,
    /// source and message) makes one line with their count, at the time of the latest of them (the whole event says
    /// when the first was); oldest first. Repeats with something else between them stay apart, so the log keeps
    /// the order things happened in: A, B, A is three lines, A, A, B two.
    public func lines(of events: [Event]) -> [Line] {
        let needle = filter.text.lowercased()
        let kept = needle.isEmpty ? events : events.filter { Self.text(of: $0).lowercased().contains(needle) }
        var lines: [Line] = []
        for event in kept {
            if let last = lines.last, Self.isRepeat(event, of: last.event) {
                lines[lines.count - 1].event = event
                lines[lines.count - 1].count += 1
            } else {
                lines.append(Line(event: event, count: 1, firstTime: event.time))
            }
        }
        return lines
    }

    /// Whether `event` repeats `previous`: the same kind, seam, source and message.
    static func isRepeat(_ event: Event, of previous: Event) -> Bool {
        event.kind == previous.kind && event.seam == previous.seam && event.source == previous.source
            && event.message == previous.message
    }

    /// The text a filter looks in.
    static func text(of event: Event) -> String {
        [event.kind.rawValue, event.seam?.rawValue ?? "", event.source ?? "", event.message].joined(separator: " ")
    }
}
