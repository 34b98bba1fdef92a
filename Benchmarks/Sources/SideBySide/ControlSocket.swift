import Foundation
import Mischief
import MischiefControl

/// The control socket's latency, through its public API (the console's frame cost is `mischief-bench`'s: the
/// console is not a product).
enum ControlSocketLatency {
    /// p50 and p99 milliseconds of `requests` `GET /v1/seams` over the Unix socket, one connection each, against
    /// a server over a registry of 50 seams.
    static func socketLatency(requests: Int) async throws -> (p50: Double, p99: Double) {
        let registry = Registry(sessionSeed: 1)
        try registry.register(Scale.seams(50, prefix: "ctl"))
        let path = "/tmp/side-by-side-\(getpid()).sock"
        let server = ControlServer(registry: registry, options: .init(name: "side-by-side", socketPath: path))
        try await server.start()
        defer { Task { await server.stop() } }
        var samples: [Double] = []
        for _ in 0..<requests {
            samples.append(try Measure.seconds { try get("/v1/seams", socket: path) } * 1e3)
        }
        return (Measure.percentile(samples, 0.5), Measure.percentile(samples, 0.99))
    }

    /// One HTTP/1.1 GET on a Unix socket, read to the end; throws unless the answer is 200.
    static func get(_ path: String, socket: String) throws {
        let fd = Foundation.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socket.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = "GET \(path) HTTP/1.1\r\nHost: localhost\r\nMischief-API: 1\r\nConnection: close\r\n\r\n"
        _ = request.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        guard answer.starts(with: Array("HTTP/1.1 200".utf8)) else { throw POSIXError(.EPROTO) }
    }
}
