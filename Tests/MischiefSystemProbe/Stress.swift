import CMischiefRebind
import Foundation
import Mischief
import MischiefSystem
import Synchronization
import SystemClockCallers

/// `--stress N`: see main.swift.
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

    /// Runs the stress; returns the number of failures.
    static func run(rounds: Int) -> Int32 {
        let before = slots()
        let registry = Registry(sessionSeed: 2)
        let stop = Atomic(false)
        let odd = Atomic(0)
        let readings = Atomic(0)
        let threads = (0..<8).map { index in
            Thread {
                while !stop.load(ordering: .relaxed) {
                    let real = RealClock.seconds()
                    let reading: Double =
                        switch index % 4 {
                        case 0: ThirdParty.date()
                        case 1: ThirdParty.time()
                        case 2: ThirdParty.timeOfDay()
                        default: ThirdParty.realtime()
                        }
                    // Real, a day later, or frozen at 2030-01-01: whatever the seam was at that moment.
                    let plausible = [real, real + 86_400, 1_893_456_000].contains { abs(reading - $0) < 5 }
                    if !plausible { odd.add(1, ordering: .relaxed) }
                    readings.add(1, ordering: .relaxed)
                }
            }
        }
        threads.forEach { $0.start() }
        var failures: Int32 = 0
        for round in 0..<rounds {
            do {
                if round % 10 == 0 { try SystemSeams.install([.clock], in: registry) }
                try registry.apply(
                    spec: round % 3 == 0 ? "freeze(2030-01-01T00:00:00Z)" : "shift(+1d)", to: "system.clock")
                registry.revert(seam: "system.clock")
                if round % 10 == 9 { SystemSeams.uninstall() }
            } catch {
                print("FAIL round \(round): \(error)")
                failures += 1
                break
            }
        }
        SystemSeams.uninstall()
        stop.store(true, ordering: .relaxed)
        while threads.contains(where: { !$0.isFinished }) { usleep(1_000) }
        let after = slots()
        print("stress: \(rounds) rounds, \(readings.load(ordering: .relaxed)) readings on 8 threads")
        if odd.load(ordering: .relaxed) != 0 {
            print("FAIL \(odd.load(ordering: .relaxed)) readings were neither real, a day later nor frozen")
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
        if !settled || before.isEmpty || before.count != after.count {
            print("FAIL the slots did not end as they began: \(before.count) before, \(after.count) after")
            for (key, values) in before where after[key] != values {
                print(
                    "  \(key): \(values.map { String($0, radix: 16) }) → \(after[key].map { $0.map { String($0, radix: 16) } } ?? [])"
                )
            }
            failures += 1
        } else {
            print(
                "ok every one of \(before.values.reduce(0) { $0 + $1.count }) slots holds what it held before, or the"
                    + " real function the dynamic linker bound it to since")
        }
        return failures
    }
}
