import Dispatch
import Foundation
import Mischief

/// A task executor that runs its jobs one at a time on a thread of its own and knows when none is left to run, so
/// virtual time can advance exactly when work is idle instead of guessing.
///
/// A job is a piece of a task between two suspensions. The executor counts jobs that were enqueued and have not
/// finished running; when the count falls to zero, nothing that prefers this executor can make progress until
/// something resumes it, and ``waitUntilIdle()`` returns. A task waiting in ``waitUntilIdle()`` is suspended, so it
/// never counts itself.
///
/// Which work runs here (checked on Swift 6.3.1): the body of `withTaskExecutorPreference(executor)` when it is
/// nonisolated, its child tasks (`async let`, task groups), default actors they call, and tasks made with
/// `Task(executorPreference: executor)`. Not `Task {}` or `Task.detached {}` (they do not inherit the preference),
/// nor `@MainActor` code or any actor with an executor of its own, nor callbacks on other threads.
///
/// Most tests use it through ``ChaosClock/withIdleTracking(isolation:_:)``:
/// ```swift
/// try await clock.withIdleTracking { executor in
///     async let report = service.refreshTwice()        // a child task: it runs on `executor`
///     await clock.advance(by: .seconds(60))            // returns once the woken work is idle
///     let unstructured = Task(executorPreference: executor) { await service.sync() }  // tracked too
///     await clock.runUntilIdle()
///     _ = (try await report, await unstructured.value)
/// }
/// ```
public final class IdleTrackingExecutor: TaskExecutor, Sendable {
    /// What the thread shares with those who enqueue and wait.
    final class Core: Sendable {
        struct Entry: Sendable {
            let job: UnownedJob
            /// Keeps the executor alive while it has a job to run, so the thread can run the job on it.
            let executor: IdleTrackingExecutor
        }

        struct State: Sendable {
            var queue: [Entry] = []
            /// Jobs enqueued and not yet finished: queued plus the one running.
            var pending = 0
            var jobsRun = 0
            var idleWaiters: [CheckedContinuation<Void, Never>] = []
            /// The thread that runs the jobs, once it has started.
            var thread: ObjectIdentifier?
        }

        let state = Locked(State())
        /// Signalled once for every entry queued, and once when the executor is released.
        let ready = DispatchSemaphore(value: 0)

        /// Runs jobs until the executor is gone and its queue is empty.
        func run() {
            let thread = ObjectIdentifier(Thread.current)
            state.withLock { $0.thread = thread }
            while true {
                ready.wait()
                guard let entry = state.withLock({ $0.queue.isEmpty ? nil : $0.queue.removeFirst() }) else { return }
                entry.job.runSynchronously(on: entry.executor.asUnownedTaskExecutor())
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.pending -= 1
                    state.jobsRun += 1
                    guard state.pending == 0 else { return [] }
                    defer { state.idleWaiters = [] }
                    return state.idleWaiters
                }
                for waiter in waiters { waiter.resume() }
            }
        }
    }

    let core = Core()

    /// Starts the executor's thread, named `name` for debuggers; it ends once the executor is released and has no
    /// job left.
    public init(name: String = "mischief.idle-tracking") {
        let thread = Thread { [core] in core.run() }
        thread.name = name
        thread.start()
    }

    /// Entries keep the executor alive, so the queue is empty now: the signal lets the thread find it so and end.
    deinit {
        core.ready.signal()
    }

    /// Queues `job` to run on the executor's thread after the jobs queued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let entry = Core.Entry(job: UnownedJob(job), executor: self)
        core.state.withLock { state in
            state.queue.append(entry)
            state.pending += 1
        }
        core.ready.signal()
    }

    /// Returns once no job is queued or running here.
    ///
    /// It returns at once when the executor is already idle. Called from a task that runs on this executor, it
    /// returns after that task's own job has ended, once the others have run too. Work that never stops yielding
    /// (a loop of `Task.yield()`) never lets it return.
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = core.state.withLock { state in
                guard state.pending > 0 else { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Jobs enqueued here and not yet finished (a moment's reading).
    public var pendingJobs: Int { core.state.withLock { $0.pending } }

    /// Jobs this executor has run since it was made.
    public var jobsRun: Int { core.state.withLock { $0.jobsRun } }

    /// True when the calling code runs on this executor's thread.
    ///
    /// A task that prefers the executor runs its nonisolated code here, but not code isolated to an actor with an
    /// executor of its own, such as `@MainActor` code; this tells the two apart.
    public var isRunningCurrentCode: Bool {
        let current = ObjectIdentifier(Thread.current)
        return core.state.withLock { $0.thread == current }
    }

    /// True when the current task prefers this executor, so its nonisolated code runs here.
    public var isPreferredByCurrentTask: Bool {
        withUnsafeCurrentTask { $0?.unownedTaskExecutor } == asUnownedTaskExecutor()
    }
}
