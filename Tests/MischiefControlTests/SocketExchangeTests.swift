import Foundation
import Testing

@testable import MischiefControl

#if canImport(Glibc)
    import Glibc
#endif

/// The client's connection when the target's accept queue is full: the server's queue is short and it pauses when
/// over its CPU budget, so a client must wait for room, within its deadline, instead of failing at once.
@Suite(.timeLimit(.minutes(1))) struct SocketExchangeTests {
    /// A Unix socket that listens with no room in its queue and accepts nothing until told to.
    final class FullListener: @unchecked Sendable {
        // @unchecked: the descriptors are set in init and only closed in `close()`, after the test's last use.
        let path: String
        let listener: Int32
        private(set) var fillers: [Int32] = []

        init(path: String) throws {
            self.path = path
            listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard ControlSocket.withAddress(of: path, { bind(listener, $0, $1) }) == 0 else {
                throw POSIXFailure(call: "bind", code: errno)
            }
            guard listen(listener, 0) == 0 else { throw POSIXFailure(call: "listen", code: errno) }
            // Connect until the kernel says the queue is full.
            while fillers.count < 64 {
                let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                if ControlSocket.withAddress(of: path, { connect(fd, $0, $1) }) != 0 {
                    let code = errno
                    Glibc.close(fd)
                    guard code == EAGAIN else { throw POSIXFailure(call: "connect", code: code) }
                    return
                }
                fillers.append(fd)
            }
        }

        func close() {
            fillers.forEach { _ = Glibc.close($0) }
            Glibc.close(listener)
        }
    }

    static let request = Array("GET /v1/target HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)

    @Test func aFullQueueIsWaitedOnUntilTheDeadlineNotRefusedAtOnce() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let listener = try FullListener(path: directory.socketPath)
        defer { listener.close() }
        // Before: "Resource temporarily unavailable (errno 11)" at once.
        await #expect {
            _ = try await SocketExchange.exchange(Self.request, to: listener.path, timeout: .milliseconds(200))
        } throws: { error in
            guard case ControlClientError.unreachable(_, let reason) = error else { return false }
            return reason == "the target did not answer in time"
        }
    }
}
