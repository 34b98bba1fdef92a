import Foundation
import Mischief
import MischiefTestSupport
import Testing

@testable import MischiefControl

/// The HTTP attack suite, reduced for `swift test` (the full one: `Scripts/control-attack.sh`). Loopback Unix
/// sockets only, bounded in count and time; limits made short through ``ControlServer/Limits`` so it runs in
/// seconds. After every attack the server still answers.
///
/// What is asserted here is behaviour: the status, that the connection was closed, that other clients were answered
/// meanwhile. "At once" is shown by a deadline the answer could not have come from (a limit of an hour the server
/// would have waited for), never by timing the answer: how fast the server answers under each attack is measured in
/// release, pinned to a core, by `Scripts/control-attack.sh` (`mischief-bench --attack`, GET /v1/target p50/p99 per
/// attack). Every wait has a deadline of a minute, which a server that answers never reaches.
@Suite(.timeLimit(.minutes(1))) struct ControlServerAttackTests {
    static func short(_ options: inout ControlServer.Options) {
        options.limits.headTimeout = .milliseconds(400)
        options.limits.bodyTimeout = .milliseconds(400)
        options.limits.connections = 64
        options.limits.advanceTimeout = .milliseconds(200)
    }

    /// No deadline the server could reach while a test runs: a request head, a body or an advance that the server
    /// waited for would go unanswered past every deadline of the test.
    static let hour = Duration.seconds(3_600)

    /// Sends `bytes` on a connection of its own and returns the status (nil when closed without one) and whether the
    /// server closed the connection (within a minute).
    static func attack(_ target: TestTarget, _ bytes: [UInt8]) async throws -> (status: Int?, closed: Bool) {
        let path = target.socketPath
        return try await AttackSocket.onThread {
            let socket = try AttackSocket(path: path)
            socket.send(bytes)
            let answer = socket.receive()
            return (AttackSocket.status(answer.bytes), answer.closed)
        }
    }

    /// A client that half-closes its side after the request still gets the whole answer, however long: a 600 KB
    /// answer used to arrive cut at ~210 KB under its Content-Length (issue #28).
    @Test func aHalfClosedClientGetsTheWholeLongAnswer() async throws {
        try await withTarget { target in
            let description = String(repeating: "d", count: 600_000)
            _ = try await target.client().define(profiles: "name: Long\ndescription: \(description)\nentries: {}\n")
            let path = target.socketPath
            let (head, bodyCount) = try await AttackSocket.onThread { () -> (String, Int) in
                let socket = try AttackSocket(path: path)
                socket.send("GET /v1/profiles HTTP/1.1\r\nHost: m\r\nMischief-API: 1\r\n\r\n")
                shutdown(socket.fd, Int32(SHUT_WR))
                // Before reading, let the server serve another connection in full: it has then read this request
                // and its end, and written what the socket takes of the answer, while nothing was read here.
                let probe = try AttackSocket(path: path)
                probe.send("GET /v1/target HTTP/1.1\r\nHost: m\r\nMischief-API: 1\r\nConnection: close\r\n\r\n")
                _ = probe.receive()
                let answer = socket.receive().bytes
                let end = answer.indices.first { answer[$0...].starts(with: Array("\r\n\r\n".utf8)) } ?? answer.count
                return (String(decoding: answer[..<end], as: UTF8.self), max(0, answer.count - end - 4))
            }
            let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(length ?? 0 > 600_000)
            #expect(bodyCount == length, "announced \(String(describing: length)), received \(bodyCount)")
        }
    }

    /// A long header line is refused 431 on its length, before the end of its head: with the head deadline an hour
    /// away and the head left unfinished, only its length can have ended it; another client is answered meanwhile.
    @Test func longHeaderLinesAre431AtOnce() async throws {
        try await withTarget(configure: { $0.limits.headTimeout = Self.hour }) { target in
            for size in [1_000, 17_000, 30_000, 100_000] {
                let line =
                    "GET /v1/target HTTP/1.1\r\nHost: m\r\nConnection: close\r\nX-Long: \(String(repeating: "a", count: size))\r\n"
                let path = target.socketPath
                let held = try await AttackSocket.onThread { () throws -> (status: Int?, closed: Bool) in
                    let socket = try AttackSocket(path: path)
                    socket.send(line)
                    // The head is not finished: a short line waits for more, a long one is answered.
                    guard size >= 16_000 else {
                        let probe = try AttackSocket(path: path)
                        probe.send("GET /v1/target HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n")
                        guard AttackSocket.status(probe.receive().bytes) == 200 else { return (nil, false) }
                        socket.send("\r\n")
                        let answer = socket.receive()
                        return (AttackSocket.status(answer.bytes), answer.closed)
                    }
                    let answer = socket.receive()
                    return (AttackSocket.status(answer.bytes), answer.closed)
                }
                #expect(held.status == (size < 16_000 ? 200 : 431), "\(size) bytes, head unfinished")
                let (status, _) = try await Self.attack(target, Array((line + "\r\n").utf8))
                #expect(status == (size < 16_000 ? 200 : 431), "\(size) bytes")
            }
            let line = "GET /v1/\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\n\r\n"
            #expect(try await Self.attack(target, Array(line.utf8)).status == 431)
            try await ControlServerHTTPTests.expectAnswers(target)
        }
    }

    @Test func twoHundredThousandHeadersAre431() async throws {
        try await withTarget { target in
            let head = "GET /v1/target HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 200_000) + "\r\n"
            let (status, closed) = try await Self.attack(target, Array(head.utf8))
            #expect(status == 431)
            #expect(closed)
            try await ControlServerHTTPTests.expectAnswers(target)
        }
    }

    @Test func aHundredMegabyteBodyIsRefusedOnItsLengthAndAPartialOneLeavesNothingBehind() async throws {
        try await withTarget { target in
            let head = "PUT /v1/seams/t.count HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: 100000000\r\n\r\n"
            let partial = Array(head.utf8) + [UInt8](repeating: 0x61, count: 64 * 1024)
            #expect(try await Self.attack(target, partial).status == 413)
            #expect(target.count() == 0)
            try await ControlServerHTTPTests.expectAnswers(target)
        }
    }

    /// A chunk size over the limit, alone or added to those before it, is refused 413 as soon as it is announced:
    /// `ffffffffffffffff` (or 2 MB followed by a few bytes) used to be held until the body deadline, then 408 (issue
    /// #28). The body deadline is an hour here, so only the size can have ended the request.
    @Test func chunkSizesOverTheLimitAre413AtOnce() async throws {
        try await withTarget(configure: { $0.limits.bodyTimeout = Self.hour }) { target in
            let head =
                "PUT /v1/seams/t.count HTTP/1.1\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
            let half = String(ControlAPI.maxBodyBytes / 2, radix: 16)
            let attacks: [(String, [UInt8])] = [
                ("ffffffffffffffff", Array((head + "ffffffffffffffff\r\nab").utf8)),
                ("a size of 17 digits", Array((head + "10000000000000000\r\nab").utf8)),
                ("2 MB and a short body", Array((head + "200000\r\nreturn(1)").utf8)),
                ("2 MB in the head's read, without data", Array((head + "200000\r\n").utf8)),
                (
                    "two halves and one byte more",
                    Array((head + "\(half)\r\n").utf8) + [UInt8](repeating: 0x20, count: ControlAPI.maxBodyBytes / 2)
                        + Array("\r\n\(half);ext=1\r\n".utf8)
                        + [UInt8](repeating: 0x20, count: ControlAPI.maxBodyBytes / 2) + Array("\r\n1\r\n".utf8)
                ),
            ]
            for (name, bytes) in attacks {
                let (status, closed) = try await Self.attack(target, bytes)
                #expect(status == 413, "\(name): \(String(describing: status))")
                #expect(closed, "\(name): the connection stayed open")
            }
            #expect(target.count() == 0)
            try await ControlServerHTTPTests.expectAnswers(target)
        }
    }

    /// The size lines are followed across reads and past extensions; a chunked body within the limit is served.
    @Test func aChunkedBodyWithinTheLimitIsServedWhereverItIsCut() async throws {
        try await withTarget { target in
            let head =
                "PUT /v1/seams/t.count HTTP/1.1\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
            let body = "3;x=y\r\nret\r\n6\r\nurn(7)\r\n0\r\n\r\n"
            let bytes = Array((head + body).utf8)
            let path = target.socketPath
            for cut in [
                head.utf8.count - 1, head.utf8.count, head.utf8.count + 2, head.utf8.count + 9, bytes.count - 3,
            ] {
                let status = try await AttackSocket.onThread { () throws -> Int? in
                    let socket = try AttackSocket(path: path)
                    // Two writes, which the server may read apart (every cut is also covered by ChunkSizesTests).
                    socket.send(Array(bytes[..<cut]))
                    socket.send(Array(bytes[cut...]))
                    return AttackSocket.status(socket.receive().bytes)
                }
                #expect(status == 200, "cut at \(cut)")
                #expect(target.count() == 7)
            }
        }
    }

    @Test func garbageIs400Or408AndAClosedConnection() async throws {
        try await withTarget(configure: Self.short) { target in
            let garbage: [[UInt8]] = [
                Array("GARBAGE\r\n\r\n".utf8), Array("GET\r\n\r\n".utf8), Array("GET / HTTP/9.9\r\n\r\n".utf8),
                Array("\r\n\r\n\r\n".utf8), (0..<256).map { UInt8($0) },
                Array("GET /v1/target HTTP/1.1\r\nX\r\n\r\n".utf8),
                Array("POST /v1/sessions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8),
            ]
            for bytes in garbage {
                let (status, closed) = try await Self.attack(target, bytes)
                // Blank lines before a request are allowed: that one waits for the head deadline (408).
                #expect(
                    status == nil || status == 400 || status == 408,
                    "\(bytes.prefix(20)) got \(String(describing: status))")
                #expect(closed, "\(bytes.prefix(20)): the connection was not closed within a minute")
            }
            try await ControlServerHTTPTests.expectAnswers(target)
        }
    }

    /// A client that keeps the head coming a line at a time is answered 408 at the head's deadline: each line does not
    /// put it off. The client trickles lines for as long as the server lets it (up to a minute, 150 times the 400 ms
    /// deadline); a server that put the deadline off at each line would let it go on to the end.
    @Test func aSlowClientIsAnswered408AtItsHeadDeadline() async throws {
        try await withTarget(configure: Self.short) { target in
            let path = target.socketPath
            let (status, closed, lines) = try await AttackSocket.onThread { () throws -> (Int?, Bool, Int) in
                let giveUp = ContinuousClock.now + .seconds(60)
                let socket = try AttackSocket(path: path)
                socket.send("GET /v1/target HTTP/1.1\r\n")
                var bytes: [UInt8] = []
                var closed = false
                var lines = 0
                // A header line every 50 ms, never the end of the head.
                while ContinuousClock.now < giveUp, !closed {
                    guard socket.send("X-Slow: 1\r\n") else { break }
                    lines += 1
                    let part = socket.receive(timeout: .milliseconds(50))
                    bytes += part.bytes
                    closed = part.closed
                }
                if !closed {
                    let part = socket.receive()
                    bytes += part.bytes
                    closed = part.closed
                }
                return (AttackSocket.status(bytes), closed, lines)
            }
            #expect(status == 408, "after \(lines) header lines")
            #expect(closed, "the server still took header lines after \(lines) of them, a minute")
            try await ControlServerHTTPTests.expectAnswers(target)
        }
    }

    @Test func idleConnectionsNeitherLockOthersOutNorStay() async throws {
        try await withTarget(configure: Self.short) { target in
            let path = target.socketPath
            let (answered, oldest) = try await AttackSocket.onThread {
                () throws -> (Int, (bytes: [UInt8], closed: Bool)) in
                let idle = try (0..<300).map { _ in try AttackSocket(path: path) }
                // Asked while all 300 are held open.
                let answered = try AttackSocket.answered(of: path, count: 50)
                return (answered, idle[0].receive())
            }
            // Still answering, not wedged (FlyingFox took seconds). The 50 ms goal is measured, in release and pinned,
            // by Scripts/control-attack.sh ("idle connections").
            #expect(answered == 50)
            #expect(oldest.closed)  // evicted past the limit, or timed out
            let held = await target.server.census().connections
            #expect(held <= 64)
        }
    }

    @Test func twoHundredEventStreamsShareOneFeed() async throws {
        try await withTarget { target in
            let path = target.socketPath
            let streams = try await AttackSocket.onThread { () throws -> [AttackSocket] in
                try (0..<200).map { _ in
                    let socket = try AttackSocket(path: path)
                    socket.send("GET /v1/events HTTP/1.1\r\nHost: m\r\n\r\n")
                    return socket
                }
            }
            var streaming = 0
            try await Poll.until("the 200 event streams to be fed", lastSeen: { "\(streaming) streams" }) {
                streaming = await target.server.census().streams
                return streaming == 200 ? true : nil
            }
            // Asked while all 200 streams are open.
            let answered = try await AttackSocket.onThread { try AttackSocket.answered(of: path, count: 50) }
            // Still answering, not wedged (FlyingFox took seconds). The 50 ms goal is measured, in release and pinned,
            // by Scripts/control-attack.sh ("event streams").
            #expect(answered == 50)
            _ = try target.registry.apply(spec: "return(5)", to: "t.count", source: "test")
            let heard = try await AttackSocket.onThread { () -> Int in
                streams.prefix(10).count { socket in
                    String(decoding: socket.receive(until: "return(5)").bytes, as: UTF8.self).contains("return(5)")
                }
            }
            #expect(heard == 10, "only \(heard) of 10 streams told of return(5) within a minute each")
            withExtendedLifetime(streams) {}
        }
    }

    @Test func aClientThatAsksBeforeSendingItsBodyIsToldToContinue() async throws {
        try await withTarget { target in
            let path = target.socketPath
            let body = "return(7)" + String(repeating: " ", count: 2_000)
            let (interim, final) = try await AttackSocket.onThread { () throws -> (String, Int?) in
                let socket = try AttackSocket(path: path)
                socket.send(
                    "PUT /v1/seams/t.count HTTP/1.1\r\nContent-Type: text/plain\r\nExpect: 100-continue\r\nConnection: close\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n")
                let interim = String(decoding: socket.receive(until: "\r\n\r\n").bytes, as: UTF8.self)
                socket.send(body)
                return (interim, AttackSocket.status(socket.receive().bytes))
            }
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            #expect(final == 200)
            #expect(target.count() == 7)
        }
    }

    /// An advance the target's tasks never serve (it would end in an hour) is answered 503 at the advance deadline.
    @Test func anAdvanceTheTargetsTasksNeverServeIs503() async throws {
        try await withTarget(configure: { options in
            Self.short(&options)
            options.advance = { _ in
                try? await Task.sleep(for: Self.hour)
                return true
            }
        }) { target in
            let body = Array("{\"seconds\": 60}".utf8)
            let head =
                "POST /v1/time/advance HTTP/1.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            let (status, _) = try await Self.attack(target, Array(head.utf8) + body)
            #expect(status == 503)
        }
    }
}
