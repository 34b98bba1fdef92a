// swift-tools-version: 6.1
import Foundation
import PackageDescription

let package = Package(
    name: "Mischief",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Mischief", targets: ["Mischief"]),
        .library(name: "MischiefFiles", targets: ["MischiefFiles"]),
        .library(name: "MischiefCatalog", targets: ["MischiefCatalog"]),
        .library(name: "MischiefNetwork", targets: ["MischiefNetwork"]),
        .library(name: "MischiefControl", targets: ["MischiefControl"]),
        .library(name: "MischiefTesting", targets: ["MischiefTesting"]),
        // Live test sessions (issue 49): a test target that links it serves the control API under MISCHIEF_SERVE=1,
        // so a console watches and changes each test's scope. Its own product: MischiefTesting links no SwiftNIO.
        .library(name: "MischiefLiveTests", targets: ["MischiefLiveTests"]),
        .library(name: "MischiefSystem", targets: ["MischiefSystem"]),
        // The server ecosystem (MischiefServiceLifecycle's article "Mischief in a server"): events to swift-log, seam
        // counters to swift-metrics, the control server as a swift-service-lifecycle Service, and the two observers
        // as another. Small products beside the core, which depends on none of them.
        .library(name: "MischiefLogging", targets: ["MischiefLogging"]),
        .library(name: "MischiefMetrics", targets: ["MischiefMetrics"]),
        .library(name: "MischiefServiceLifecycle", targets: ["MischiefServiceLifecycle"]),
        .library(name: "MischiefObservers", targets: ["MischiefObservers"]),
        .executable(name: "mischief", targets: ["MischiefCLI"]),
    ],
    // Chaos is on by default. An app turns it off for its shipping builds by depending on Mischief with
    // `traits: []`: seams then call their originals directly, nothing listens and MISCHIEF_APPLY is ignored
    // (README, "Ship without chaos"; Scripts/chaos-off.sh builds such a dependent package).
    traits: [
        .trait(
            name: "Chaos",
            description: "Seams can be changed: the registry applies behaviours, the control server listens."),
        .default(enabledTraits: ["Chaos"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        // Only the server products below use these three; the core and the CLI link none of them.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation`: the DocC catalogs; Scripts/docs.sh builds them in CI.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // The core: toolchain only, so any app or server can embed it.
        .target(name: "Mischief", dependencies: ["CMischiefTSan", "CMischiefClock"]),
        // The core's C: tells ThreadSanitizer about its locks (only in builds with --sanitize=thread), and gives each
        // thread a lane of counters of its own (mischief_lanes.h). No dependency.
        .target(name: "CMischiefTSan"),
        // The wall clock as the system keeps it, for Mischief's own readings, even while system seams rebind
        // clock_gettime (mischief_clock.h). No dependency.
        .target(name: "CMischiefClock"),
        // YAML files (profiles, themes) into Codable values with file:line:column errors.
        .target(name: "MischiefFiles", dependencies: ["Mischief", .product(name: "Yams", package: "Yams")]),
        // Ready-made behaviours: pseudo-localisation, locations and routes, model mutation and fixtures.
        .target(name: "MischiefCatalog", dependencies: ["Mischief"]),
        // System seams: the wall clock and the network (getaddrinfo, connect) of code not written for Mischief (Date(),
        // libcurl under URLSession), through C hooks put in the global offset tables of the libraries chosen
        // (CMischiefRebind).
        .target(name: "CMischiefSystem", dependencies: ["CMischiefTSan"]),
        .target(
            name: "MischiefSystem",
            dependencies: ["Mischief", "MischiefCatalog", "CMischiefSystem", "CMischiefClock", "CMischiefRebind"]),
        // Network rules: a URLProtocol for URLSession and a seam for other clients. Its own module, so apps that
        // only need a clock do not link FoundationNetworking.
        .target(name: "MischiefNetwork", dependencies: ["Mischief"]),
        // The console's pure parts: its state, key handling, themes and rendering to cell grids; keys, colours,
        // an in-memory terminal, the driver loop. No terminal I/O, and no catalogue: what an action's values can be
        // comes from its signature, as the target sends it.
        .target(name: "MischiefConsole", dependencies: ["Mischief", "MischiefFiles"]),
        // The terminal: ncurses on a thread of its own, and a crash handler that restores the terminal.
        .systemLibrary(name: "CNcurses", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        .target(name: "CMischiefTerminal"),
        // System seams' foundation (issue 30): rebinds GOT slots of loaded shared objects, so a library's calls to a C
        // function (clock_gettime, say) reach a replacement. No Swift module uses it yet; Linux only.
        .target(name: "CMischiefRebind", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "MischiefCurses", dependencies: ["Mischief", "MischiefConsole", "CNcurses", "CMischiefTerminal"]),
        // The built-in demo target: keeps calling the catalogue's seams and publishes its own screen.
        // Profiles/ is built in as source (DemoProfilesText.swift, Scripts/embed-files.sh), not a resource bundle.
        .target(
            name: "MischiefDemo", dependencies: ["Mischief", "MischiefCatalog", "MischiefNetwork", "MischiefFiles"],
            exclude: ["Profiles"]),
        // The control API: HTTP/JSON on a Unix socket (server in the target, client, sessions). Its wire format is
        // the core's Codable snapshot types, so an app that serves it links no console, and it installs no system
        // seams (that is the app's, the demo's or ControlServerService's business), so it links no rebinder.
        .target(
            name: "MischiefControl",
            dependencies: [
                "Mischief", "MischiefFiles",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // A registry's events as swift-log records, with the seam, behaviour, source and seed as metadata; off the hot path
        // (a subscriber of the change feed, on a task of its own).
        .target(name: "MischiefLogging", dependencies: ["Mischief", .product(name: "Logging", package: "swift-log")]),
        // Seam counters (calls, chaos calls, errors, in flight, held) as swift-metrics gauges with the seam as a
        // dimension, read from snapshots by a poller: the seams' hot path is not touched.
        .target(
            name: "MischiefMetrics", dependencies: ["Mischief", .product(name: "Metrics", package: "swift-metrics")]),
        // The control server as a Service: installs the system seams it is given, starts with the application, stops
        // (reverting its sessions' layers, removing its socket, uninstalling the system seams) on graceful shutdown.
        // No swift-metrics: the observers are MischiefObservers.
        .target(
            name: "MischiefServiceLifecycle",
            dependencies: [
                "Mischief", "MischiefControl", "MischiefSystem",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The event logger and the metrics reporter as one Service (ObserverService).
        .target(
            name: "MischiefObservers",
            dependencies: [
                "Mischief", "MischiefLogging", "MischiefMetrics",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // A console attached to a target over its control socket: the console's remote controller.
        .target(
            name: "MischiefAttach", dependencies: ["Mischief", "MischiefFiles", "MischiefConsole", "MischiefControl"]),
        // Tests: chaos scoped to a test (traits, a scoped call for XCTest), expectations on calls, mocks and stubs.
        // Links Swift Testing and XCTest, so only test targets depend on it.
        .target(name: "MischiefTesting", dependencies: ["Mischief", "MischiefCatalog"]),
        // Live test sessions: the `.liveTests` trait publishes each test's scope and serves the control API in the
        // test process when asked (MISCHIEF_SERVE=1).
        .target(name: "MischiefLiveTests", dependencies: ["Mischief", "MischiefTesting", "MischiefControl"]),
        .executableTarget(
            name: "MischiefCLI",
            dependencies: [
                "Mischief",
                "MischiefCatalog",
                "MischiefDemo",
                "MischiefFiles",
                "MischiefSystem",
                "MischiefConsole",
                "MischiefCurses",
                "MischiefControl",
                "MischiefAttach",
                // SignalCatcher: the console's async-signal-safe handlers, for the commands without a console.
                "CMischiefTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift run -c release mischief-bench`: hot-path costs as ratios against direct calls. A developer's tool, not
        // a product: it lives with the side-by-side benchmarks in Benchmarks/, but in this package, so it can measure
        // the console and the attach road, which are not products.
        .executableTarget(
            name: "mischief-bench",
            dependencies: [
                "Mischief", "MischiefCatalog", "MischiefConsole", "MischiefControl", "MischiefAttach", "MischiefDemo",
                "MischiefSystem", "MischiefLogging", "MischiefMetrics", .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Benchmarks/MischiefBench"),
        .testTarget(name: "MischiefTests", dependencies: ["Mischief", "CMischiefTSan", "MischiefTestSupport"]),
        .testTarget(name: "MischiefFilesTests", dependencies: ["MischiefFiles", "Mischief"]),
        // Rebinding proven on C fixture libraries the tests build with clang and dlopen: never this process's own clock.
        .testTarget(name: "MischiefRebindTests", dependencies: ["CMischiefRebind", "MischiefTestSupport"]),
        // system.net's specs and decisions in process, with no slot rebound: its seam built alone, and the C map of the
        // names lookups answered called directly. Installing is for MischiefSystemProbe, a process of its own.
        .testTarget(name: "MischiefSystemTests", dependencies: ["MischiefSystem", "Mischief", "CMischiefSystem"]),
        .testTarget(
            name: "MischiefCatalogTests", dependencies: ["MischiefCatalog", "Mischief", "MischiefTestSupport"]),
        .testTarget(
            name: "MischiefNetworkTests", dependencies: ["MischiefNetwork", "Mischief", "MischiefTestSupport"]),
        .testTarget(
            name: "MischiefTestingTests",
            dependencies: ["MischiefTesting", "Mischief", "MischiefCatalog", "MischiefTestSupport"]),
        // The worked example: a view model tested as a user would, with its seams changed per test and a mock store.
        .testTarget(
            name: "MischiefExampleTests",
            dependencies: ["MischiefTesting", "Mischief", "MischiefCatalog", "MischiefNetwork", "MischiefTestSupport"]),
        // The server products: log records captured by a handler of the test's own, MetricsTestKit's backend, and the
        // control server run by a ServiceGroup and shut down gracefully.
        .testTarget(
            name: "MischiefServerTests",
            dependencies: [
                "MischiefLogging", "MischiefMetrics", "MischiefServiceLifecycle", "MischiefObservers",
                "MischiefControl",
                "Mischief", "MischiefTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]),
        // Snapshots/ holds rendered text and role grids; MISCHIEF_RECORD_SNAPSHOTS=1 re-records them.
        .testTarget(
            name: "MischiefConsoleTests", dependencies: ["MischiefConsole", "Mischief", "MischiefFiles"],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "MischiefControlTests",
            dependencies: [
                "MischiefControl", "MischiefAttach", "Mischief", "MischiefConsole", "MischiefFiles", "MischiefNetwork",
                "MischiefTestSupport",
                // EmbeddedChannel and EmbeddedEventLoop: the events feed driven tick by tick, with backpressure.
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(
            name: "MischiefDemoTests", dependencies: ["MischiefDemo", "MischiefConsole", "Mischief", "MischiefCatalog"]),
        .testTarget(
            name: "MischiefCursesTests", dependencies: ["MischiefCurses", "MischiefConsole", "Mischief", "CNcurses"]),
        // The CLI's code without starting it: its texts, and the README's command lines and Swift examples.
        .testTarget(name: "MischiefCLITests", dependencies: ["MischiefCLI", "MischiefTestSupport"]),
        // The built `mischief` binary run as a user runs it, on its own and in tmux: one test at a time
        // (OneAtATime.swift), as each one starts processes that a loaded machine slows down.
        .testTarget(
            name: "MischiefEndToEndTests",
            dependencies: [
                "MischiefCLI", "MischiefBlockedTarget", "MischiefSystemProbe", "MischiefTwoThreadTarget", "Mischief",
                "MischiefNetwork",
                "MischiefTestSupport", "MischiefConsole",
            ]),
        // A test tool, not in the shipping `mischief`: the demo target blocking every thread of its task pool.
        .executableTarget(
            name: "MischiefBlockedTarget",
            dependencies: ["Mischief", "MischiefCatalog", "MischiefControl", "MischiefDemo", "MischiefSystem"],
            path: "Tests/MischiefBlockedTarget"),
        // A test tool: two threads call one seam while the CLI changes it, for a recording replayed on a fresh run.
        .executableTarget(
            name: "MischiefTwoThreadTarget",
            dependencies: ["Mischief", "MischiefControl"],
            path: "Tests/MischiefTwoThreadTarget"),
        // A test tool: installs the system seams in a process of its own and checks what code written without
        // Mischief (SystemClockCallers, plain sockets, URLSession) sees under system.clock's and system.net's actions.
        .executableTarget(
            name: "MischiefSystemProbe",
            dependencies: ["Mischief", "MischiefCatalog", "MischiefSystem", "SystemClockCallers", "CMischiefRebind"],
            path: "Tests/MischiefSystemProbe"),
        .target(name: "SystemClockCallers", path: "Tests/SystemClockCallers"),
        // What tests share: starting programs (`posix_spawn`), waiting for a condition, an await or held calls with a
        // deadline and a message. No product, so no app sees it.
        .target(name: "MischiefTestSupport", dependencies: ["Mischief"], path: "Tests/MischiefTestSupport"),
    ]
)

// Fuzzers: only in the manifest when MISCHIEF_FUZZ=1, because they link libFuzzer's driver (`--sanitize=fuzzer`), which
// an ordinary build does not have. Scripts/fuzz.sh builds and runs them in a scratch path of their own.
if ProcessInfo.processInfo.environment["MISCHIEF_FUZZ"] == "1" {
    package.products.append(.executable(name: "mischief-fuzz", targets: ["MischiefFuzz"]))
    package.targets.append(
        .executableTarget(
            name: "MischiefFuzz",
            dependencies: [
                "Mischief", "MischiefFiles", "MischiefCatalog", "MischiefNetwork", "MischiefConsole", "MischiefControl",
                // EmbeddedChannel: the control server's pipeline driven without a socket.
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOCore", package: "swift-nio"),
            ],
            // Warnings are errors here: the harnesses are built only by Scripts/fuzz.sh, so a warning (a match that no
            // longer fits a changed enum) would otherwise rot unseen.
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]))
}

let cTargets = ["CMischiefTerminal", "CMischiefTSan", "CMischiefRebind", "CMischiefSystem", "CMischiefClock"]
for target in package.targets where target.type != .system && !cTargets.contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}

// A sanitizer pass builds only what it tests: MISCHIEF_ONLY="MischiefTests MischiefSystemProbe" keeps the targets it
// names and what they depend on in this package, and the products made only of those. ThreadSanitizer's pass over
// the core (Scripts/sanitize-thread.sh) then builds no SwiftNIO, console or CLI, which is most of a build's time.
if let only = ProcessInfo.processInfo.environment["MISCHIEF_ONLY"] {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var keep = Set<String>()
    var pending = only.split(separator: " ").map(String.init)
    while let name = pending.popLast() {
        guard let target = byName[name] else { fatalError("MISCHIEF_ONLY: this package has no target \(name)") }
        guard keep.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !keep.contains($0.name) }
    package.products.removeAll { product in
        let targets = (product as? Product.Executable)?.targets ?? (product as? Product.Library)?.targets ?? []
        return !targets.allSatisfy(keep.contains)
    }
}
