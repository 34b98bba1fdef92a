import Logging
import Mischief
import MischiefControl
import MischiefSystem
import ServiceLifecycle

/// A `ControlServer` as a swift-service-lifecycle `Service`: it starts with the application and, on graceful
/// shutdown (SIGTERM, SIGINT, the group ending), stops: the sessions end and what they applied is reverted, the
/// socket is removed, and the system seams it installed are uninstalled.
///
/// The system seams (`system.clock`, `system.net`) are the service's to install, not the server's: name them with
/// `systemSeams`, and they are installed in the server's registry before it listens (so `MISCHIEF_PROFILE` may name
/// them), their coverage logged as an event, and uninstalled when it stops.
///
/// ```swift
/// let server = ControlServer(options: .init(name: "orders"))
/// let group = ServiceGroup(
///     services: [
///         ObserverService(events: EventLogger(logger: logger)),  // MischiefObservers
///         ControlServerService(server, systemSeams: [.clock]), app,
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
    /// The system seams installed before the server starts and uninstalled after it stops.
    public let systemSeams: Set<SystemSeams.Family>
    /// More libraries for ``systemSeams`` to rebind, by file name or a part of it (see
    /// `SystemSeams.install(_:in:libraries:)`).
    public let systemLibraries: [String]
    private let logger: Logger?

    /// A service that runs `server`.
    ///
    /// - Parameters:
    ///   - server: A server not started yet.
    ///   - shutdown: What a graceful shutdown reverts; what sessions own by default.
    ///   - systemSeams: The system seams to install in the server's registry before it starts (`[.clock]`,
    ///     `[.clock, .net]`); none by default. Where they cannot work (or are installed already) the server serves
    ///     without them, and the registry's event log says why.
    ///   - systemLibraries: More libraries for `systemSeams` to rebind (see `SystemSeams.install(_:in:libraries:)`).
    ///   - logger: Where to say that the server listens and that it stopped (`info`); nothing by default.
    public init(
        _ server: ControlServer, shutdown: Shutdown = .revertSessions, systemSeams: Set<SystemSeams.Family> = [],
        systemLibraries: [String] = [], logger: Logger? = nil
    ) {
        self.server = server
        self.shutdown = shutdown
        self.systemSeams = systemSeams
        self.systemLibraries = systemLibraries
        self.logger = logger
    }

    /// Starts the server, serves until graceful shutdown or cancellation, then stops it.
    ///
    /// - Throws: What `ControlServer.start()` throws when it cannot listen (`ControlSocketError`).
    public func run() async throws {
        let installed = installSystemSeams()
        do {
            try await server.start()
        } catch {
            if installed { SystemSeams.uninstall() }
            throw error
        }
        logger?.info("mischief control server listening", metadata: ["mischief.socket": "\(server.socketPath)"])
        // Returns on graceful shutdown; throws CancellationError when cancelled. Both stop the server.
        try? await gracefulShutdown()
        await server.stop(revertingSessions: shutdown != .keep)
        if installed { SystemSeams.uninstall() }
        var reverted = 0
        if shutdown == .revertEverything { reverted = server.registry.revertAll(source: "shutdown") }
        logger?.info(
            "mischief control server stopped",
            metadata: [
                "mischief.socket": "\(server.socketPath)",
                "mischief.reverted_lasting": "\(reverted)",
            ])
    }

    /// Installs ``systemSeams`` in the server's registry and logs what they cover, or why they could not be
    /// installed (a target serves either way); true when this service installed them.
    private func installSystemSeams() -> Bool {
        guard !systemSeams.isEmpty else { return false }
        let registry = server.registry
        do {
            let report = try SystemSeams.install(systemSeams, in: registry, libraries: systemLibraries)
            registry.report(seam: nil, message: "system seams: \(report)")
            return true
        } catch {
            registry.report(seam: nil, message: "\(error); serving without them")
            return false
        }
    }
}
