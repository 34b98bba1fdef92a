import Foundation
import Mischief
import MischiefTestSupport
import Synchronization
import Testing

/// A recording goes only to a regular file: a FIFO (with or without a reader), a link, a device or a file that is not
/// a recording is refused before anything is written, so no pipe can block or kill the target and nothing is
/// truncated; a write that fails (a full disk) stops the recording once, said in the event log.
@Suite(.timeLimit(.minutes(1))) struct RecordingFileTests {
    /// A directory of its own, removed after `body`.
    static func inDirectory<R>(_ body: (String) throws -> R) throws -> R {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recording-files-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try body(directory)
    }

    final class Outcome: Sendable {
        let value = Mutex<String??>(nil)
    }

    /// `startRecording(toFile:)` on a thread of its own: the error's text, nil when it recorded (stopped at once),
    /// or "blocked" if it had not returned within 3 s (then `unblock` runs, and it is waited for).
    static func start(_ registry: Registry, _ path: String, unblock: () -> Void = {}) -> String? {
        let outcome = Outcome()
        let thread = Thread {
            do {
                let recorder = try registry.startRecording(toFile: path)
                recorder.stop()
                outcome.value.withLock { $0 = .some(nil) }
            } catch {
                outcome.value.withLock { $0 = .some("\(error)") }
            }
        }
        thread.start()
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(3) {
            if let done = outcome.value.withLock({ $0 }) { return done }
            usleep(10_000)
        }
        unblock()
        while outcome.value.withLock({ $0 }) == nil { usleep(10_000) }
        return "blocked"
    }

    @Test func aFIFOWithNoReaderIsRefusedAtOnceNotWaitedOn() throws {
        try Self.inDirectory { directory in
            let fifo = directory + "/fifo.jsonl"
            #expect(mkfifo(fifo, 0o600) == 0)
            let error = Self.start(Registry(), fifo) {
                // Free the blocked open: a reader that goes away at once.
                let reader = open(fifo, O_RDONLY | O_NONBLOCK)
                usleep(100_000)
                close(reader)
            }
            #expect(error != "blocked", "startRecording blocked on a FIFO with no reader")
            #expect(error?.contains("not a regular file") == true, "\(error ?? "recorded")")
        }
    }

    @Test func aFIFOWithAReaderIsRefusedSoNoPipeIsEverWritten() throws {
        try Self.inDirectory { directory in
            let fifo = directory + "/fifo.jsonl"
            #expect(mkfifo(fifo, 0o600) == 0)
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            defer { close(reader) }
            let error = Self.start(Registry(), fifo)
            #expect(error?.contains("a FIFO, not a regular file") == true, "\(error ?? "recorded")")
        }
    }

    @Test func aLinkIsRefusedAndWhatItNamesIsLeftAlone() throws {
        try Self.inDirectory { directory in
            let precious = directory + "/precious.txt"
            try "keep me\n".write(toFile: precious, atomically: false, encoding: .utf8)
            let link = directory + "/session.jsonl"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: precious)
            let error = Self.start(Registry(), link)
            #expect(error?.contains("link") == true, "\(error ?? "recorded")")
            #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me\n")
        }
    }

    @Test func aDeviceIsRefused() throws {
        let error = Self.start(Registry(), "/dev/null")
        #expect(error?.contains("not a regular file") == true, "\(error ?? "recorded")")
    }

    @Test func aFileThatIsNotARecordingIsNotTruncatedButAnOldRecordingOrAnEmptyFileIs() throws {
        try Self.inDirectory { directory in
            let notes = directory + "/notes.txt"
            try "my notes\n".write(toFile: notes, atomically: false, encoding: .utf8)
            let error = Self.start(Registry(), notes)
            #expect(error?.contains("not a Mischief recording") == true, "\(error ?? "recorded")")
            #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")

            let old = directory + "/old.jsonl"
            let registry = Registry()
            try registry.startRecording(toFile: old).stop()
            try String(contentsOfFile: old, encoding: .utf8).appending("{\"half\n").write(
                toFile: old, atomically: false, encoding: .utf8)
            #expect(Self.start(registry, old) == nil, "an old recording is recorded over")
            let text = try String(contentsOfFile: old, encoding: .utf8)
            #expect(text.split(separator: "\n").count == 1 && !text.contains("half"), "truncated: \(text)")

            let empty = directory + "/empty.jsonl"
            #expect(FileManager.default.createFile(atPath: empty, contents: nil))
            #expect(Self.start(registry, empty) == nil)
        }
    }

    @Test func aWriteThatFailsStopsTheRecordingOnceAndTheEventLogSaysSo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recording-files-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/full.jsonl"
        let f = try Fixture()
        let recorder = try f.registry.startRecording(toFile: path)
        defer { recorder.stop() }
        // The disk fills up: the recording's descriptor now writes to /dev/full (ENOSPC).
        let full = open("/dev/full", O_WRONLY)
        defer { close(full) }
        let descriptor = try #require(Self.descriptor(of: path))
        #expect(dup2(full, descriptor) == descriptor)
        try f.registry.apply(spec: "return(1)", to: "test.double")
        try f.registry.apply(spec: "return(2)", to: "test.double")
        #expect(recorder.failure != nil)
        try await Poll.until("the failure in the event log", lastSeen: { "\(f.registry.events().map(\.message))" }) {
            f.registry.events().contains { $0.kind == .problem && $0.message.contains("stopped recording") }
                ? true : nil
        }
        let said = f.registry.events().filter { $0.message.contains("stopped recording") }
        #expect(said.count == 1, "once: \(said.map(\.message))")
    }

    /// The descriptor this process has open on `path`.
    static func descriptor(of path: String) -> Int32? {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(entry),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")
            else { continue }
            if target == real || target == path { return fd }
        }
        return nil
    }
}
