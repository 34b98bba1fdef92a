import Foundation
import Mischief
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The client's side of the socket: a non-blocking POSIX connection driven with `poll(2)` deadlines on a thread of
/// its own, so a client never blocks Swift's cooperative pool and never waits longer than its timeout, whatever the
/// target does.
enum SocketExchange {
    /// Sends `request` to the socket at `path` on a connection of its own and reads the whole answer, within
    /// `timeout` (a one-off request: the CLI's, or one a client's kept connection was busy for).
    static func exchange(_ request: [UInt8], to path: String, timeout: Duration) async throws(ControlClientError)
        -> (status: Int, body: Data, generation: UInt64?)
    {
        let result: Result<(Int, Data, UInt64?), ControlClientError> = await onThread {
            () throws(ControlClientError) in
            let deadline = ContinuousClock.now + timeout
            let fd = try connection(to: path, by: deadline)
            defer { close(fd) }
            switch try roundTrip(request, on: fd, path: path, by: deadline) {
            case .answered(let answer): return (answer.status, answer.body, answer.generation)
            case .unanswered(let cut):
                if let cut { throw .unreachable(path, reason(cut)) }
                throw .disconnected("the target closed the connection without answering")
            }
        }
        return try result.get()
    }

    /// A whole answer read from a connection.
    struct Answer: Sendable {
        let status: Int
        let body: Data
        let generation: UInt64?
        /// Whether the connection may carry the next request: the answer had a known length and did not say
        /// `Connection: close`.
        let reusable: Bool
    }

    /// What became of a request sent on a connection.
    enum Outcome {
        case answered(Answer)
        /// The connection closed (or was reset) before a byte of the answer came; the `errno` when sending was cut
        /// short. On a kept connection, the server closed it while idle: the request may be sent again.
        case unanswered(cut: Int32?)
    }

    /// Sends `request` on the connected `fd` and reads its answer, within `deadline`.
    static func roundTrip(
        _ request: [UInt8], on fd: Int32, path: String, by deadline: ContinuousClock.Instant
    ) throws(ControlClientError) -> Outcome {
        // A target that refuses a request before reading all of it (413 for a body over its limit) answers and
        // closes: the rest cannot be sent, but its answer is there to read, and says more than EPIPE.
        let cut = try sendAll(request, to: fd, path: path, by: deadline)
        var reader = ResponseReader()
        var body: [UInt8] = []
        var heard = false
        while !reader.isComplete {
            guard let bytes = try read(from: fd, path: path, by: deadline) else { break }
            heard = true
            body += try reader.feed(bytes)
            guard body.count <= 64 << 20 else { throw ControlClientError.protocolError("the answer is over 64 MB") }
        }
        guard let status = reader.status else {
            guard heard else { return .unanswered(cut: cut) }
            throw .disconnected("the target closed the connection in the middle of its answer")
        }
        let generation = reader.headers[ControlAPI.generationHeader.lowercased()].flatMap { UInt64($0) }
        let reusable =
            reader.isComplete && cut == nil && reader.headers["connection"]?.lowercased() != "close"
        return .answered(Answer(status: status, body: Data(body), generation: generation, reusable: reusable))
    }

    /// Whether a kept connection is still open with nothing waiting on it: a server that closed it while idle left an
    /// end of file to read (or a reset), and stray bytes mean it is out of step.
    static func isReusable(_ fd: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 0
    }

    /// Sends `request` and hands each piece of the answer's body to `deliver` as it arrives, until the answer ends,
    /// `cancellation` is cancelled, or nothing (not even a keep-alive) comes for `silence`. Runs on the calling thread,
    /// which sleeps in `poll(2)` until bytes come, the silence runs out or the stream is cancelled: an idle stream
    /// wakes it only when the target writes.
    static func stream(
        _ request: [UInt8], to path: String, silence: Duration, cancellation: StreamCancellation,
        deliver: (_ status: Int, _ body: [UInt8]) -> Void
    ) throws(ControlClientError) {
        let fd = try connection(to: path, by: ContinuousClock.now + silence)
        defer { close(fd) }
        if let cut = try sendAll(request, to: fd, path: path, by: ContinuousClock.now + silence) {
            throw .unreachable(path, reason(cut))
        }
        var reader = ResponseReader()
        while !reader.isComplete, !cancellation.isCancelled {
            guard
                let bytes = try read(
                    from: fd, path: path, by: ContinuousClock.now + silence, cancel: cancellation.readEnd)
            else { break }
            let body = try reader.feed(bytes)
            if let status = reader.status { deliver(status, body) }
        }
        if reader.status == nil, !cancellation.isCancelled {
            throw .disconnected("the target closed the connection without answering")
        }
    }

