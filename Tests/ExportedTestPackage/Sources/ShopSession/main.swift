import Foundation
import Mischief
import Shop

// A session found in the console, as `MISCHIEF_RECORD` records it: three good answers, then a failure, then the
// clock a day on, then a flaky price for the rest. Writes the recording, with every chaos call's decision, to the
// path given.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: ShopSession RECORDING.jsonl\n".utf8))
    exit(64)
}
let registry = Registry(sessionSeed: 2061)
try Shop.registerSeams(in: registry)
let recorder = try registry.startRecording(toFile: CommandLine.arguments[1], target: "shop", decisions: 10_000)
_ = Shop.checkout(items: 3)
let failure = try registry.apply(spec: #"throw("price service down")"#, to: "shop.price", source: "console")
_ = Shop.checkout(items: 1)
registry.revert(failure)
try registry.apply(spec: "shift(+1d)", to: "shop.clock", source: "console")
_ = Shop.checkout(items: 2)
try registry.apply(spec: "30%return(1)", to: "shop.price", source: "console")
_ = Shop.checkout(items: 6)
recorder.stop()
print("recorded \(recorder.recording.entries.count) events and \(recorder.recording.decisions.count) decisions")
