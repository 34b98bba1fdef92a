import Foundation
import Mischief
import Synchronization
import Testing

@testable import MischiefControl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// HTTP/1.1 keep-alive on the control socket: the server answers requests one after another on one connection, each
/// within the limits as if it came alone, closes when asked, after a malformed request, and when the connection idles
/// past its timeout; the client's kept connection (``ControlConnection``) carries a console's commands on one
/// connection and opens another when the target closed it (a restart).
@Suite(.timeLimit(.minutes(1))) struct ControlServerKeepAliveTests {
    static let deadline = Duration.seconds(30)

    /// A request's bytes, asking to keep the connection unless `close`.
    static func request(
        _ method: String, _ path: String, body: String = "", close: Bool = false, extra: String = ""
    ) -> [UInt8] {
        Array(
            ("\(method) \(path) HTTP/1.1\r\nHost: m\r\nMischief-API: 1\r\nContent-Length: \(body.utf8.count)\r\n"
                + (close ? "Connection: close\r\n" : "") + extra + "\r\n" + body).utf8)
    }

    /// Sends each request on one connection in turn and reads its answer (nil: the connection closed unanswered);
    /// then, when `untilClosed`, waits for the server to close the connection and says whether it did.
    static func exchanges(
        _ path: String, _ requests: [[UInt8]], untilClosed: Bool = false
    ) async throws -> (answers: [SocketExchange.Answer?], closed: Bool) {
        try await AttackSocket.onThread { () throws -> ([SocketExchange.Answer?], Bool) in
            let deadline = ContinuousClock.now + Self.deadline
            let fd = try SocketExchange.connection(to: path, by: deadline)
            defer { close(fd) }
            var answers: [SocketExchange.Answer?] = []
            for request in requests {
                switch try SocketExchange.roundTrip(request, on: fd, path: path, by: deadline) {
                case .answered(let answer): answers.append(answer)
                case .unanswered: answers.append(nil)
                }
            }
            guard untilClosed else { return (answers, false) }
            return (answers, Self.waitForEnd(of: fd, by: deadline))
        }
    }

    /// Waits for the server to close `fd` (end of file or a reset) with nothing more sent; false at the deadline.
    static func waitForEnd(of fd: Int32, by deadline: ContinuousClock.Instant) -> Bool {
        var byte: UInt8 = 0
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = recv(fd, &byte, 1, 0)
            return count == 0 || (count < 0 && errno == ECONNRESET)
        }
        return false
    }

    static func text(_ answer: SocketExchange.Answer?) -> String {
        answer.map { String(decoding: $0.body, as: UTF8.self) } ?? "(no answer)"
    }

    @Test func twoRequestsOnOneConnectionAreAnsweredInOrder() async throws {
        try await withTarget { target in
            let (answers, _) = try await Self.exchanges(
                target.socketPath,
                [
                    Self.request("PUT", "/v1/seams/t.count", body: "return(7)"),
                    Self.request("GET", "/v1/target"),
                    Self.request("DELETE", "/v1/seams/t.count"),
                ])
            #expect(answers.map { $0?.status } == [200, 200, 200])
            #expect(Self.text(answers[0]).contains("return(7)"), "\(Self.text(answers[0]))")
            #expect(Self.text(answers[1]).contains("\"test\""), "\(Self.text(answers[1]))")
            #expect(answers.allSatisfy { $0?.reusable == true }, "an answer said Connection: close")
            #expect(target.count() == 0)
            #expect(await target.server.acceptedConnections() == 1)
        }
    }

    /// Requests written together (pipelined) are answered one after another, in order: the next is read only once the
    /// one before is answered.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withTarget { target in
            let bytes =
                Self.request("PUT", "/v1/seams/t.count", body: "return(5)")
                + Self.request("GET", "/v1/seams/t.count") + Self.request("GET", "/v1/target", close: true)
            let (status, closed, text) = try await AttackSocket.onThread { () throws -> (Int?, Bool, String) in
                let socket = try AttackSocket(path: target.socketPath)
                socket.send(bytes)
                let answer = socket.receive()
                return (AttackSocket.status(answer.bytes), answer.closed, String(decoding: answer.bytes, as: UTF8.self))
            }
            #expect(status == 200)
            #expect(closed, "the last request asked to close")
            let heads = text.components(separatedBy: "HTTP/1.1 ").dropFirst()
            #expect(heads.count == 3, "\(text.prefix(300))")
            let bodies = Array(heads)
            guard bodies.count == 3 else { return }
            #expect(bodies[0].hasPrefix("200") && bodies[0].contains("return(5)"))
            #expect(bodies[1].hasPrefix("200") && bodies[1].contains("return(5)"))
            #expect(bodies[2].hasPrefix("200") && bodies[2].contains("\"test\""))
            #expect(bodies[2].contains("Connection: close"))
        }
    }

    /// The head limit is the same for every request of a connection: a second request's head over it is 431, and the
    /// connection closes.
    @Test func theSizeLimitAppliesToTheSecondRequestToo() async throws {
        try await withTarget { target in
            let long = "X-Long: " + String(repeating: "a", count: 20_000) + "\r\n"
            let (answers, closed) = try await Self.exchanges(
                target.socketPath,
                [Self.request("GET", "/v1/target"), Self.request("GET", "/v1/target", extra: long)],
                untilClosed: true)
            #expect(answers.map { $0?.status } == [200, 431])
            #expect(answers.last??.reusable == false)
            #expect(closed, "the connection was not closed after the 431")
            // A body over the limit, announced by a second request, is refused on its declared length.
            let (bodies, _) = try await Self.exchanges(
                target.socketPath,
                [
                    Self.request("GET", "/v1/target"),
                    Array("PUT /v1/seams/t.count HTTP/1.1\r\nContent-Length: 5000000\r\n\r\n{\"spe".utf8),
                ])
            #expect(bodies.map { $0?.status } == [200, 413])
            try await ControlServerHTTPTests.expectAnswers(target)
        }
    }

    /// A second request that is not HTTP gets 400, and the connection is closed.
    @Test func aMalformedRequestAfterAGoodOneIs400AndCloses() async throws {
        try await withTarget { target in
            let (answers, closed) = try await Self.exchanges(
                target.socketPath, [Self.request("GET", "/v1/target"), Array("GARBAGE\r\n\r\n".utf8)],
                untilClosed: true)
            #expect(answers.map { $0?.status } == [200, 400])
            #expect(closed, "the connection was not closed after the 400")
        }
    }

    @Test func connectionCloseIsHonoured() async throws {
        try await withTarget { target in
            let (answers, closed) = try await Self.exchanges(
                target.socketPath, [Self.request("GET", "/v1/target", close: true)], untilClosed: true)
            #expect(answers.first??.status == 200)
            #expect(answers.first??.reusable == false, "the answer did not say Connection: close")
            #expect(closed)
        }
    }

    /// An answered connection on which nothing more comes is closed, without a word, after the keep-alive timeout;
    /// before it, it is kept.
    @Test func anIdleConnectionIsClosedAfterTheKeepAliveTimeout() async throws {
        try await withTarget(configure: { $0.limits.keepAliveTimeout = .milliseconds(300) }) { target in
            let start = ContinuousClock.now
            let (answers, closed) = try await Self.exchanges(
                target.socketPath, [Self.request("GET", "/v1/target")], untilClosed: true)
            #expect(answers.first??.status == 200)
            #expect(answers.first??.reusable == true)
            #expect(closed, "the idle connection was still open after \(Self.deadline)")
            #expect(ContinuousClock.now - start >= .milliseconds(300), "closed before its timeout")
        }
    }

    /// A client's kept connection carries its requests on one connection, and opens another when the target it
    /// talked to is gone and a new one serves at the path (a restart): the request after it is answered by the new one.
    @Test func aKeptConnectionCarriesRequestsAndReconnectsAfterARestart() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let first = try TestTarget(directory: directory)
        try await first.server.start()
        var client = ControlClient(socketPath: directory.socketPath)
        let connection = ControlConnection(socketPath: directory.socketPath)
        client.connection = connection
        for value in 1...10 { try await client.apply("return(\(value))", to: "t.count") }
        let before = try await client.target()
        #expect(first.count() == 10)
        #expect(await first.server.acceptedConnections() == 1)
        #expect(connection.connectionsOpened == 1)
        await first.server.stop()

        let restarted = try TestTarget(directory: directory)
        try await restarted.server.start()
        let after = try await client.target()
        #expect(after.instance != before.instance)
        try await client.apply("return(3)", to: "t.count")
        #expect(restarted.count() == 3)
        #expect(connection.connectionsOpened == 2)
        #expect(await restarted.server.acceptedConnections() == 1)
        connection.close()
        await restarted.server.stop()
    }

    /// A request on a kept connection to a target that does not answer fails at its deadline, and the next request,
    /// once the target answers again, goes on a new connection.
    @Test func aKeptConnectionsRequestKeepsItsDeadline() async throws {
        try await withTarget { target in
            let (entered, release) = target.holdWorkers()
            var client = target.client()
            let connection = ControlConnection(socketPath: target.socketPath)
            client.connection = connection
            client.timeout = .milliseconds(300)
            try await client.apply("return(1)", to: "t.count")
            // A long spec is answered on the worker, which the gate holds: the target does not answer.
            let spec = "seq(" + Array(repeating: "return(2)", count: 150).joined(separator: ", ") + ")"
            let failure = await Self.refusalOrError { try await client.apply(spec, to: "t.count") }
            guard case .unreachable(_, let reason) = failure else {
                Issue.record("expected a timeout, got \(String(describing: failure))")
                return
            }
            #expect(reason == SocketExchange.timedOut)
            var entries = entered.makeAsyncIterator()
            _ = await entries.next()
            // The held spec is applied once let go (the target answers a client that is gone): wait for that change,
            // within the suite's time limit, so the next apply comes after it.
            var changes = target.registry.changeSignals().makeAsyncIterator()
            release.signal()
            target.server.workerGate.withLock { $0 = nil }
            while target.registry.snapshot().seams.first(where: { $0.id == "t.count" })?.behaviourText?
                .hasPrefix("seq(") != true
            {
                _ = await changes.next()
            }
            client.timeout = Self.deadline
            try await client.apply("return(3)", to: "t.count")
            #expect(target.count() == 3)
            #expect(connection.connectionsOpened == 2)
            connection.close()
        }
    }

    /// A server that answers the first request of its first connection and keeps it, then closes it on the second
    /// request without a word (as a target that closed an idle connection just as the request came); on its second
    /// connection it answers. The client sends the request again, once, on a new connection.
    @Test func aRequestTheServerClosedOnUnansweredIsSentAgainOnceOnANewConnection() async throws {
        let directory = try SocketDirectory()
        defer { directory.remove() }
        let path = directory.socketPath
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        #expect(ControlSocket.withAddress(of: path, { bind(listener, $0, $1) }) == 0)
        #expect(listen(listener, 4) == 0)
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".utf8)
        // On a thread of its own, started now: it blocks in accept and poll. (Started from a task, it once waited for
        // the task pool past the client's deadline while other suites held the pool's threads.)
        let server = AttackSocket.startThread { () -> [Int] in
            // Each connection: how many requests it was sent before it closed.
            var requests: [Int] = []
            for (index, answers) in [1, 1].enumerated() {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return requests }
                var seen = 0
                var buffer = [UInt8](repeating: 0, count: 4096)
                var pending: [UInt8] = []
                while seen <= answers {
                    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 60_000) > 0 else { break }  // a starved machine's deadline
                    let count = recv(fd, &buffer, buffer.count, 0)
                    guard count > 0 else { break }
                    pending += buffer[..<count]
                    while let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                        pending.removeSubrange(..<end.upperBound)
                        seen += 1
                        if seen <= answers { _ = answer.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, 0) } }
                    }
                    if index == 0, seen > answers { break }  // the second request: closed unanswered
                }
                close(fd)
                requests.append(seen)
            }
            return requests
        }
        var client = ControlClient(socketPath: path)
        let connection = ControlConnection(socketPath: path)
        client.connection = connection
        let first = try await client.request(.GET, "target")
        let second = try await client.request(.GET, "target")
        #expect(first.status == 200 && second.status == 200)
        #expect(connection.connectionsOpened == 2)
        connection.close()
        #expect(try await server.value == [2, 1], "requests seen on each connection")
    }

    static func refusalOrError(_ body: () async throws -> some Any) async -> ControlClientError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? ControlClientError
        }
    }
}
