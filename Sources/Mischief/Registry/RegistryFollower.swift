import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Follows a registry for whoever shows it: the one road a target's state takes to a console, in process (the
/// console's `LocalController`) and over the socket (the control server's events streams).
///
/// While it runs it observes the registry (calls are counted only while someone watches) and calls `wake` when the
/// registry signals a change (``Registry/changeSignals()``) and on the wall clock's multiples of `refresh`, when call
/// counts and the clocks shown are looked at; never twice within `minimumInterval`. Nothing polls: a registry nobody
/// changes wakes it `1 / refresh` times a second, and only while it runs. The refresh comes a moment after the
/// multiple (`tickLag(refresh:)`), and not at all when a change woke it since the multiple: a target that publishes
/// its view as its seconds turn (the demo) is shown once a second, its counts with its view, not twice. What `wake`
/// sends each reader comes from that reader's ``Cursor``: what changed since its last delta, or nothing.
///
/// ```swift
/// var cursor = RegistryFollower.Cursor()
/// let follower = RegistryFollower(registry: registry) {
///     if let delta = cursor.next(from: registry, header: header) { send(delta) }  // under the reader's lock
/// }
/// follower.start()
/// defer { follower.stop() }
/// ```
public final class RegistryFollower: Sendable {
    private let registry: Registry
    private let refresh: Duration
    private let minimumInterval: Duration
    private let wake: @Sendable () -> Void
    private let running = Mutex<Running?>(nil)

    private struct Running {
        let observation: Observation
        let tasks: [Task<Void, Never>]
        let wakes: AsyncStream<Void>.Continuation
    }

    /// A follower of `registry` that calls `wake` when there may be something to send.
    ///
    /// - Parameters:
    ///   - registry: The registry to follow.
    ///   - refresh: How often counts and clocks are looked at when nothing else changed; longer than zero. On the
    ///     wall clock's multiples of it, so with a period that divides a second the seconds shown turn on time.
    ///   - minimumInterval: The least time between two wakes (changes within it go out together).
    ///   - wake: Called on a task of the follower's own, one call at a time.
    public init(
        registry: Registry, refresh: Duration = .milliseconds(250), minimumInterval: Duration = .milliseconds(20),
        wake: @escaping @Sendable () -> Void
    ) {
        precondition(refresh > .zero, "a follower's refresh must be longer than zero, not \(refresh)")
        self.registry = registry
        self.refresh = refresh
        self.minimumInterval = minimumInterval
        self.wake = wake
    }

    deinit { stop() }

    /// Whether it follows the registry now.
    public var isRunning: Bool { running.withLock { $0 != nil } }

    /// Starts following: observes the registry and wakes on its changes and on the refresh period. Does nothing
    /// when it runs already.
    public func start() {
        running.withLock { running in
            guard running == nil else { return }
            let (wakes, wakeUp) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let signals = registry.changeSignals()
            let refresh = self.refresh
            let minimumInterval = self.minimumInterval
            let wake = self.wake
            let forward = Task {
                for await _ in signals { wakeUp.yield() }
            }
            let lastWake = Locked(ContinuousClock.now)
            let lag = Self.tickLag(refresh: refresh)
            let ticker = Task {
                while !Task.isCancelled {
                    let delay = RealClock.delay(after: RealClock.date(), toNextMultipleOf: refresh)
                    let multiple = ContinuousClock.now + delay
                    try? await Task.sleep(for: delay + lag)
                    // Woken since the multiple: the counts and clocks were looked at then.
                    if lastWake.withLock({ $0 }) >= multiple { continue }
                    wakeUp.yield()
                }
            }
            let waker = Task {
                for await _ in wakes {
                    lastWake.withLock { $0 = ContinuousClock.now }
                    wake()
                    try? await Task.sleep(for: minimumInterval)
                }
            }
            running = Running(observation: registry.observe(), tasks: [forward, ticker, waker], wakes: wakeUp)
        }
    }

    /// How long after the wall clock's multiple of `refresh` the follower looks at counts and clocks: time for a target
    /// that publishes on the same multiple to have done so, so that one wake shows both (50 ms, or a quarter of a short
    /// refresh).
    static func tickLag(refresh: Duration) -> Duration {
        min(refresh / 4, .milliseconds(50))
    }

    /// Stops following: no more wakes (one under way finishes), and the registry stops counting for it.
    public func stop() {
        let stopped = running.withLock { running -> Running? in
            defer { running = nil }
            return running
        }
        guard let stopped else { return }
        for task in stopped.tasks { task.cancel() }
        stopped.wakes.finish()
        stopped.observation.cancel()
    }
}

extension RegistryFollower {
    /// What one reader of a registry has been sent: the generation its copy is as of, the newest event it has and
    /// what it shows of the times; so the next delta it is sent is what changed since, and a delta that changes
    /// nothing it shows is not sent at all.
    public struct Cursor: Sendable {
        /// The generation of the last delta sent (0: nothing yet; the next is everything).
        public private(set) var generation: UInt64 = 0
        /// The id of the newest event sent, or the one the first delta's events start after.
        public private(set) var lastEvent: Int
        private var shown: StreamDelta.Shown?

        /// A reader that has been sent nothing; its first delta carries the events after `eventsAfter` (0: all
        /// the registry keeps).
        public init(eventsAfter: Int = 0) {
            lastEvent = eventsAfter
        }

        /// Whether nothing has been sent yet.
        public var isFirst: Bool { generation == 0 }

        /// The delta to send the reader now, noted as sent: the first time everything (with the seams' actions),
        /// then what changed since the last; nil when nothing changed and no second it shows turned.
        ///
        /// - Parameters:
        ///   - registry: The registry the reader follows.
        ///   - header: The target's header for a delta (its uptime is the delta's).
        public mutating func next(
            from registry: Registry, header: (RegistryDelta) -> TargetHeader
        ) -> StreamDelta? {
            let registryDelta = registry.delta(since: generation, eventsAfter: lastEvent, includingActions: isFirst)
            let delta = StreamDelta(target: header(registryDelta), registry: registryDelta)
            if isFirst || !registryDelta.isEmpty || delta.shown != shown {
                take(delta)
                return delta
            }
            lastEvent = max(lastEvent, registryDelta.lastEventID)
            return nil
        }

        /// Whether to send the reader `delta`, one batch made for several readers: true (noted as sent) when it
        /// follows what the reader has and changes something it shows; false when it changes nothing for it; nil
        /// when the reader is behind the batch's start (it missed one) and needs ``next(from:header:)`` instead.
        public mutating func offer(_ delta: StreamDelta) -> Bool? {
            guard !isFirst, delta.registry.since <= generation else { return nil }
            guard !delta.registry.isEmpty || delta.shown != shown else {
                lastEvent = max(lastEvent, delta.registry.lastEventID)
                generation = max(generation, delta.generation)
                return false
            }
            take(delta)
            return true
        }

        private mutating func take(_ delta: StreamDelta) {
            generation = max(generation, delta.generation)
            lastEvent = max(lastEvent, delta.registry.lastEventID)
            shown = delta.shown
        }
    }
}
