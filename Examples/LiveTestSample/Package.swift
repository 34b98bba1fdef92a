// swift-tools-version: 6.1
// Live test sessions (issue 49): a warehouse whose slow, parallel Swift Testing tests call its seams, run with
// `MISCHIEF_SERVE=1 swift test` so `mischief attach`, `list` and `apply --scope` reach each running test. Only
// Mischief's products, by path: a cold build of this package is mostly Mischief's and SwiftNIO's. run-e2e.sh builds it
// and runs the root package's `LiveTest` end-to-end suite against it in tmux.
import PackageDescription

let package = Package(
    name: "LiveTestSample",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so the products resolve whatever the clone's folder is called.
        .package(name: "Mischief", path: "../..")
    ],
    targets: [
        .target(name: "Warehouse", dependencies: [.product(name: "Mischief", package: "Mischief")]),
        .testTarget(
            name: "WarehouseTests",
            dependencies: [
                "Warehouse",
                .product(name: "Mischief", package: "Mischief"),
                .product(name: "MischiefTesting", package: "Mischief"),
                // What makes `MISCHIEF_SERVE=1 swift test` serve: the `.liveTests` trait.
                .product(name: "MischiefLiveTests", package: "Mischief"),
            ]),
        // Where a test exported from a failed test's scope goes (`mischief export --scope`, as the failure says):
        // LiveTestEndToEndTests writes one here, builds it and runs it, then removes it.
        .testTarget(
            name: "WarehouseRegressionTests",
            dependencies: [
                "Warehouse",
                .product(name: "Mischief", package: "Mischief"),
                .product(name: "MischiefTesting", package: "Mischief"),
            ]),
    ]
)
