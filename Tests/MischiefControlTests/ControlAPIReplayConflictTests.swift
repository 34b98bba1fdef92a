import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// `POST /v1/replay` while a replay waits on the same seam: refused with 409 and an error that says why, not a 200
/// outcome that reads like a divergence of the recording.
@Suite(.timeLimit(.minutes(1))) struct ControlAPIReplayConflictTests {
    @Test func aSecondReplayOnASeamARunningOneWaitsOnIs409() async throws {
        try await withAPI { target in
            let recorder = target.registry.startRecording()
            for _ in 0..<2 { _ = target.count(()) }
            try target.registry.apply(spec: "return(7)", to: "t.count", source: "cli")
            recorder.stop()
            target.registry.revertAll()
            let recording = recorder.recording
            // The first replay waits for call 2 of t.count, which nobody makes.
            let first = target.registry.startReplay(
                try ReplaySchedule(recording), options: ReplayOptions(timeout: .seconds(30)))
            defer { first.cancel() }
            let response = try await target.raw.request(
                "POST", "/v1/replay?timeout=5", headers: ["Mischief-API": "1"], body: Data(recording.jsonLines.utf8))
            #expect(response.status == 409, "\(String(decoding: response.body, as: UTF8.self))")
            #expect(response.error?.error == "replay running")
            #expect(response.error?.detail.contains("another replay is running on t.count") == true)
        }
    }
}
