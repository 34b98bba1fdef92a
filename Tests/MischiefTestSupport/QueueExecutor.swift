import Dispatch

/// A task executor on a serial dispatch queue of its own, which gets a thread even while the task pool's are all
/// held: for a test's task that must make progress however many other tests block the pool (two threads here).
///
/// ```swift
/// let task = Task(executorPreference: QueueExecutor("stress.fetch")) { try await seam(1) }
/// ```
public final class QueueExecutor: TaskExecutor, Sendable {
    private let queue: DispatchQueue

    public init(_ label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
