import Foundation
import Logging
import Mischief
import MischiefControl
import MischiefLogging
import MischiefObservers
import MischiefServiceLifecycle
import MischiefTestSupport
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

/// The control server run as a Service and shut down gracefully: what it reverts, and that its socket goes.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ControlServerServiceTests {
    let registry = Registry(sessionSeed: 1)
    let seam = Seam<Int, Int, Never>("server.price", title: "Price", category: "Server", summary: "") { $0 }
    let directory: String
    var socketPath: String { directory + "/t.sock" }

    init() throws {
        try registry.register(seam)
        var template = Array("/tmp/mss-XXXXXX".utf8CString)
        directory = String(cString: try #require(mkdtemp(&template)))
    }

    func server() -> ControlServer {
        ControlServer(registry: registry, options: ControlServer.Options(name: "test", socketPath: socketPath))
    }

    /// Waits for the socket, opens a session named console and applies `return(9)` in it.
    func applyInASession() async throws {
        try await Poll.until("the socket", timeout: .seconds(30), lastSeen: { socketPath }) {
            FileManager.default.fileExists(atPath: socketPath) ? true : nil
        }
        var client = ControlClient(socketPath: socketPath)
        client.session = try await client.openSession(SessionRequest(name: "console")).id
        try await client.apply("return(9)", to: "server.price")
        #expect(seam(1) == 9)
    }

    /// Runs `service` until `applyInASession` is done, then shuts it down gracefully.
    func runAndShutDown(_ service: ControlServerService) async throws {
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                try await applyInASession()
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }

    @Test func gracefulShutdownRevertsWhatSessionsAppliedKeepsLastingChangesAndRemovesTheSocket() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try registry.apply(spec: "return(7)", to: "server.price", source: "code")
        try await runAndShutDown(ControlServerService(server()))
        #expect(!FileManager.default.fileExists(atPath: socketPath))
        #expect(seam(1) == 7)
        #expect(
            registry.events().contains {
                $0.message == "console (s1) ended: the control server stopped; reverted 1 change"
            })
    }

    @Test func revertEverythingLeavesNothingApplied() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try registry.apply(spec: "return(7)", to: "server.price", source: "code")
        try await runAndShutDown(ControlServerService(server(), shutdown: .revertEverything))
        #expect(!FileManager.default.fileExists(atPath: socketPath))
        #expect(seam(1) == 1)
        #expect(registry.snapshot().layers.allSatisfy { $0.status != .active })
    }

    @Test func keepLeavesWhatSessionsApplied() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await runAndShutDown(ControlServerService(server(), shutdown: .keep))
        #expect(!FileManager.default.fileExists(atPath: socketPath))
        #expect(seam(1) == 9)
    }

    @Test func cancellationStopsItToo() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let service = ControlServerService(server())
        let task = Task { try await service.run() }
        try await applyInASession()
        task.cancel()
        try await task.value
        #expect(!FileManager.default.fileExists(atPath: socketPath))
        #expect(seam(1) == 1)
    }

    @Test func inAServiceGroupTheObserversLogTheShutdownsReverts() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let capture = LogCapture()
        let group = ServiceGroup(
            services: [
                ObserverService(events: EventLogger(registry: registry, logger: capture.logger())),
                ControlServerService(server()),
            ],
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await applyInASession()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        let reverted = try #require(capture.records.first { $0.metadata["mischief.event"] == "reverted" })
        #expect(reverted.metadata["mischief.source"] == "console (s1)")
        #expect(
            capture.records.contains {
                $0.message == "report console (s1) ended: the control server stopped; reverted 1 change [console (s1)]"
            })
    }
}
