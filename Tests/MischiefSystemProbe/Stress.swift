import CMischiefRebind
import Dispatch
import Foundation
import Mischief
import MischiefSystem
import Synchronization
import SystemClockCallers

#if canImport(Glibc)
    import Glibc
#endif

/// `--stress N [--install-every K]`: see main.swift. One round is: install both families (every K-th round, the first
/// of K; K is 10 unless given), apply a clock action and a network action, check on this thread that both took, revert
/// both, and uninstall (every K-th round, the last of K). So `--stress 10000` is 10,000 rounds: 20,000 applies, 20,000
/// reverts, 1,000 installs and 1,000 uninstalls, while eight threads read the clock and make network calls (their own
/// and libraries': libcurl's connect, Foundation's getaddrinfo) to a loopback listener.
enum Stress {
    /// The slots of `symbols` in the executable and the libraries whose paths contain one of `libraries`, with what
    /// each holds.
    static func slots(
        of symbols: [String] = ["clock_gettime", "gettimeofday", "time"], in libraries: [String] = ["libFoundation"]
    ) -> [String: [UInt]] {
        var found: [String: [UInt]] = [:]
        for path in loadedPaths() where path.isEmpty || libraries.contains(where: path.contains) {
            for symbol in symbols {
                var addresses = [UnsafeMutableRawPointer?](repeating: nil, count: 16)
                let count = Int(mischief_rebind_slots_of(path, symbol, &addresses, 16))
                guard count > 0 else { continue }
                found["\(path):\(symbol)"] = addresses.prefix(min(count, 16)).map { address in
                    UInt(bitPattern: address?.load(as: UnsafeRawPointer?.self))
                }
            }
        }
        return found
    }

    /// The paths of the loaded objects ("" for the executable).
    static func loadedPaths() -> [String] {
        final class Paths { var all: [String] = [] }
        let paths = Paths()
        let calls = [mischief_rebinding(symbol: "time", replacement: nil, original: nil)]
        calls.withUnsafeBufferPointer { buffer in
            mischief_rebind_coverage(
                buffer.baseAddress, 1,
                { path, _, _, _, context in
                    Unmanaged<Paths>.fromOpaque(context!).takeUnretainedValue().all.append(
                        path.map { String(cString: $0) } ?? "")
                }, Unmanaged.passUnretained(paths).toOpaque())
        }
        return paths.all
    }

