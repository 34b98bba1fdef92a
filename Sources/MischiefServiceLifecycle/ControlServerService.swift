import Logging
import Mischief
import MischiefControl
import ServiceLifecycle

/// A `ControlServer` as a swift-service-lifecycle `Service`: it starts with the application and, on graceful
/// shutdown (SIGTERM, SIGINT, the group ending), stops: the sessions end and what they applied is reverted, the
/// socket is removed, and the system seams it installed are uninstalled.
///
/// ```swift
/// let server = ControlServer(options: .init(name: "orders"))
/// let group = ServiceGroup(
///     services: [
///         ObserverService(events: EventLogger(logger: logger)),  // MischiefObservers
///         ControlServerService(server), app,
///     ],
///     gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
///
/// A `ServiceGroup` shuts its services down in the reverse of their order, so list an `ObserverService` before
/// this one: it then logs the reverts the shutdown makes.
public struct ControlServerService: Service {
    /// What a graceful shutdown reverts.
    public enum Shutdown: Sendable, Hashable {
        /// What sessions still own (consoles attached, `mischief apply --hold`); lasting changes stay, as they would
        /// if the server went on. The default.
        case revertSessions
        /// Every change on every seam, lasting ones too (`Registry.revertAll(source:)`): the process leaves
        /// nothing applied, whoever applied it.
        case revertEverything
        /// Nothing: sessions end, and the target keeps what they applied (`ControlServer.stop()`).
        case keep
    }

    /// The server run.
    public let server: ControlServer
    /// What a graceful shutdown reverts.
    public let shutdown: Shutdown
    private let logger: Logger?

    /// A service that runs `server`.
    ///
    /// - Parameters:
    ///   - server: A server not started yet.
    ///   - shutdown: What a graceful shutdown reverts; what sessions own by default.
    ///   - logger: Where to say that the server listens and that it stopped (`info`); nothing by default.
    public init(_ server: ControlServer, shutdown: Shutdown = .revertSessions, logger: Logger? = nil) {
        self.server = server
        self.shutdown = shutdown
        self.logger = logger
    }

    /// Starts the server, serves until graceful shutdown or cancellation, then stops it.
    ///
    /// - Throws: What `ControlServer.start()` throws when it cannot listen (`ControlSocketError`).
    public func run() async throws {
        try await server.start()
        logger?.info("mischief control server listening", metadata: ["mischief.socket": "\(server.socketPath)"])
        // Returns on graceful shutdown; throws CancellationError when cancelled. Both stop the server.
        try? await gracefulShutdown()
        await server.stop(revertingSessions: shutdown != .keep)
        var reverted = 0
        if shutdown == .revertEverything { reverted = server.registry.revertAll(source: "shutdown") }
        logger?.info(
            "mischief control server stopped",
            metadata: [
                "mischief.socket": "\(server.socketPath)",
                "mischief.reverted_lasting": "\(reverted)",
            ])
    }
}
