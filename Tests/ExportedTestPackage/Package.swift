// swift-tools-version: 6.1
// A shop that depends on Mischief as an app does, and a test target for the test `mischief export --as test` writes
// from a session of it. Scripts/exported-test.sh records the session (ShopSession), exports the test into
// Tests/ShopTests and runs it; it is not part of the root package's build.
import PackageDescription

let package = Package(
    name: "ExportedTest",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Mischief", path: "../..")
    ],
    targets: [
        .target(
            name: "Shop",
            dependencies: [
                .product(name: "Mischief", package: "Mischief"),
                .product(name: "MischiefCatalog", package: "Mischief"),
            ]),
        .executableTarget(
            name: "ShopSession",
            dependencies: ["Shop", .product(name: "Mischief", package: "Mischief")]),
        .testTarget(
            name: "ShopTests",
            dependencies: [
                "Shop",
                .product(name: "Mischief", package: "Mischief"),
                .product(name: "MischiefTesting", package: "Mischief"),
            ],
            exclude: ["README.md"]),
    ]
)
