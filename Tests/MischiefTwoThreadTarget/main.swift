// `MischiefTwoThreadTarget --socket PATH --seed N [--calls N]`: a target whose two threads each call one seam,
// `t.n`, N times (200 by default, ~2 ms apart) once the file `PATH.go` exists, then print `done` and wait to be
// killed. It serves its control socket from its start, so `mischief apply` can change `t.n` while the threads call,
// `mischief record` can save the session, and `mischief replay` can make it again on a fresh run before `go`
// (`ConcurrentReplayEndToEndTests`). A test tool, not part of the shipping `mischief`.
import Foundation
import Mischief
import MischiefControl

var arguments = CommandLine.arguments.dropFirst()
var socket: String?
var seed: UInt64 = 5
var calls = 200
while let argument = arguments.popFirst() {
    switch (argument, arguments.popFirst()) {
    case ("--socket", let path?): socket = path
    case ("--seed", let value?) where UInt64(value) != nil: seed = UInt64(value)!
    case ("--calls", let value?) where Int(value).map({ $0 > 0 }) == true: calls = Int(value)!
    default:
        FileHandle.standardError.write(
            Data("usage: MischiefTwoThreadTarget --socket PATH [--seed N] [--calls N]\n".utf8))
        exit(2)
    }
}
guard let socket else {
    FileHandle.standardError.write(Data("MischiefTwoThreadTarget: --socket PATH is required\n".utf8))
    exit(2)
}

let registry = Registry(sessionSeed: seed)
let seam = Seam<Int, Int, Never>("t.n", title: "Two threads", category: "Test", summary: "two threads call it") {
    $0
}
try registry.register(seam)
let server = ControlServer(registry: registry, options: ControlServer.Options(name: "two-threads", socketPath: socket))
try await server.start()
print(server.socketPath)
fflush(nil)

let go = socket + ".go"
while !FileManager.default.fileExists(atPath: go) { usleep(5_000) }
let done = DispatchGroup()
let each = calls
for _ in 0..<2 {
    done.enter()
    Thread.detachNewThread {
        for value in 0..<each {
            _ = seam(value)
            usleep(2_000)
        }
        done.leave()
    }
}
done.wait()
print("done")
fflush(nil)
while true { sleep(3_600) }
