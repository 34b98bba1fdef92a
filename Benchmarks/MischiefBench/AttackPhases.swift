import Foundation
import Mischief
import MischiefControl
import Synchronization

/// Tells attacker threads to stop, and counts them out.
final class AttackSwitch: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = Atomic<Int>(0)

    var isOn: Bool { !stopped.load(ordering: .relaxed) }
    func flip() { stopped.store(true, ordering: .relaxed) }
    func done() { finished.add(1, ordering: .relaxed) }

    func waitForAttackers(_ count: Int) {
        let deadline = ContinuousClock.now + .seconds(30)
        while finished.load(ordering: .relaxed) < count, ContinuousClock.now < deadline { usleep(10_000) }
    }
}

extension AttackBenchmarks {
    /// The attacks, each run by two threads until switched off.
    /// With `pace` > 0, each attacker pauses that many microseconds between requests (an attack rather than a
    /// flood of connections, which costs any server CPU in proportion to its rate).
    static func phases(socket: String, pace: UInt32) -> [(String, @Sendable (AttackSwitch) -> Void)] {
        func repeating(_ bytes: @escaping @Sendable () -> [UInt8], read: Bool = true)
            -> @Sendable (AttackSwitch) -> Void
        {
            { stop in
                while stop.isOn {
                    _ = try? Wire.send(socket, bytes(), thenRead: read)
                    if pace > 0 { usleep(pace) }
                }
                stop.done()
            }
        }
        func holding(
            _ count: Int, _ open: @escaping @Sendable () throws -> Int32, tick: (@Sendable (Int32) -> Void)? = nil
        )
            -> @Sendable (AttackSwitch) -> Void
        {
            { stop in
                var held: [Int32] = []
                while stop.isOn, held.count < count / 2, let fd = try? open() { held.append(fd) }
                while stop.isOn {
                    if let tick { for fd in held { tick(fd) } }
                    usleep(200_000)
                }
                for fd in held { close(fd) }
                stop.done()
            }
        }
        let long: @Sendable (Int) -> [UInt8] = { size in
            Array("GET /v1/target HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: size))\r\n\r\n".utf8)
        }
        let many = Array(
            ("GET /v1/target HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 200_000) + "\r\n").utf8)
        let huge =
            Array("PUT /v1/seams/x HTTP/1.1\r\nContent-Length: 100000000\r\n\r\n".utf8)
            + [UInt8](repeating: 97, count: 65_536)
        return [
            ("header lines 1-100 KB", repeating { long([1_000, 10_000, 30_000, 100_000].randomElement()!) }),
            ("200k headers", repeating { many }),
            ("100 MB body, partial, close", repeating({ huge }, read: false)),
            (
                "garbage request lines",
                repeating { (0..<512).map { _ in UInt8.random(in: 0...255) } + [13, 10, 13, 10] }
            ),
            (
                "slowloris x 500",
                holding(
                    500, { try Wire.open(socket, "GET /v1/target HTTP/1.1\r\n") },
                    tick: { fd in _ = send(fd, "X: y\r\n", 6, Int32(MSG_NOSIGNAL)) })
            ),
            ("1,000 idle connections", holding(1_000, { try Wire.open(socket, "") })),
            (
                "200 event streams",
                holding(
                    200, { try Wire.open(socket, "GET /v1/events HTTP/1.1\r\nHost: m\r\n\r\n") },
                    tick: { fd in Wire.drain(fd) })
            ),
        ]
    }

    /// Holds connections until the target runs out of descriptors, then closes them all and times how long until
    /// a plain request is answered again.
    static func exhaustAndRecover(socket: String) throws -> (held: Int, refused: Bool, ms: Double) {
        var held: [Int32] = []
        while held.count < 2_000, let fd = try? Wire.open(socket, "") { held.append(fd) }
        usleep(500_000)
        let probe = "GET /v1/target HTTP/1.1\r\nConnection: close\r\n\r\n"
        let refused = (try? Wire.exchange(socket, probe).hasPrefix("HTTP/1.1 200")) != true
        for fd in held { close(fd) }
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(10) {
            if (try? Wire.exchange(socket, probe).hasPrefix("HTTP/1.1 200")) == true {
                break
            }
            usleep(5_000)
        }
        return (held.count, refused, (ContinuousClock.now - start).seconds * 1000)
    }
}
