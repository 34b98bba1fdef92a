import Foundation
import Mischief
import MischiefConsole

/// The target the runner suites drive: a registry with one seam, `test.answer` (42), and a local controller over it
/// that saves profiles in a directory of its own.
struct RunnerTarget {
    let registry = Registry(sessionSeed: 3)
    let answer = Seam<Void, Int, Never>(
        "test.answer", title: "The answer", category: "Test", summary: "What the target computes"
    ) { 42 }
    let controller: LocalController

    /// - Parameter refresh: How often the controller looks at counts and times when nothing else changed.
    init(name: String, refresh: Duration = .milliseconds(20)) throws {
        try registry.register(answer)
        controller = LocalController(
            registry: registry, name: name,
            saveDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID())"),
            refresh: refresh)
    }
}
