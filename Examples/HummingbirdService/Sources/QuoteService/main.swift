import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import Metrics
import Mischief
import MischiefCatalog
import MischiefControl
import MischiefLogging
import MischiefMetrics
import MischiefObservers
import MischiefServiceLifecycle
import Prometheus
import ServiceLifecycle

// QuoteService: PORT (8080), UPSTREAM_URL (http://127.0.0.1:8081), MISCHIEF_SOCKET (the control socket; by default
// $XDG_RUNTIME_DIR/mischief/quote-service-PID.sock), LOG_LEVEL (info).
let environment = ProcessInfo.processInfo.environment
let level = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = level
    return handler
}
let prometheus = PrometheusCollectorRegistry()
MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: prometheus))
let logger = Logger(label: "quote-service")

// The seams this service's own code goes through: the catalogue's clock, its quote model and its strings.
let registry = Registry.shared
let clock = ChaosClock.shared
let quotes = ChaosModel<Quote>("quote")
let strings = ChaosStrings { lookup in Strings.english[lookup.key] ?? lookup.value ?? lookup.key }
try registry.register(clock.seam, quotes.decoding, quotes.values, strings.seam)

// The code it cannot change (AsyncHTTPClient's connects, a library's Date()) is reached by the system seams, which
// the control server's service installs before the server starts (below).
let options = ControlServer.Options(name: "quote-service", socketPath: environment["MISCHIEF_SOCKET"])
let control = ControlServer(options: options)

var configuration = HTTPClient.Configuration()
// A refused connect fails the request at once instead of being retried behind it, so it shows as an error.
configuration.connectionPool.retryConnectionEstablishment = false
configuration.timeout = .init(connect: .seconds(1), read: .seconds(2))
let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)

let routes = QuoteRoutes(
    clock: clock, quotes: quotes, strings: strings, http: http,
    upstream: environment["UPSTREAM_URL"] ?? "http://127.0.0.1:8081",
    session: Session(expires: clock.date.addingTimeInterval(3600)),
    token: LibraryToken(expires: Date().addingTimeInterval(3600)))
let router = Router()
routes.add(to: router)
router.get("metrics") { _, _ in prometheus.emitToString() }
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: Int(environment["PORT"] ?? "8080") ?? 8080)),
    logger: logger)

// Services shut down in reverse order: the app stops taking requests, then the control server stops (reverting what
// sessions applied, removing its socket), then the observers log those reverts and report the counters a last time.
let group = ServiceGroup(
    configuration: .init(
        services: [
            .init(
                service: ObserverService(
                    events: EventLogger(logger: Logger(label: "mischief")), metrics: SeamMetrics())),
            .init(
                service: ControlServerService(
                    control, shutdown: .revertEverything, systemSeams: [.clock, .net], logger: logger)),
            .init(service: app),
        ],
        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
try await group.run()
try await http.shutdown()
let left = registry.snapshot().layers.filter { $0.status == .active }.count
logger.info("exited", metadata: ["mischief.layers_applied": "\(left)"])
