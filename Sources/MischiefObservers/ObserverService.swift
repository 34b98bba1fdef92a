import Mischief
import MischiefLogging
import MischiefMetrics
import ServiceLifecycle

/// An `EventLogger` and a `SeamMetrics` reporter as one swift-service-lifecycle `Service`: they run until graceful
/// shutdown, then log the events not written yet and report the counters once more.
///
/// List it before `ControlServerService` (MischiefServiceLifecycle) in a `ServiceGroup`: services shut down in reverse order, so the
/// server's shutdown reverts are logged and counted before this one ends.
public struct ObserverService: Service {
    /// The event logger, if any.
    public let events: EventLogger?
    /// The metrics reporter, if any.
    public let metrics: SeamMetrics?

    /// A service that runs `events` and `metrics`, either of which may be nil.
    public init(events: EventLogger? = nil, metrics: SeamMetrics? = nil) {
        self.events = events
        self.metrics = metrics
    }

    /// Runs both until graceful shutdown or cancellation.
    public func run() async {
        let (events, metrics) = (events, metrics)
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                if let events { group.addTask { await events.run() } }
                if let metrics { group.addTask { await metrics.run() } }
            }
        }
    }
}
