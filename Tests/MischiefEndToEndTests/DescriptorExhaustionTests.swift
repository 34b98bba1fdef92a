import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A target that runs out of file descriptors (`ulimit -n 64`, 200 connections held against it) keeps its
/// listener: once the connections close, it answers again within a few seconds, and the process lives on.
@Suite(.oneAtATime) struct DescriptorExhaustionTests {
    @Test func aTargetOutOfDescriptorsAnswersAgainOnceTheyAreFree() async throws {
        let directory = try HeadlessDemo.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("demo.sock").path
        let command = "ulimit -n 64 && exec '\(CLI.binary.path)' demo --headless --socket '\(socket)' --seed 3"
        let demo = try ChildProcess.start(
            URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: HeadlessDemo.environment(in: directory),
            directory: directory, output: directory.appendingPathComponent("out"),
            error: directory.appendingPathComponent("err"))
        defer { demo.kill() }
        _ = try await Poll.until("the demo to print its socket path", lastSeen: { demo.errorText }) {
            demo.outputText.contains(socket) ? true : nil
        }

        let held = try await Self.onThread { try Self.hold(200, on: socket) }
        #expect(held.count > 64, "only \(held.count) connections were accepted")
        _ = try await Self.onThread { () -> Int in
            for fd in held { close(fd) }
            return held.count
        }
        let lastCurl = LastSeen()
        let answer = try await Poll.until("the target to answer again", lastSeen: { lastCurl.text + demo.errorText }) {
            () -> String? in
            let curl = try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["-sS", "--max-time", "2", "--unix-socket", socket, "http://localhost/v1/target"],
                environment: HeadlessDemo.environment(in: directory))
            lastCurl.text = "curl exited \(curl.status): \(curl.error)\n"
            return curl.status == 0 && curl.output.contains("\"name\":\"demo\"") ? curl.output : nil
        }
        #expect(answer.contains("\"apiVersion\":1"))
        #expect(demo.exited() == nil)
    }

    /// Opens up to `count` connections to `path`; stops when the backlog stays full for half a second (the server
    /// no longer accepts: it is out of descriptors). Its backlog is short, so connecting waits for it to accept.
    private static func hold(_ count: Int, on path: String) throws -> [Int32] {
        var held: [Int32] = []
        for _ in 0..<count {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { break }
            var timeout = timeval(tv_sec: 0, tv_usec: 500_000)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard result == 0 else {
                close(fd)
                break
            }
            held.append(fd)
        }
        return held
    }

    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

/// What a polled command said last, for a failure message.
private final class LastSeen: @unchecked Sendable {
    var text = ""  // written and read by the polling task only
}
