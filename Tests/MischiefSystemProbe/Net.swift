import CMischiefRebind
import Foundation
import Mischief
import MischiefSystem
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--net`: see main.swift. Loopback only: a listener on 127.0.0.1 answers every connection with a tiny HTTP reply,
/// and every name the checks use is `localhost` or one `resolve` makes up.
enum NetProbe {
    nonisolated(unsafe) static var failures: Int32 = 0

    static func check(_ passed: Bool, _ what: String) {
        print(passed ? "ok \(what)" : "FAIL \(what)")
        if !passed { failures += 1 }
    }

    /// The monotonic seconds `body` took.
    static func timed<T>(_ body: () -> T) -> (T, Double) {
        let start = ContinuousClock.now
        let result = body()
        let duration = ContinuousClock.now - start
        return (result, Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// The monotonic seconds `body` took.
    static func timedAsync<T>(_ body: () async -> T) async -> (T, Double) {
        let start = ContinuousClock.now
        let result = await body()
        let duration = ContinuousClock.now - start
        return (result, Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    // MARK: The listener

    /// A loopback listener on an ephemeral port that answers any request with `200 ok` and closes.
    final class Responder: Sendable {
        let fd: Int32
        let port: Int

        init() {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.fd = fd
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    _ = bind(fd, raw, length)
                    _ = listen(fd, 64)
                    _ = getsockname(fd, raw, &length)
                }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
            Thread {
                while true {
                    let client = accept(fd, nil, nil)
                    if client < 0 { continue }
                    Thread {
                        // Read the request head (or the end, from a client that sends nothing), then answer.
                        var request = [UInt8]()
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        var timeout = timeval(tv_sec: 2, tv_usec: 0)
                        setsockopt(
                            client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                        while true {
                            let count = read(client, &buffer, buffer.count)
                            if count <= 0 { break }
                            request += buffer[0..<count]
                            if String(decoding: request, as: UTF8.self).contains("\r\n\r\n") { break }
                        }
                        let reply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                        _ = reply.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                        close(client)
                    }.start()
                }
            }.start()
        }
    }

    // MARK: A plain socket client, as C code written without Mischief would be

    enum Outcome: Equatable, CustomStringConvertible {
        case connected
        case lookupFailed(Int32)
        case connectFailed(Int32)

        var description: String {
            switch self {
            case .connected: "connected"
            case .lookupFailed(let code): "lookup failed: \(String(cString: gai_strerror(code)))"
            case .connectFailed(let code): "connect failed: \(String(cString: strerror(code)))"
            }
        }
    }

    /// getaddrinfo(`host`) for IPv4, then a blocking connect to the first answer (with `SO_SNDTIMEO` when given).
    static func connectByName(_ host: String, port: Int, sendTimeout: Duration? = nil) -> Outcome {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var answer: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &answer)
        guard status == 0, let first = answer else { return .lookupFailed(status) }
        defer { freeaddrinfo(answer) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        defer { close(fd) }
        if let sendTimeout {
            let (seconds, attoseconds) = sendTimeout.components
            var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        return connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 ? .connected : .connectFailed(errno)
    }

    /// A blocking connect to 127.0.0.1:`port`, with no lookup before it.
    static func connectToLoopback(port: Int) -> Outcome {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0 ? .connected : .connectFailed(errno)
    }

    /// A non-blocking connect to 127.0.0.1:`port`: what connect said, and whether the socket became writable within
    /// `wait`, and its SO_ERROR then.
    static func connectWithoutBlocking(port: Int, wait: Duration) -> (Int32, writable: Bool, error: Int32) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let said = result == 0 ? 0 : errno
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&poller, 1, milliseconds)
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        return (said, ready > 0 && poller.revents & Int16(POLLOUT) != 0, error)
    }

    /// A connect to a Unix socket listening at a path of its own: whether it connected.
    static func connectUnix() -> Bool {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("net-probe-\(getpid()).sock").path
        unlink(path)
        defer { unlink(path) }
        func address() -> sockaddr_un {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                let bytes = Array(path.utf8.prefix(buffer.count - 1))
                buffer.copyBytes(from: bytes)
                buffer[bytes.count] = 0
            }
            return address
        }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var listening = address()
        _ = withUnsafePointer(to: &listening) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        listen(listener, 4)
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var connecting = address()
        return withUnsafePointer(to: &connecting) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        } == 0
    }

    // MARK: URLSession

    /// GET `url` through `session`: the status, or the URLError's code.
    static func fetch(_ url: String, _ session: URLSession) async -> String {
        do {
            let (data, response) = try await session.data(from: URL(string: url)!)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return "\(status) \(String(decoding: data, as: UTF8.self))"
        } catch let error as URLError {
            return "URLError \(error.code.rawValue)"
        } catch {
            return "error \(error)"
        }
    }

    static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        return URLSession(configuration: configuration)
    }

    // MARK: Slots

    /// The getaddrinfo and connect slots of the executable, Foundation's libraries and libcurl, with what each holds.
    static func slots() -> [String: [UInt]] {
        Stress.slots(
            of: ["getaddrinfo", "connect", "clock_gettime", "gettimeofday", "time"], in: ["libFoundation", "libcurl"])
    }

    // MARK: The checks

    static func run() async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let responder = Responder()
        let port = responder.port
        let before = slots()
        let registry = Registry(sessionSeed: 3)
        let report: SystemSeamsReport
        do {
            report = try SystemSeams.install([.clock, .net], in: registry)
        } catch {
            print("FAIL install: \(error)")
            return 1
        }
        print("report: \(report)")
        let net = report.libraries.filter { $0.family == .net && $0.rebound > 0 }
        check(net.contains { $0.name.hasPrefix("libcurl.so") }, "libcurl is rebound for system.net")
        check(net.contains { $0.name == "(executable)" }, "the executable is rebound for system.net")
        check(
            report.libraries.contains { $0.family == .clock && $0.rebound > 0 }, "system.clock is installed with it")
        check(registry.snapshot().seams.contains { $0.id == SystemSeams.netID }, "system.net is registered")

        func apply(_ spec: String) {
            do {
                try registry.apply(spec: spec, to: SystemSeams.netID)
            } catch {
                check(false, "apply \(spec): \(error)")
            }
        }

        // Plain sockets.
        check(connectByName("localhost", port: port) == .connected, "installed, nothing applied: localhost connects")
        check(connectUnix(), "installed, nothing applied: a Unix socket connects")

        apply(#"dns(host: "localhost")"#)
        let lookup = connectByName("localhost", port: port)
        check(lookup == .lookupFailed(EAI_NONAME), "dns(host: \"localhost\"): \(lookup)")
        check(connectUnix(), "dns: a Unix socket connects")
        registry.revert(seam: SystemSeams.netID)

        apply(#"refused(host: "localhost")"#)
        let refused = connectByName("localhost", port: port)
        check(refused == .connectFailed(ECONNREFUSED), "refused(host: \"localhost\"): \(refused)")
        check(connectUnix(), "refused: a Unix socket connects")
        registry.revert(seam: SystemSeams.netID)

        apply(#"refused(host: "localhost", port: 1)"#)
        let otherPort = connectByName("localhost", port: port)
        check(otherPort == .connected, "refused(host: \"localhost\", port: 1) leaves port \(port) alone: \(otherPort)")
        registry.revert(seam: SystemSeams.netID)

        apply(#"hang(host: "localhost")"#)
        let (hung, took) = timed { connectByName("localhost", port: port, sendTimeout: .milliseconds(300)) }
        check(
            hung == .connectFailed(ETIMEDOUT) && took >= 0.29 && took < 5,
            "hang: a blocking connect with SO_SNDTIMEO 300 ms: \(hung) after \(took) s")
        let (said, writable, soError) = connectWithoutBlocking(port: port, wait: .milliseconds(300))
        check(
            said == EINPROGRESS && !writable,
            "hang: a non-blocking connect says \(String(cString: strerror(said))) and is writable within 300 ms: "
                + "\(writable) (SO_ERROR \(soError))")
        check(connectUnix(), "hang: a Unix socket connects")
        registry.revert(seam: SystemSeams.netID)

        apply("latency(by: 200ms)")
        let (slow, slowTook) = timed { connectByName("localhost", port: port) }
        check(slow == .connected && slowTook >= 0.19, "latency(by: 200ms): \(slow) after \(slowTook) s")
        registry.revert(seam: SystemSeams.netID)

        let (fast, fastTook) = timed { connectByName("localhost", port: port) }
        check(fast == .connected && fastTook < 0.19, "reverted: \(fast) after \(fastTook) s")

        check(
            connectByName("example.invalid", port: port) != .connected, "example.invalid is not found without resolve")
        apply(#"resolve(host: "example.invalid", to: "127.0.0.1")"#)
        let resolved = connectByName("example.invalid", port: port)
        check(resolved == .connected, "resolve(host: \"example.invalid\", to: \"127.0.0.1\"): \(resolved)")
        registry.revert(seam: SystemSeams.netID)

        apply("30% refused")
        var refusals = 0
        for _ in 0..<40 where connectByName("localhost", port: port) != .connected { refusals += 1 }
        check(refusals > 0 && refusals < 40, "30% refused: \(refusals) of 40 connects refused")
        registry.revert(seam: SystemSeams.netID)
        // `n*` counts every call that reaches the rule: connects here, as no lookup comes before them.
        apply("2*refused")
        let firstThree = (0..<3).map { _ in connectToLoopback(port: port) }
        check(
            firstThree == [.connectFailed(ECONNREFUSED), .connectFailed(ECONNREFUSED), .connected],
            "2*refused: \(firstThree)")
        let counters = registry.counters(SystemSeams.netID)
        check(
            (counters?.chaosCalls ?? 0) >= 2 && (counters?.errors ?? 0) >= 2,
            "system.net counts the calls its rules took, and their failures: \(String(describing: counters))")
        let events = registry.events().map(\.message).filter {
            $0.contains("by 2*refused") || $0.contains("by refused")
        }
        check(!events.isEmpty, "system.net logs what its rules did: \(events.last ?? "nothing")")
        registry.revert(seam: SystemSeams.netID)

        check(connectByName("localhost", port: port) == .connected, "reverted: localhost connects")

        // URLSession, through libcurl.
        let base = "http://localhost:\(port)/"
        let made = "http://probe.invalid:\(port)/"
        let first = session()
        check(await fetch(base, first) == "200 ok", "URLSession: localhost answers 200")
        apply(#"refused(host: "localhost")"#)
        let refusedFetch = await fetch(base, first)
        check(
            refusedFetch == "URLError \(URLError.cannotConnectToHost.rawValue)",
            "URLSession: refused(host: \"localhost\") fails: \(refusedFetch)")
        registry.revert(seam: SystemSeams.netID)
        check(await fetch(base, first) == "200 ok", "URLSession: reverted, 200 again")

        apply(#"dns(host: "localhost")"#)
        let localDNS = await fetch(base, session())
        print(
            "observed URLSession: dns(host: \"localhost\") on a new session gives \(localDNS) "
                + "(libcurl 7.78 and later resolve localhost themselves, without getaddrinfo)")
        registry.revert(seam: SystemSeams.netID)

        apply(#"resolve(host: "probe.invalid", to: "127.0.0.1")"#)
        let resolvedFetch = await fetch(made, first)
        check(resolvedFetch == "200 ok", "URLSession: resolve(host: \"probe.invalid\") reaches the listener")
        apply(#"dns(host: "probe.invalid") -> resolve(host: "probe.invalid", to: "127.0.0.1")"#)
        let cached = await fetch(made, first)
        print(
            "observed URLSession: the same session after dns(host: \"probe.invalid\") gives \(cached) (libcurl's DNS cache)"
        )
        let fresh = await fetch(made, session())
        check(
            fresh == "URLError \(URLError.cannotFindHost.rawValue)",
            "URLSession: dns(host: \"probe.invalid\") fails a new session's request: \(fresh)")
        registry.revert(seam: SystemSeams.netID)
        apply(#"refused(host: "probe.invalid")"#)
        let refusedMade = await fetch(made, first)
        check(
            refusedMade == "URLError \(URLError.cannotConnectToHost.rawValue)",
            "URLSession: refused(host: \"probe.invalid\") matches the address libcurl looked up: \(refusedMade)")
        registry.revert(seam: SystemSeams.netID)
        check(await fetch(base, session()) == "200 ok", "URLSession: reverted, 200 again")

        apply(#"hang(host: "localhost")"#)
        let impatient = URLSessionConfiguration.ephemeral
        impatient.timeoutIntervalForRequest = 1
        let (hungFetch, hungTook) = await timedAsync { await fetch(base, URLSession(configuration: impatient)) }
        check(
            hungFetch == "URLError \(URLError.timedOut.rawValue)" && hungTook >= 0.9,
            "URLSession: hang(host: \"localhost\") times out at the request's timeout of 1 s: \(hungFetch) after "
                + "\(hungTook) s")
        registry.revert(seam: SystemSeams.netID)

        let restored = SystemSeams.uninstall()
        let rebound = report.libraries.reduce(0) { $0 + $1.rebound }
        check(restored == rebound, "uninstall restored \(restored) slots of the \(rebound) rebound")
        check(!registry.snapshot().seams.contains { $0.id == SystemSeams.netID }, "system.net is unregistered")
        let after = slots()
        func real(_ key: String) -> UInt {
            UInt(bitPattern: dlsym(nil, String(key.split(separator: ":").last ?? "")))
        }
        let settled =
            !before.isEmpty && before.count == after.count
            && after.allSatisfy { key, values in
                guard let earlier = before[key], earlier.count == values.count else { return false }
                return zip(earlier, values).allSatisfy { $0 == $1 || $1 == real(key) }
            }
        check(
            settled,
            "every one of \(before.values.reduce(0) { $0 + $1.count }) slots holds what it held before, or the real "
                + "function the dynamic linker bound it to since")
        check(connectByName("localhost", port: port) == .connected, "uninstalled: localhost connects")
        check(await fetch(base, session()) == "200 ok", "uninstalled: URLSession gets 200")
        print("failures: \(failures)")
        return failures
    }
}
