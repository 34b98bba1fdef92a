import Dispatch
import Foundation
import Mischief

/// A valid recording header, then hostile entries (``HostileRecording``): read with `Recording(jsonLines:)`, made a
/// `ReplaySchedule`, and replayed on a registry with the two seams the header lists while they are called. Reading
/// either succeeds or names a line of the text; nothing traps, and a replay always ends.
let recordingHarness = FuzzHarness(
    name: "recording", summary: "a recording header, then hostile entries: read, scheduled, replayed"
) { bytes in
    let text = HostileRecording(bytes).text
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
    let recording: Recording
    do throws(RecordingError) {
        recording = try Recording(jsonLines: text)
    } catch {
        fuzzCheck(error.line >= 1 && error.line <= lines, "an error at line \(error.line) of \(lines)")
        return
    }
    fuzzCheck(recording.header.target == "fuzz", "the header read back as \(recording.header)")
    do throws(RecordingError) {
        _ = try ReplaySchedule(recording)
    } catch {
        fuzzCheck(error.line >= 1 && error.line <= lines, "a schedule error at line \(error.line) of \(lines)")
    }
    // Written out and read again, the recording is the same.
    do throws(RecordingError) {
        let again = try Recording(jsonLines: recording.jsonLines)
        fuzzCheck(again == recording, "a recording written out reads back different:\n\(recording.jsonLines)")
    } catch {
        fuzzCheck(false, "a recording written out does not read back: \(error)\n\(recording.jsonLines)")
    }
    replayBriefly(recording)
}

/// Replays `recording` on a registry of its own with `f.count` and `f.name`, calling each a few times, and waits
/// for the outcome (a replay whose calls never come ends at its short timeout).
func replayBriefly(_ recording: Recording) {
    let registry = Registry(sessionSeed: 7, clock: ManualRegistryClock(), expiresOnItsOwn: false)
    let count = Seam<Int, Int, any Error>("f.count", title: "Count", category: "Fuzz", summary: "") { $0 }
    let name = Seam<String, String, Never>("f.name", title: "Name", category: "Fuzz", summary: "") { $0 }
    do { try registry.register(count, name) } catch { fuzzCheck(false, "cannot register: \(error)") }
    let options = ReplayOptions(timeout: .milliseconds(20), advance: { _ in true })
    let run: ReplayRun
    do throws(RecordingError) {
        run = registry.startReplay(try ReplaySchedule(recording), options: options)
    } catch {
        // The replay of what no schedule takes diverges at once, without waiting.
        let outcome = waitFor { await registry.replay(recording, options: options) }
        fuzzCheck(!outcome.matched, "a recording no schedule takes replayed as matched")
        return
    }
    for value in 0..<8 {
        _ = try? count(value)
        _ = name("n\(value)")
    }
    let outcome = waitFor { await run.outcome() }
    fuzzCheck(outcome.replayed <= outcome.steps, "replayed \(outcome.replayed) of \(outcome.steps)")
}

/// Runs `body` on the task pool and waits for it on this thread (libFuzzer's, not one of the pool's).
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        result.set(await body())
        done.signal()
    }
    done.wait()
    return result.get()
}

/// One value handed from a task to the thread waiting for it.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    // @unchecked: written once before the semaphore is signalled, read once after the wait.
    private var value: T?
    func set(_ value: T) { self.value = value }
    func get() -> T { value! }
}
