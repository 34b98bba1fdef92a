import Foundation
import Mischief
import Testing

/// `MISCHIEF_REPLAY` reads a recording only from a regular file of at most 1 MiB, its size checked before it is read.
@Suite(.timeLimit(.minutes(1))) struct RecordingReadFileTests {
    @Test func aDeviceATooLargeFileAndAGoodOneAreToldApart() throws {
        let zero = #expect(throws: RecordingFileError.self) {
            try Recording(file: "/dev/zero", limit: Recording.largestFileInTarget)
        }
        #expect(zero?.reason.contains("it is a device, not a regular file") == true, "\(String(describing: zero))")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-files-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let large = directory + "/large.jsonl"
        #expect(FileManager.default.createFile(atPath: large, contents: nil))
        #expect(truncate(large, 2 << 20) == 0)
        let tooLarge = #expect(throws: RecordingFileError.self) {
            try Recording(file: large, limit: Recording.largestFileInTarget)
        }
        #expect(tooLarge?.reason.contains("more than 1 MiB") == true, "\(String(describing: tooLarge))")

        let good = directory + "/good.jsonl"
        let recording = Recording(
            header: .init(target: "t", pid: 1, sessionSeed: 7, started: 1_000, seams: []), entries: [])
        try recording.jsonLines.write(toFile: good, atomically: false, encoding: .utf8)
        #expect(try Recording(file: good, limit: Recording.largestFileInTarget) == recording)
    }
}
