import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// A server that cannot start leaves nothing running: the recording it began stops, so its registry stops counting.
@Suite(.timeLimit(.minutes(1))) struct ControlServerStartFailureTests {
    @Test func aServerThatCannotListenStopsItsRecording() async throws {
        let registry = Registry(sessionSeed: 1)
        let missing = "/nonexistent-\(UUID().uuidString.prefix(8))/target.sock"
        let server = ControlServer(registry: registry, options: .init(name: "nowhere", socketPath: missing))
        await #expect(throws: (any Error).self) { try await server.start() }
        #expect(server.handler.recorder == nil, "the recording stopped with the failed start")
        #expect(!registry.snapshot().isCounting, "nothing left counting calls for a server that never served")
    }
}
