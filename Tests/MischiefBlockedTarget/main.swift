// `mischief-blocked-target --socket PATH --seed N [--system]`: the demo target, serving its control socket with no
// console, whose tasks then block every thread of Swift's cooperative pool for good (a deadlock, a synchronous wait:
// when people attach). The end-to-end tests attach to it to show the control API keeps answering. `--system`: it
// installs the system seams in its registry before the server starts, as an application does (the control server
// installs none). A test tool, not part of the shipping
// `mischief`; only SIGKILL ends it.
import Foundation
import Mischief
import MischiefCatalog
import MischiefControl
import MischiefDemo
import MischiefSystem

var arguments = CommandLine.arguments.dropFirst()
var socket: String?
var seed: UInt64 = 11
var system = false
while let argument = arguments.popFirst() {
    if argument == "--system" {
        system = true
        continue
    }
    switch (argument, arguments.popFirst()) {
    case ("--socket", let path?): socket = path
    case ("--seed", let value?) where UInt64(value) != nil: seed = UInt64(value)!
    default:
        FileHandle.standardError.write(
            Data("usage: mischief-blocked-target [--socket PATH] [--seed N] [--system]\n".utf8))
        exit(2)
    }
}

let registry = Registry(sessionSeed: seed)
let clock = ChaosClock.shared
let demo = try DemoTarget(registry: registry, clock: clock)
try demo.definePresets()
var options = ControlServer.Options(name: "demo", socketPath: socket)
options.targetTime = { clock.peekDate() }
options.advance = { await clock.advance(by: $0) }
if system {
    do {
        let report = try SystemSeams.install([.clock, .net], in: registry)
        registry.report(seam: nil, message: "system seams: \(report)")
    } catch {
        registry.report(seam: nil, message: "\(error); serving without them")
    }
}
let server = ControlServer(registry: registry, options: options)
try await server.start()
_ = Task { await demo.run() }
demo.publish()
print(server.socketPath)
fflush(nil)
PoolBlocker.blockEveryThread()
while true { sleep(3_600) }
