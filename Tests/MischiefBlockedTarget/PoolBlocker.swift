import Foundation
import Synchronization

/// Blocks every thread of Swift's cooperative pool for good, as a
/// deadlocked target would, and says so on standard error once they all are. Only SIGKILL ends such a demo.
enum PoolBlocker {
    private static let started = Atomic<Int>(0)

    static func blockEveryThread() {
        let width = ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<width {
            Task.detached {
                if started.add(1, ordering: .relaxed).newValue == width {
                    FileHandle.standardError.write(
                        Data("mischief-blocked-target: all \(width) task-pool threads are blocked\n".utf8))
                }
                DispatchSemaphore(value: 0).wait()
            }
        }
    }
}
