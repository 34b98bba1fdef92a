// swift-tools-version: 6.0
// Mischief's costs side by side with what users would otherwise reach for, in one run: a package of its own, so
// the main build and CI stay lean. Run it with `Benchmarks/run.sh` (release build, one table).
import PackageDescription

let package = Package(
    name: "MischiefSideBySide",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Mischief", path: ".."),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        .executableTarget(
            name: "side-by-side",
            dependencies: [
                .product(name: "Mischief", package: "Mischief"),
                .product(name: "MischiefCatalog", package: "Mischief"),
                .product(name: "MischiefControl", package: "Mischief"),
                .product(name: "MischiefSystem", package: "Mischief"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Sources/SideBySide"
        )
    ]
)
