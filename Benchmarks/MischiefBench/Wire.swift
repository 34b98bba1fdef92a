import Foundation
import MischiefControl

/// Blocking POSIX Unix-socket calls for the attack benchmark, each bounded by socket timeouts.
enum Wire {
    /// A connection with `head` sent on it, left open.
    static func open(_ path: String, _ head: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ControlBenchError("socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ControlBenchError("connect: \(reason)")
        }
        if !head.isEmpty { _ = write(fd, Array(head.utf8)) }
        return fd
    }

    /// Sends `bytes` on a new connection and reads the answer (when `thenRead`) until the server closes.
    @discardableResult
    static func send(_ path: String, _ bytes: [UInt8], thenRead: Bool) throws -> String {
        let fd = try open(path, "")
        defer { close(fd) }
        _ = write(fd, bytes)
        guard thenRead else { return "" }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer[..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    static func exchange(_ path: String, _ request: String) throws -> String {
        try send(path, Array(request.utf8), thenRead: true)
    }

    /// Reads whatever is waiting, without blocking.
    static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
