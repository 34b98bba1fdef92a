import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-thread HTTP/1.1 server on 127.0.0.1 that echoes each request: the body names the method and path, then
/// the request's body; `X-Echo-*` headers repeat a few request headers. Loopback only: nothing leaves the machine.
final class LoopbackServer: Sendable {
    let port: UInt16
    private let socket: Int32

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        socket = fd
        port = UInt16(bigEndian: address.sin_port)
        DispatchQueue.global().async { [fd] in
            while true {
                let connection = accept(fd, nil, nil)
                if connection < 0 { break }
                LoopbackServer.serve(connection)
            }
        }
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    private static func serve(_ connection: Int32) {
        defer { close(connection) }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headerEnd: Int?
        var expected = Int.max
        while received.count < expected {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[..<count]
            if headerEnd == nil, let end = find([13, 10, 13, 10], in: received) {
                headerEnd = end + 4
                let head = String(decoding: received[..<end], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = end + 4 + length
            }
        }
        guard let headerEnd else { return }
        let lines = String(decoding: received[..<(headerEnd - 4)], as: UTF8.self).split(separator: "\r\n")
        let requestLine = lines.first.map(String.init) ?? ""
        let fields = lines.dropFirst().map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (parts[0].lowercased(), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        let mischief = fields.first { $0.0 == "x-mischief-network" }?.1 ?? "absent"
        let body =
            Array(requestLine.split(separator: " ").prefix(2).joined(separator: " ").utf8) + [10]
            + received[headerEnd...]
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Echo-Mischief: \(mischief)\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let reply = Array(head.utf8) + body
        _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start
        }
        return nil
    }
}
