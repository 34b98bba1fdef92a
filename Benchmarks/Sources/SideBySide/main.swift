// Mischief's per-call costs, stacked layers and control socket, side by side with `Date()`, a direct call,
// swift-dependencies' `@Dependency(\.date.now)` and libfaketime, measured in one run, interleaved, as ratios.
//
//     Benchmarks/run.sh                         # builds in release, prints the table (and instruction counts)
//
// Options come from the environment, not the command line: under libfaketime `CommandLine.arguments` is empty.
//     SIDE_BY_SIDE_MODE=table (default) | call | date-loop
//     SIDE_BY_SIDE_CASE=<case id>              (mode call: the case to run, for valgrind)
//     SIDE_BY_SIDE_CALLS=<n>                   (calls per measurement; default 2,000,000)
//     SIDE_BY_SIDE_ROUNDS=<n>                  (interleaved rounds; the median is reported; default 9)
//     SIDE_BY_SIDE_FAKETIME=<path>             (libfaketime.so.1; default Debian's)
//     SIDE_BY_SIDE_SECTIONS=<list>             (table sections, comma-separated; default
//                                               per-call,decisions,stacked,control,system,registry; system
//                                               and registry are issue 47's rows: Date() under system.clock;
//                                               applies, merge layers, memory, snapshot)
import Foundation

let environment = ProcessInfo.processInfo.environment
func setting(_ name: String, _ fallback: Int) -> Int { environment[name].flatMap { Int($0) } ?? fallback }

let calls = setting("SIDE_BY_SIDE_CALLS", 2_000_000)
let rounds = setting("SIDE_BY_SIDE_ROUNDS", 9)

switch environment["SIDE_BY_SIDE_MODE"] ?? "table" {
case "call":
    // One case, N calls, nothing printed: valgrind counts the instructions.
    guard let id = environment["SIDE_BY_SIDE_CASE"], let found = PerCall.cases.first(where: { $0.id == id }) else {
        FileHandle.standardError.write(Data("SIDE_BY_SIDE_CASE must name one of: \(PerCall.cases.map(\.id))\n".utf8))
        exit(2)
    }
    try found.setUp()
    found.run(calls)
case "date-loop":
    // The `Date()` loop alone, for a child process under libfaketime; prints the median ns per call.
    let loop = PerCall.cases.first { $0.id == "date.direct" }!
    let samples = (0..<rounds).map { _ in Measure.nanosecondsPerCall(calls) { loop.run($0) } }
    print(Measure.median(samples))
default:
    try Table.run(calls: calls, rounds: rounds)
}
