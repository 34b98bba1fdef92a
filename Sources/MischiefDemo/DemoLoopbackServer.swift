import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP server on loopback, for the demo's weather service and its plain fetch: it listens on `127.0.0.1` at a
/// port the system picks, answers `GET /v1/weather` with the weather as JSON and every other request with `200 OK`,
/// and closes the connection. Nothing outside the machine can reach it, so the demo's baseline works with no network
/// and every failure on its screen is one Mischief made.
///
/// It serves one connection at a time on a thread of its own (never Swift's cooperative pool), reading at most 8 KB of
/// the request for at most two seconds, so a client that sends nothing cannot hold it for long.
final class DemoLoopbackServer: Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: Int32
    private let stopped = Atomic(false)

    /// Why it could not listen.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Listens on `127.0.0.1` and starts serving.
    init() throws(Failure) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard status else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "listening on 127.0.0.1: \(reason)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.name = "mischief-demo-loopback"
        thread.start()
    }

    /// Stops accepting and closes the listening socket; the serving thread ends.
    func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the accept that waits
    }

    private func serve() {
        defer { close(listener) }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // shut down, or out of descriptors: the fetch then reports what it sees
            }
            answer(client)
        }
    }

    /// Reads the request head (up to 8 KB, two seconds at most), then answers (``reply(to:)``) and closes.
    private func answer(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 2048)
        while request.count < 8192 {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { break }
            request += buffer[0..<count]
            if Self.endsHead(request) { break }
        }
        let reply = Self.reply(to: request)
        _ = reply.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// The whole HTTP response to the request whose head is `request`: the weather (``weather(query:)``) for
    /// `GET /v1/weather`, `ok` for anything else.
    static func reply(to request: [UInt8]) -> String {
        let line = String(decoding: request.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let target = parts.count >= 2 ? String(parts[1]) : "/"
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        let (type, body) =
            path == "/v1/weather"
            ? ("application/json", weather(query: URLComponents(string: target)?.queryItems ?? []))
            : ("text/plain", "ok\n")
        return "HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
    }

    /// The weather the demo's service gives for the place in `query` (`lat`, `lon`): clear skies, colder away from
    /// the equator (Lisbon 18 °C), and the same answer for the same place every time.
    static func weather(query: [URLQueryItem]) -> String {
        let asked = query.first { $0.name == "lat" }?.value.flatMap(Double.init) ?? 38.7
        let latitude = asked.isFinite ? min(90, abs(asked)) : 38.7  // never trap on `nan` or `1e999` from a client
        let celsius = Int((30 - latitude * 0.3).rounded())
        return #"{"summary": "Clear skies", "celsius": \#(celsius)}"#
    }

    /// Whether `bytes` hold the blank line that ends a request head.
    static func endsHead(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        return (0...(bytes.count - 4)).contains { index in
            bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10
        }
    }
}
