import Foundation
import Mischief
import MischiefControl

/// `mischief-bench --attack-target SOCKET`: a tight-loop target for the attack benchmark. It serves the control API
/// on `SOCKET` and calls one seam on its main thread for ever (counted, so the attacker reads the call rate from
/// `GET /v1/seams/bench.attack.calls`). `Scripts/control-attack.sh` pins it to one core under a low `ulimit -n`. `cpuShare` overrides the server's
/// ``ControlServer/Limits/cpuShare`` (1: unbounded, to compare).
enum AttackTarget {
    static let seamID: SeamID = "bench.attack.calls"

    static func run(socket: String, cpuShare: Double? = nil) throws -> Never {
        let registry = Registry(sessionSeed: 3)
        let seam = Seam<Int, Int, Never>(seamID, title: "Calls", category: "Bench", summary: "x + 1") {
            trivial($0)
        }
        try registry.register(seam)
        var options = ControlServer.Options(name: "attack-target", socketPath: socket)
        options.countsWhileServing = true
        if let cpuShare { options.limits.cpuShare = cpuShare }
        let server = ControlServer(registry: registry, options: options)
        try server.startInBackground()
        print(server.socketPath)
        fflush(nil)
        var sum = 0
        while true {
            for index in 0..<100_000 { sum &+= seam(index) }
            blackhole(sum)
        }
    }
}
