// swift-tools-version: 6.1
import PackageDescription

// A small Hummingbird service with Mischief in it (MischiefServiceLifecycle's article "Mischief in a server"): its
// own package, so the root package's users never resolve Hummingbird or AsyncHTTPClient. run-e2e.sh builds it,
// starts it with an upstream stub, drives it with wrk and changes it through the `mischief` CLI.
let package = Package(
    name: "HummingbirdService",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so the products resolve whatever the clone's folder is called.
        .package(name: "Mischief", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "QuoteService",
            dependencies: [
                .product(name: "Mischief", package: "Mischief"),
                .product(name: "MischiefCatalog", package: "Mischief"),
                .product(name: "MischiefControl", package: "Mischief"),
                .product(name: "MischiefLogging", package: "Mischief"),
                .product(name: "MischiefMetrics", package: "Mischief"),
                .product(name: "MischiefServiceLifecycle", package: "Mischief"),
                .product(name: "MischiefObservers", package: "Mischief"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)])
    ]
)
