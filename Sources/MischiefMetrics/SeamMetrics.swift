import CoreMetrics
import Mischief
import Synchronization

/// Reports each seam's counters through swift-metrics, with the seam as a dimension, so the backend a service
/// already exports (Prometheus, OpenTelemetry, StatsD) shows chaos beside its own metrics.
///
/// | metric | kind | from |
/// |---|---|---|
/// | `mischief_seam_calls` | counter | `SeamCounters.calls` |
/// | `mischief_seam_chaos_calls` | counter | `SeamCounters.chaosCalls` |
/// | `mischief_seam_errors` | counter | `SeamCounters.errors` |
/// | `mischief_seam_in_flight` | meter | `SeamCounters.inFlight` |
/// | `mischief_seam_held` | meter | `SeamCounters.held` |
/// | `mischief_layers_active` | meter | the layers applied now, all seams |
///
/// Each has the dimension `seam` (`clock.now`, `system.net`). The counters are read from the registry's snapshots
/// every ``interval`` on a task of its own, never on a seam's call: the hot path is the same with the reporter as
/// without it. Counter resets (`mischief reset`) are reported as a fresh start, never as a negative increment.
///
/// Calls that meet a behaviour are always counted; calls that pass through are counted while something observes
/// the registry (a serving `ControlServer` does). Pass `countsCalls: true` to count them when nothing else does: the
/// hot path then pays the counting, a few nanoseconds a call (`Benchmarks/run.sh` measures it).
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory(...))
/// let metrics = SeamMetrics()
/// let task = Task { await metrics.run() }  // or ObserverService(metrics: metrics) in a ServiceGroup
/// ```
public struct SeamMetrics: Sendable {
    /// The registry read.
    public let registry: Registry
    /// How often the counters are read.
    public let interval: Duration
    /// Whether the reporter keeps counting on (an observation of the registry) while it runs.
    public let countsCalls: Bool
    private let state: Reported

    /// A reporter of `registry`'s seam counters.
    ///
    /// - Parameters:
    ///   - registry: The registry to read; the shared one by default.
    ///   - interval: How often to read it: once a second by default, which a scrape every 15 s never misses.
    ///   - countsCalls: Count every call while the reporter runs, not only those something else counts.
    ///   - factory: The metrics factory; the one `MetricsSystem` was bootstrapped with by default.
    public init(
        registry: Registry = .shared, interval: Duration = .seconds(1), countsCalls: Bool = false,
        factory: (any MetricsFactory)? = nil
    ) {
        self.registry = registry
        self.interval = interval
        self.countsCalls = countsCalls
        self.state = Reported(factory: factory ?? MetricsSystem.factory)
    }

    /// Reports every ``interval`` until the task is cancelled, and once more at the end.
    public func run() async {
        let observation = countsCalls ? registry.observe() : nil
        defer { observation?.cancel() }
        while !Task.isCancelled {
            report()
            try? await Task.sleep(for: interval)
        }
        report()
    }

    /// Reads the registry once and reports what changed since the last report.
    public func report() {
        state.report(registry.snapshot())
    }
}

/// The metrics made so far and the totals last reported, by seam.
private final class Reported: Sendable {
    private struct Seam {
        let calls: Counter
        let chaosCalls: Counter
        let errors: Counter
        let inFlight: Meter
        let held: Meter
        var last = SeamCounters()
    }

    private struct State: @unchecked Sendable {
        // Counter and Meter are thread-safe classes that swift-metrics does not mark Sendable.
        var seams: [SeamID: Seam] = [:]
        var layers: Meter?
    }

    private let factory: any MetricsFactory
    private let state = Mutex(State())

    init(factory: any MetricsFactory) { self.factory = factory }

    func report(_ snapshot: Snapshot) {
        state.withLock { state in
            if state.layers == nil { state.layers = Meter(label: "mischief_layers_active", factory: factory) }
            state.layers!.set(snapshot.layers.filter { $0.status == .active }.count)
            for seam in snapshot.seams {
                var reported = state.seams[seam.id] ?? make(seam.id)
                let now = seam.counters
                reported.calls.increment(by: Self.increase(from: reported.last.calls, to: now.calls))
                reported.chaosCalls.increment(by: Self.increase(from: reported.last.chaosCalls, to: now.chaosCalls))
                reported.errors.increment(by: Self.increase(from: reported.last.errors, to: now.errors))
                reported.inFlight.set(now.inFlight)
                reported.held.set(now.held)
                reported.last = now
                state.seams[seam.id] = reported
            }
        }
    }

    private func make(_ id: SeamID) -> Seam {
        let dimensions = [("seam", id.description)]
        return Seam(
            calls: Counter(label: "mischief_seam_calls", dimensions: dimensions, factory: factory),
            chaosCalls: Counter(label: "mischief_seam_chaos_calls", dimensions: dimensions, factory: factory),
            errors: Counter(label: "mischief_seam_errors", dimensions: dimensions, factory: factory),
            inFlight: Meter(label: "mischief_seam_in_flight", dimensions: dimensions, factory: factory),
            held: Meter(label: "mischief_seam_held", dimensions: dimensions, factory: factory))
    }

    /// What a counter grew by; after a reset (a smaller total), the new total.
    static func increase(from last: Int, to now: Int) -> Int { now >= last ? now - last : now }
}
