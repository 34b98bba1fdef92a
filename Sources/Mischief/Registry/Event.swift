/// Something that happened in a registry: a change applied or reverted, a seam registered, a refusal, or a
/// message a behaviour reported.
public struct Event: Hashable, Sendable, Identifiable, Codable, CustomStringConvertible {
    /// What kind of thing happened.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A seam was registered, a change was applied, or a change was reverted (its calls in flight may still run).
        case registered, applied, reverted
        /// The last in-flight call of a reverted behaviour returned: the revert is complete.
        case revertCompleted = "revert-completed"
        /// A change was refused (bad behaviour, disabled, unknown seam).
        case refused
        /// A behaviour reported what it did ("mutated name", "answered GET /weather").
        case report
        /// A problem a client found itself, such as a broken profile file a console read at start.
        case problem
        /// A guard's condition held and what it guards was reverted; the message gives the figures.
        case guardTripped = "guard-tripped"
    }

    /// Increasing number within the registry, starting at 1.
    public let id: Int
    /// When, measured from the registry's start.
    public let time: Duration
    /// What happened.
    public let kind: Kind
    /// The seam concerned, if any.
    public let seam: SeamID?
    /// Who made the change ("console", "profile Tokyo", "test"), if it was a change.
    public let source: String?
    /// What happened, in words: the behaviour applied, the reason for a refusal, a report.
    public let message: String

    /// An event, as a registry logs it or a client decodes it.
    public init(id: Int, time: Duration, kind: Kind, seam: SeamID? = nil, source: String? = nil, message: String) {
        self.id = id
        self.time = time
        self.kind = kind
        self.seam = seam
        self.source = source
        self.message = message
    }

    /// One line: the kind, the seam, the message and the source, such as `applied clock.now shift(1d) [console]`.
    public var description: String {
        let seamText = seam.map { "\($0) " } ?? ""
        let sourceText = source.map { " [\($0)]" } ?? ""
        return "\(kind.rawValue) \(seamText)\(message)\(sourceText)"
    }
}

extension Event {
    /// The longest message (and source) an event keeps, in bytes of UTF-8: 1 KiB. The log keeps at most 1,000
    /// events, so it holds at most about a megabyte of text however long the specs applied are; a longer message
    /// is cut at a character and ends with `…`.
    public static let maximumMessageLength = 1_024

    /// `text`, cut to at most `limit` bytes of UTF-8 (whole characters, then `…`) when longer.
    static func bounded(_ text: String, to limit: Int = maximumMessageLength) -> String {
        guard text.utf8.count > limit else { return text }
        let room = limit - "…".utf8.count
        var kept = ""
        var bytes = 0
        for character in text {
            let width = character.utf8.count
            guard bytes + width <= room else { break }
            kept.append(character)
            bytes += width
        }
        return kept + "…"
    }
}

/// A bounded history of events, oldest first; each event's text is bounded too (``Event/maximumMessageLength``).
struct EventLog {
    let capacity: Int
    private(set) var events: [Event] = []
    /// The registry generation each event was logged at, parallel to `events`.
    private var generations: [UInt64] = []
    private var start = 0
    private(set) var lastID = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(
        time: Duration, kind: Event.Kind, seam: SeamID?, source: String?, message: String, generation: UInt64
    ) -> Event {
        lastID += 1
        let event = Event(
            id: lastID, time: time, kind: kind, seam: seam, source: source.map { Event.bounded($0) },
            message: Event.bounded(message))
        if events.count < capacity {
            events.append(event)
            generations.append(generation)
        } else if capacity > 0 {
            events[start] = event
            generations[start] = generation
            start = (start + 1) % capacity
        }
        return event
    }

    /// Events logged after registry generation `generation`, oldest first; reads only those.
    func events(since generation: UInt64) -> [Event] {
        var newer: [Event] = []
        var index = (start + events.count - 1) % max(events.count, 1)
        for _ in 0..<events.count {
            guard generations[index] > generation else { break }
            newer.append(events[index])
            index = (index + events.count - 1) % events.count
        }
        return newer.reversed()
    }

    /// Events after `id`, oldest first, at most `limit`.
    func events(after id: Int, limit: Int) -> [Event] {
        let ordered = events.count < capacity ? events : Array(events[start...] + events[..<start])
        return Array(ordered.filter { $0.id > id }.suffix(limit))
    }
}
