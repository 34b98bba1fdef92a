import Foundation
import Mischief
import MischiefControl
import MischiefSystem

// Checks what a build without the Chaos trait promises, as an app's release build sees it. Exits 1 on the first
// promise broken, naming it.

func check(_ condition: Bool, _ promise: String) {
    guard condition else {
        FileHandle.standardError.write(Data("chaos-off: broken: \(promise)\n".utf8))
        exit(1)
    }
    print("chaos-off: ok: \(promise)")
}

func isDisabled(_ body: () throws -> Void) -> Bool {
    do {
        try body()
        return false
    } catch MischiefError.disabled {
        return true
    } catch {
        return false
    }
}

check(!KillSwitch.isChaosCompiledIn, "the build says chaos is compiled out")

let double = Seam<Int, Int, Never>("app.double", title: "Double", category: "App", summary: "x * 2") { $0 * 2 }
let fetch = AsyncSeam<Int, String, any Error>("app.fetch", title: "Fetch", category: "App", summary: "GET") {
    "item \($0)"
}
try Registry.shared.register(double, fetch)  // registering still works, so app code needs no #if

// The script sets MISCHIEF_APPLY='app.double=return(7)': it must be ignored.
check(double(2) == 4, "MISCHIEF_APPLY is ignored")
check(Registry.shared.snapshot().seams.allSatisfy { $0.layers.isEmpty }, "nothing was applied from the environment")

check(isDisabled { try Registry.shared.apply(spec: "return(9)", to: "app.double") }, "a registry refuses a spec")
check(isDisabled { try Registry.shared.apply(double, .constant(9)) }, "a registry refuses a behaviour")
check(double(2) == 4, "the seam calls its original")
check(try await fetch(3) == "item 3", "an async seam calls its original")

let scope = ChaosScope("shipping")
check(isDisabled { try scope.apply(double, .constant(9)) }, "a test scope refuses a change")

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-off-\(getpid())").path
let socket = directory + "/app.sock"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }
do {
    _ = try await ControlServer.serve(name: "app", socketPath: socket)
    check(false, "the control server does not listen")
} catch MischiefError.disabled(let reason) {
    check(!FileManager.default.fileExists(atPath: socket), "the control server does not listen (\(reason))")
}
do {
    try SystemSeams.install([.clock])
    check(false, "system seams refuse to install")
} catch {
    check(error == .compiledOut && SystemSeams.report == nil, "system seams refuse to install (\(error))")
}
print("chaos-off: every promise kept")
