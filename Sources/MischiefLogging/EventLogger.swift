import Logging
import Mischief
import Synchronization

/// Writes a registry's events to a swift-log `Logger`: applied, reverted (by hand, by a guard, at the end of a TTL),
/// refused, guards tripped, held calls released, reports.
///
/// Each record carries the event as structured metadata (``metadata(for:sessionSeed:)``): `mischief.event`,
/// `mischief.seam`, `mischief.behaviour`, `mischief.source`, `mischief.seed` (the seeds a random behaviour drew with)
/// and `mischief.session_seed`, so a log backend can filter on them. Levels (``level(for:)``) are what an operator
/// would choose: chaos switched on or off is `notice`, a refusal or a tripped guard `warning`.
///
/// It follows `Registry.eventStream(bufferingNewest:)` on a task of its own, so the seams' hot path does not
/// change: a call logs nothing (a behaviour's own report does, as an event).
///
/// ```swift
/// let events = EventLogger(logger: Logger(label: "orders.chaos"))
/// let task = Task { await events.run() }  // or ObserverService(events: events) in a ServiceGroup
/// ```
public struct EventLogger: Sendable {
    /// The registry followed.
    public let registry: Registry
    /// Where records go.
    public let logger: Logger
    private let flushed: Flushed

    /// A logger of `registry`'s events to `logger`.
    ///
    /// - Parameters:
    ///   - registry: The registry to follow; the shared one by default.
    ///   - logger: The logger to write to; its own log level filters the records.
    public init(registry: Registry = .shared, logger: Logger) {
        self.registry = registry
        self.logger = logger
        self.flushed = Flushed(registry.events().last?.id ?? 0)
    }

    /// Logs each event from the moment the logger was made until the task is cancelled, then the events that came
    /// before the cancellation but were not read yet (what a control server's stop reverted, say), in order.
    public func run() async {
        let stream = registry.eventStream()
        // Events logged between init and the subscription are read from the log, once.
        log(registry.events(after: flushed.last))
        for await event in stream {
            if Task.isCancelled { break }
            log([event])
        }
        flush()
    }

    /// Logs the events the registry logged since the last one written, in order.
    public func flush() {
        log(registry.events(after: flushed.last))
    }

    private func log(_ events: [Event]) {
        for event in events where flushed.advance(to: event.id) {
            logger.log(
                level: Self.level(for: event), "\(event)",
                metadata: Self.metadata(for: event, sessionSeed: registry.sessionSeed))
        }
    }

    /// The level a record of `event` has: `notice` for chaos switched on or off (applied, reverted, a guard's
    /// revert), `warning` for a refusal or a tripped guard, `error` for a problem, `info` for a report (a behaviour's
    /// own, held calls released, a revert completed), `debug` for a seam registered.
    public static func level(for event: Event) -> Logger.Level {
        switch event.kind {
        case .applied, .reverted: .notice
        case .refused, .guardTripped: .warning
        case .problem: .error
        case .report, .revertCompleted: .info
        case .registered: .debug
        }
    }

    /// The metadata of a record of `event`.
    ///
    /// `mischief.event` is the kind (`applied`, `reverted`, `guard-tripped`…); `mischief.seam`, `mischief.source`
    /// and `mischief.behaviour` (the behaviour's text, or the message) say what and who; `mischief.seed` the seeds an
    /// applied behaviour drew with; `mischief.reason` why a revert happened (`ttl` when its time was up, `guard` when a
    /// guard tripped); `mischief.session_seed` the registry's seed, which reproduces a run.
    public static func metadata(for event: Event, sessionSeed: UInt64) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "mischief.event": "\(event.kind.rawValue)",
            "mischief.event_id": "\(event.id)",
            "mischief.behaviour": "\(event.message)",
            "mischief.session_seed": "\(sessionSeed)",
        ]
        if let seam = event.seam { metadata["mischief.seam"] = "\(seam)" }
        if let source = event.source { metadata["mischief.source"] = "\(source)" }
        if event.kind == .applied, let seeds = seeds(in: event.message) { metadata["mischief.seed"] = "\(seeds)" }
        if event.kind == .reverted, let reason = reason(in: event.message) { metadata["mischief.reason"] = "\(reason)" }
        return metadata
    }

    /// The seeds in an applied event's message, which ends `(seed 1, 2)` when the behaviour drew at random (and
    /// `(ttl …)` after it when it has one).
    static func seeds(in message: String) -> String? {
        guard let start = message.ranges(of: " (seed ").last else { return nil }
        let rest = message[start.upperBound...]
        guard let end = rest.firstIndex(of: ")") else { return nil }
        return String(rest[..<end])
    }

    /// Why a revert happened, from its message's reason (`…: expired after its ttl of 30s`).
    static func reason(in message: String) -> String? {
        if message.contains(": expired after its ttl") { return "ttl" }
        if message.contains(": guard ") { return "guard" }
        return nil
    }
}

/// The id of the last event written, shared by the copies of a logger.
private final class Flushed: Sendable {
    private let state: Mutex<Int>

    init(_ last: Int) { state = Mutex(last) }

    var last: Int { state.withLock { $0 } }

    /// Moves on to `id` if it is newer; false if it was written already.
    func advance(to id: Int) -> Bool {
        state.withLock { last in
            guard id > last else { return false }
            last = id
            return true
        }
    }
}
