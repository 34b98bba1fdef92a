import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One kept-alive connection to a target's socket, for a client's requests one after another: an attached console
/// sends all its commands on it, from one thread of its own that sleeps while nothing is asked (no connection and no
/// thread per request).
///
/// Each request keeps its own deadline (``ControlClient/timeout``), so a stopped target cannot hold a caller longer;
/// after a request that failed or timed out, the connection is closed and the next request opens another. A connection
/// the target closed while idle (after its ``ControlServer/Limits/keepAliveTimeout``, or because it restarted) is
/// opened again and the request sent again, once, when nothing of it was answered. A request asked while another is
/// in flight does not wait behind it: the client sends it on a connection of its own (``exchange(_:timeout:)`` returns
/// nil). Events streams always have a connection of their own.
///
/// ```swift
/// var client = ControlClient(socketPath: path)
/// client.connection = ControlConnection(socketPath: path)
/// try await client.apply("shift(+1d)", to: "clock.now")  // connects
/// try await client.revert("clock.now")                   // the same connection
/// ```
package final class ControlConnection: Sendable {
    /// The socket it connects to.
    package let socketPath: String
    private let worker: ConnectionWorker

    /// A connection to the target at `socketPath`, opened at the first request.
    package init(socketPath: String) {
        self.socketPath = socketPath
        worker = ConnectionWorker(path: socketPath)
    }

    deinit {
        worker.shutDown()
    }

    /// How many times a connection has been opened (tests count them).
    package var connectionsOpened: Int { worker.opened.load(ordering: .relaxed) }

    /// Sends `request` on the kept connection and reads its answer within `timeout`; nil, at once, when the
    /// connection is busy with another request.
    func exchange(_ request: [UInt8], timeout: Duration) async throws(ControlClientError)
        -> (status: Int, body: Data, generation: UInt64?)?
    {
        guard worker.claim() else { return nil }
        let deadline = ContinuousClock.now + timeout
        let result = await withCheckedContinuation { continuation in
            worker.hand(ConnectionWorker.Job(request: request, deadline: deadline, done: continuation))
        }
        return try result.get()
    }

    /// Closes the connection and ends its thread (also done when the connection is freed).
    package func close() {
        worker.shutDown()
    }
}

/// The thread and its socket: jobs are handed over one at a time (``claim()`` first), under a condition the thread
/// sleeps on.
private final class ConnectionWorker: @unchecked Sendable {
    // `fd` is touched only by the thread; `job`, `busy`, `started` and `stopping` under `condition`.
    typealias Answer = Result<(status: Int, body: Data, generation: UInt64?), ControlClientError>

    struct Job {
        let request: [UInt8]
        let deadline: ContinuousClock.Instant
        let done: CheckedContinuation<Answer, Never>
    }

    let path: String
    let opened = Atomic<Int>(0)
    private let condition = NSCondition()
    private var job: Job?
    private var busy = false
    private var started = false
    private var stopping = false
    private var fd: Int32 = -1

    init(path: String) {
        self.path = path
    }

    /// Takes the connection for one request; false when another has it.
    func claim() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !busy else { return false }
        busy = true
        return true
    }

    /// Gives the thread the claimed request (starting the thread the first time).
    func hand(_ job: Job) {
        condition.lock()
        guard !stopping else {
            busy = false
            condition.unlock()
            return job.done.resume(returning: .failure(.disconnected("the client's connection was closed")))
        }
        self.job = job
        let start = !started
        started = true
        condition.signal()
        condition.unlock()
        guard start else { return }
        let thread = Thread { [self] in run() }
        thread.name = "mischief-connection"
        thread.start()
    }

    func shutDown() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while let job = next() {
            let answer = answer(job)
            condition.lock()
            busy = false
            condition.unlock()
            job.done.resume(returning: answer)
        }
        closeSocket()
    }

    /// The next job, or nil once stopping.
    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while job == nil, !stopping { condition.wait() }
        guard !stopping else {
            if let job { job.done.resume(returning: .failure(.disconnected("the client's connection was closed"))) }
            job = nil
            return nil
        }
        defer { job = nil }
        return job
    }

    private func answer(_ job: Job) -> Answer {
        do throws(ControlClientError) {
            return .success(try send(job))
        } catch {
            closeSocket()  // out of step after a failure or a timeout: the next request connects again
            return .failure(error)
        }
    }

    private func send(_ job: Job) throws(ControlClientError) -> (status: Int, body: Data, generation: UInt64?) {
        var reused = fd >= 0
        if reused, !SocketExchange.isReusable(fd) {
            closeSocket()
            reused = false
        }
        for attempt in 0..<2 {
            if fd < 0 {
                fd = try SocketExchange.connection(to: path, by: job.deadline)
                opened.add(1, ordering: .relaxed)
            }
            switch try SocketExchange.roundTrip(job.request, on: fd, path: path, by: job.deadline) {
            case .answered(let answer):
                if !answer.reusable { closeSocket() }
                return (answer.status, answer.body, answer.generation)
            case .unanswered(let cut):
                closeSocket()
                // The target closed a kept connection before this request reached it: once more, on a new one.
                if reused, attempt == 0 {
                    reused = false
                    continue
                }
                if let cut { throw .unreachable(path, SocketExchange.reason(cut)) }
                throw .disconnected("the target closed the connection without answering")
            }
        }
        throw .disconnected("the target closed the connection without answering")
    }

    private func closeSocket() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }
}