    static let timedOut = "the target did not answer in time"

    // MARK: Sockets

    private static func onThread<T: Sendable>(
        _ work: @escaping @Sendable () throws(ControlClientError) -> T
    ) async -> Result<T, ControlClientError> {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(ControlClientError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "mischief-client"
            thread.start()
        }
    }

    static func connection(to path: String, by deadline: ContinuousClock.Instant) throws(ControlClientError)
        -> Int32
    {
        // On a Unix socket EAGAIN means the server's accept queue is full (it is short, and the server pauses when
        // over its CPU budget): nothing was queued, so try again, a little later each time, until the deadline.
        var pause: Int32 = 2
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw .unreachable(path, reason(errno)) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let result = ControlSocket.withAddress(of: path) { connect(fd, $0, $1) }
            if result == 0 { return fd }
            let code = errno
            if code == EAGAIN {
                close(fd)
                guard ContinuousClock.now < deadline else { throw .unreachable(path, timedOut) }
                _ = poll(nil, 0, pause)
                pause = min(pause * 2, 50)
                continue
            }
            guard code == EINPROGRESS else {
                close(fd)
                throw .unreachable(path, result == -1 && code == 0 ? "the path is too long" : reason(code))
            }
            do throws(ControlClientError) {
                try wait(fd, for: Int16(POLLOUT), path: path, by: deadline)
            } catch {
                close(fd)
                throw error
            }
            var failure: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &size)
            guard failure == 0 else {
                close(fd)
                throw .unreachable(path, reason(failure))
            }
            return fd
        }
    }

    /// Sends every byte; returns nil, or the `errno` (EPIPE, ECONNRESET) when the target closed before taking them
    /// all.
    private static func sendAll(
        _ bytes: [UInt8], to fd: Int32, path: String, by deadline: ContinuousClock.Instant
    ) throws(ControlClientError) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            try wait(fd, for: Int16(POLLOUT), path: path, by: deadline)
            let sent = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0, errno == EINTR || errno == EAGAIN { continue }
            if sent < 0, errno == EPIPE || errno == ECONNRESET { return errno }
            guard sent > 0 else { throw .unreachable(path, reason(errno)) }
            offset += sent
        }
        return nil
    }

    /// The next bytes, or nil at end of file or once `cancel` (a descriptor that becomes readable) says so.
    private static func read(
        from fd: Int32, path: String, by deadline: ContinuousClock.Instant, cancel: Int32 = -1
    ) throws(ControlClientError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            guard try wait(fd, for: Int16(POLLIN), path: path, by: deadline, cancel: cancel) else { return nil }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count < 0, errno == ECONNRESET { return nil }
            guard count >= 0 else { throw .unreachable(path, reason(errno)) }
            return count == 0 ? nil : Array(buffer[..<count])
        }
    }

    /// Waits until `fd` is ready for `events`, within `deadline`; returns false when `cancel` (a descriptor that
    /// becomes readable, or -1 for none) became readable first.
    @discardableResult
    private static func wait(
        _ fd: Int32, for events: Int16, path: String, by deadline: ContinuousClock.Instant, cancel: Int32 = -1
    ) throws(ControlClientError) -> Bool {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw .unreachable(path, timedOut) }
            var pollers = [
                pollfd(fd: fd, events: events, revents: 0), pollfd(fd: cancel, events: Int16(POLLIN), revents: 0),
            ]
            let milliseconds = Int32(max(1, min(left.seconds * 1000, 60_000)))
            let ready = poll(&pollers, cancel >= 0 ? 2 : 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw .unreachable(path, reason(errno)) }
            if cancel >= 0, pollers[1].revents != 0 { return false }
            if ready > 0 { return true }
        }
    }

    static func reason(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}

/// Ends a stream's wait at once from another thread: a pipe whose read end the reading thread polls beside its
/// socket, so it sleeps until the target writes or the stream is cancelled, never waking to look.
final class StreamCancellation: Sendable {
    /// The end the reader polls: readable once cancelled (-1 when no pipe could be made; the reader then notices
    /// within its silence).
    let readEnd: Int32
    private let writeEnd: Int32
    private let cancelled = Atomic<Bool>(false)

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            readEnd = ends[0]
            writeEnd = ends[1]
        } else {
            readEnd = -1
            writeEnd = -1
        }
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Whether the stream was cancelled.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Cancels the stream: its reader returns from its wait at once.
    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing), writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
