import Foundation
import Mischief
import Synchronization

@testable import MischiefControl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hostile client's connection: blocking POSIX calls with deadlines, for the attack suite. Unlike
/// ``RawHTTPClient`` it keeps going when the server closes on it (a server that refuses a 2 MB head closes long
/// before the client has sent it), and it can hold connections open. Call it only from threads of its own
/// (``AttackSocket/onThread(_:)``), never on the task pool.
// Unchecked: a connection is used by one thread at a time, handed from one to the next.
final class AttackSocket: @unchecked Sendable {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXFailure(call: "socket", code: errno) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard ControlSocket.withAddress(of: path, { connect(fd, $0, $1) }) == 0 else {
            let code = errno
            close(fd)
            throw POSIXFailure(call: "connect", code: code)
        }
    }

    deinit { close(fd) }

    /// Sends what the server takes of `bytes`; false once it stops taking them (closed, reset, or timed out).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// What the server sends until it closes, until what it sent holds `marker`, or until `timeout`; `closed` says
    /// whether it closed.
    ///
    /// The timeout is a deadline for a server that never answers, generous for a loaded machine: a server that
    /// answers and closes, or sends the marker, is not waited on longer.
    func receive(until marker: String? = nil, timeout: Duration = .seconds(60)) -> (bytes: [UInt8], closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        let marker = marker.map { Array($0.utf8) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let marker, received.firstRange(of: marker) != nil { return (received, false) }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return (received, false) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, left.seconds * 1000)))
            if ready <= 0 { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return (received, true) }
            received += buffer[..<count]
        }
    }

    /// The status code of what `receive` got, or nil.
    static func status(_ bytes: [UInt8]) -> Int? {
        let line = String(decoding: bytes.prefix(32), as: UTF8.self)
        guard line.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(line.dropFirst(9).prefix(3))
    }

    /// Runs `work` on a thread of its own and waits for it without blocking the task pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Starts `work` on a thread of its own now, not when the task pool gets to it (on two cores the pool has two
    /// threads, and other suites' blocking work can hold both for tens of seconds), and returns its result to await.
    static func startThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread { result.finish(Result { try work() }) }.start()
        return result
    }

    /// Sends `count` plain `GET /v1/target` requests one after another, each on a connection of its own, and returns
    /// how many were answered 200. How fast they are answered under an attack is measured, in release and pinned, by
    /// `Scripts/control-attack.sh` (GET /v1/target p50/p99 under each attack), not here.
    static func answered(of path: String, count: Int) throws -> Int {
        try (0..<count).count { _ in
            let socket = try AttackSocket(path: path)
            socket.send("GET /v1/target HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n")
            return status(socket.receive().bytes) == 200
        }
    }
}

/// What a thread started by ``AttackSocket/startThread(_:)`` gives, awaited without blocking the task pool.
final class ThreadResult<T: Sendable>: Sendable {
    private let state = Mutex<(result: Result<T, any Error>?, waiter: CheckedContinuation<T, any Error>?)>((nil, nil))

    fileprivate func finish(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state in
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let result = state.withLock { state in
                    if state.result == nil { state.waiter = continuation }
                    return state.result
                }
                if let result { continuation.resume(with: result) }
            }
        }
    }
}