    /// A loopback listener on an ephemeral port of 127.0.0.1 that accepts every connection and resets it at once
    /// (`SO_LINGER` 0, so tens of thousands of connections leave no `TIME_WAIT` behind).
    static func listen() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(fd, raw, length)
                _ = Glibc.listen(fd, 4096)
                _ = getsockname(fd, raw, &length)
            }
        }
        Thread {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { continue }
                setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                close(client)
            }
        }.start()
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The ways the readers reach the network: the probe's own code (getaddrinfo then connect, or connect to an
    /// address), libcurl's connect, and Foundation's getaddrinfo (`Host`).
    enum Way: Int, CaseIterable {
        case byName, byAddress, curl, foundationLookup

        var name: String { ["getaddrinfo+connect", "connect", "libcurl connect", "Foundation lookup"][rawValue] }
    }

    /// The calling thread's kernel id (`gettid`, which Swift's Glibc does not declare), from `/proc/thread-self`,
    /// a link to `PID/task/TID`; 0 (the process) when it cannot be read.
    static func threadID() -> id_t {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return 0 }
        let link = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return id_t(link.split(separator: "/").last.flatMap { UInt32($0) } ?? 0)
    }

    /// What the readers saw, counted.
    final class Tally: Sendable {
        let readings = Atomic(0)
        let shifted = Atomic(0)
        let oddReadings = Atomic(0)
        /// Per ``Way``: the calls made, and those the seam failed. `Locked`, which ThreadSanitizer sees (a network
        /// call costs far more than the lock).
        let calls = Locked([Int](repeating: 0, count: Way.allCases.count))
        let failedBySeam = Locked([Int](repeating: 0, count: Way.allCases.count))
        let oddCalls = Atomic(0)
        let lastOdd = Locked("")
    }

    /// One network call the `way` given: nil when it succeeded, true when it failed as `refused(port:)` or
    /// `dns(host: "localhost")` make it fail, false for any other failure (with what it was in `odd`).
    static func call(_ way: Way, port: Int, odd: inout String) -> Bool? {
        switch way {
        case .byName, .byAddress:
            let outcome =
                way == .byName
                ? NetProbe.connectByName("localhost", port: port) : NetProbe.connectToLoopback(port: port)
            switch outcome {
            // The listener resets every connection it accepts: on loopback that can reach the client before its
            // connect returns. Either way the connection was made.
            case .connected, .connectFailed(ECONNRESET): return nil
            case .connectFailed(ECONNREFUSED), .lookupFailed(EAI_NONAME): return true
            default:
                odd = "\(way.name): \(outcome)"
                return false
            }
        case .curl:
            let code = LibraryCalls.curlConnect(port: port)
            if code == 0 { return nil }
            if code == 7 { return true }  // CURLE_COULDNT_CONNECT: refused (or reset before libcurl looked)
            odd = "libcurl: CURLcode \(code)"
            return false
        case .foundationLookup:
            return LibraryCalls.foundationResolves("localhost") ? nil : true
        }
    }

    /// One reader: reads the clock eight times through code written without Mischief, then makes one network call,
    /// each in turn of the ``Way``s, until `stop`.
    static func read(index: Int, port: Int, stop: borrowing Atomic<Bool>, tally: Tally) {
        var round = 0
        while !stop.load(ordering: .relaxed) {
            for _ in 0..<8 {
                let real = RealClock.seconds()
                let reading: Double =
                    switch index % 4 {
                    case 0: ThirdParty.date()
                    case 1: ThirdParty.time()
                    case 2: ThirdParty.timeOfDay()
                    default: ThirdParty.realtime()
                    }
                // Real, a day later, or frozen at 2030-01-01: whatever the seam was at that moment.
                if abs(reading - real) >= 5 { tally.shifted.add(1, ordering: .relaxed) }
                // No array literal here: in a debug build each one takes the runtime's metadata lock, and eight
                // threads allocating at once queue on it instead of racing the seams.
                if abs(reading - real) >= 5 && abs(reading - real - 86_400) >= 5 && abs(reading - 1_893_456_000) >= 5 {
                    tally.oddReadings.add(1, ordering: .relaxed)
                }
                tally.readings.add(1, ordering: .relaxed)
            }
            round += 1
            let way = Way.allCases[(index + round) % Way.allCases.count]
            var odd = ""
            let failed = call(way, port: port, odd: &odd)
            tally.calls.withLock { $0[way.rawValue] += 1 }
            switch failed {
            case nil: break
            case true?: tally.failedBySeam.withLock { $0[way.rawValue] += 1 }
            case false?:
                tally.oddCalls.add(1, ordering: .relaxed)
                tally.lastOdd.withLock { $0 = odd }
            }
        }
    }

    /// Runs the stress: `rounds` rounds, installing both families every `installEvery` of them; returns the number
    /// of failures.
    static func run(rounds: Int, installEvery: Int = 10) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let port = listen()
        guard LibraryCalls.prepare() else {
            print("FAIL libcurl is not loaded (FoundationNetworking loads it)")
            return 1
        }
        let symbols = ["clock_gettime", "gettimeofday", "time", "getaddrinfo", "connect"]
        let libraries = ["libFoundation", "libcurl"]
        let before = slots(of: symbols, in: libraries)
        let registry = Registry(sessionSeed: 2)
        let stop = Atomic(false)
        let tally = Tally()
        let finished = DispatchGroup()
        let threads = (0..<8).map { index in
            finished.enter()
            return Thread {
                // The readers run niced (this thread only: Linux takes a thread id here): eight of them still keep
                // both cores busy, and the main thread's rounds are not starved (2,000 rounds under TSan on a loaded
                // machine: 21-26 s niced, 31-61 s not).
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), threadID(), 5)
                read(index: index, port: port, stop: stop, tally: tally)
                finished.leave()
            }
        }
        threads.forEach { $0.start() }
        var failures: Int32 = 0
        var wrong: [String] = []
        var executableConnects = false
        let start = ContinuousClock.now
        for round in 0..<rounds {
            do {
                if round % installEvery == 0 {
                    let report = try SystemSeams.install([.clock, .net], in: registry)
                    executableConnects = report.rebound.contains { $0.path.isEmpty && $0.family == .net }
                }
                let frozen = round % 3 == 0
                try registry.apply(
                    spec: frozen ? "freeze(2030-01-01T00:00:00Z)" : "shift(+1d)", to: SystemSeams.clockID)
                let refuse = round % 2 == 0
                try registry.apply(
                    spec: refuse ? "refused(port: \(port))" : #"dns(host: "localhost")"#, to: SystemSeams.netID)
                // This thread alone changes the seams, so what it sees now is exact: through libraries always, and
                // through its own calls when the executable is rebound (not under ThreadSanitizer: see LibraryCalls).
                let reading = ThirdParty.date()
                let expected = frozen ? 1_893_456_000 : RealClock.seconds() + 86_400
                let library =
                    refuse ? LibraryCalls.curlConnect(port: port) == 7 : !LibraryCalls.foundationResolves("localhost")
                let own =
                    !executableConnects
                    || (refuse
                        ? NetProbe.connectToLoopback(port: port) == .connectFailed(ECONNREFUSED)
                        : NetProbe.connectByName("localhost", port: port) == .lookupFailed(EAI_NONAME))
                if abs(reading - expected) >= 5 || !library || !own {
                    wrong.append(
                        "round \(round): Date() \(reading) for \(expected); \(refuse ? "refused" : "dns"): through a"
                            + " library \(library ? "as applied" : "not"), through the probe's own call"
                            + " \(own ? "as applied" : "not")")
                }
                registry.revert(seam: SystemSeams.clockID)
                registry.revert(seam: SystemSeams.netID)
                if round % installEvery == installEvery - 1 { SystemSeams.uninstall() }
            } catch {
                print("FAIL round \(round): \(error)")
                failures += 1
                break
            }
        }
        SystemSeams.uninstall()
        let took = ContinuousClock.now - start
        stop.store(true, ordering: .relaxed)
        if finished.wait(timeout: .now() + .seconds(60)) == .timedOut {
            print("FAIL the readers did not stop within 60 s of being told to")
            return failures + 1
        }
        let after = slots(of: symbols, in: libraries)
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        print(
            "stress: \(rounds) rounds (\(2 * rounds) applies, \(2 * rounds) reverts, \((rounds + installEvery - 1) / installEvery) installs"
                + " and uninstalls of system.clock and system.net) in \(String(format: "%.1f", seconds)) s; 8 threads"
                + " made \(tally.readings.load(ordering: .relaxed)) clock readings"
                + " (\(tally.shifted.load(ordering: .relaxed)) changed by the seam);"
                + Way.allCases.map { way in
                    " \(tally.calls.withLock { $0[way.rawValue] }) \(way.name)"
                        + " (\(tally.failedBySeam.withLock { $0[way.rawValue] }) failed by the seam)"
                }.joined(separator: ",") + "; the executable's own network calls rebound: \(executableConnects)")
        if !wrong.isEmpty {
            print("FAIL \(wrong.count) rounds did not see what they applied, first: \(wrong[0])")
            failures += 1
        }
        if tally.oddReadings.load(ordering: .relaxed) != 0 {
            print(
                "FAIL \(tally.oddReadings.load(ordering: .relaxed)) readings were neither real, a day later nor frozen")
            failures += 1
        }
        if tally.oddCalls.load(ordering: .relaxed) != 0 {
            print(
                "FAIL \(tally.oddCalls.load(ordering: .relaxed)) network calls were neither answered, refused nor not"
                    + " found, last: \(tally.lastOdd.withLock { $0 })")
            failures += 1
        }
        // A lazily bound slot may have been bound by the dynamic linker while uninstalled (a thread called through
        // its PLT stub): it then holds the real function, which an install after that kept as its value before.
        func real(_ key: String) -> UInt {
            let symbol = String(key.split(separator: ":").last ?? "")
            return UInt(bitPattern: dlsym(nil, symbol))
        }
        let settled = after.allSatisfy { key, values in
            guard let earlier = before[key], earlier.count == values.count else { return false }
            return zip(earlier, values).allSatisfy { $0 == $1 || $1 == real(key) }
        }
        let families = Set(before.keys.compactMap { $0.split(separator: ":").last })
        if !settled || before.count != after.count || families.count != symbols.count {
            print(
                "FAIL the slots did not end as they began: \(before.count) before, \(after.count) after, of"
                    + " \(families.sorted())")
            for (key, values) in before where after[key] != values {
                print(
                    "  \(key): \(values.map { String($0, radix: 16) }) → \(after[key].map { $0.map { String($0, radix: 16) } } ?? [])"
                )
            }
            failures += 1
        } else {
            let changed = before.filter { after[$0.key] != $0.value }.count
            print(
                "ok every one of \(before.values.reduce(0) { $0 + $1.count }) slots of \(families.sorted()) holds what"
                    + " it held before (\(changed) lazily bound ones hold the real function the dynamic linker bound"
                    + " them to since)")
        }
        return failures
    }
}
