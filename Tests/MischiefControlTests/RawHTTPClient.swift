import Foundation

@testable import MischiefControl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare HTTP client on a POSIX Unix socket, for sending what ``ControlClient`` never would: malformed bodies,
/// garbage request lines, half requests. Blocking I/O runs on a thread of its own, never on Swift's task pool, and
/// every read has a deadline (poll(2)), so a test cannot hang on a server that does not answer.
struct RawHTTPClient: Sendable {
    let path: String

    /// An answer split into its parts.
    struct Response: Sendable {
        let status: Int
        /// Header names in lower case.
        let headers: [String: String]
        let body: Data

        /// The body as the API's error JSON.
        var error: ErrorBody? { try? JSONDecoder().decode(ErrorBody.self, from: body) }
    }

    /// Sends one request (with `Connection: close` unless `headers` say otherwise) and reads the answer until the
    /// server closes the connection.
    func request(
        _ method: String, _ target: String, headers: [String: String] = [:], body: Data = Data(),
        contentLength: Int? = nil
    ) async throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: mischief\r\n"
        head += "Content-Length: \(contentLength ?? body.count)\r\n"
        if !headers.keys.contains(where: { $0.lowercased() == "connection" }) { head += "Connection: close\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let bytes = try await exchange(Data(head.utf8) + body)
        return try Self.parse(bytes)
    }

    /// Connects, writes `bytes`, half-closes the connection when `halfClose` (so the server sees the end of the
    /// request stream), and returns what comes back until end of file, or until `marker` appears.
    ///
    /// - Throws: ``RawHTTPError/timedOut(_:)`` with what was read when nothing more comes within `timeout`.
    func exchange(
        _ bytes: Data, halfClose: Bool = true, until marker: String? = nil, timeout: Duration = .seconds(60)
    ) async throws -> Data {
        let path = self.path
        return try await Self.onThread {
            let fd = try Self.openConnection(to: path)
            defer { close(fd) }
            try Self.sendAll(bytes, on: fd)
            if halfClose { shutdown(fd, Int32(SHUT_WR)) }
            return try Self.receiveAll(on: fd, until: marker.map { Array($0.utf8) }, timeout: timeout)
        }
    }

    // MARK: Sockets

    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    private static func openConnection(to path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXFailure(call: "socket", code: errno) }
        let result = ControlSocket.withAddress(of: path) { connect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw POSIXFailure(call: "connect", code: code)
        }
        return fd
    }

    private static func sendAll(_ data: Data, on fd: Int32) throws {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { throw POSIXFailure(call: "send", code: errno) }
            offset += sent
        }
    }

    private static func receiveAll(on fd: Int32, until marker: [UInt8]?, timeout: Duration) throws -> Data {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw RawHTTPError.timedOut(Data(received)) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw POSIXFailure(call: "poll", code: errno) }
            if ready == 0 { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == ECONNRESET { break }
            guard count >= 0 else { throw POSIXFailure(call: "recv", code: errno) }
            if count == 0 { break }
            received += buffer[..<count]
            if let marker, received.firstRange(of: marker) != nil { break }
        }
        return Data(received)
    }

    // MARK: Parsing

    /// Splits an HTTP/1.1 answer into status, headers and body (chunked bodies decoded).
    static func parse(_ data: Data) throws -> Response {
        let bytes = Array(data)
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { throw RawHTTPError.malformed(data) }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPError.malformed(data) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(bytes[end.upperBound...])
        if headers["transfer-encoding"] == "chunked" {
            body = dechunk(body)
        } else if let length = headers["content-length"].flatMap(Int.init), length <= body.count {
            body = Array(body[..<length])
        }
        return Response(status: status, headers: headers, body: Data(body))
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var rest = bytes[...]
        while let lineEnd = rest.firstRange(of: Array("\r\n".utf8)),
            let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16), size > 0
        {
            let start = lineEnd.upperBound
            let stop = min(rest.endIndex, start + size)
            out += rest[start..<stop]
            rest = rest[min(rest.endIndex, stop + 2)...]
        }
        return out
    }
}

/// Why a raw exchange failed.
enum RawHTTPError: Error {
    /// Nothing more came before the deadline; what came so far.
    case timedOut(Data)
    /// The answer is not HTTP.
    case malformed(Data)
}
