// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Mischief",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Mischief", targets: ["Mischief"]),
        .library(name: "MischiefFiles", targets: ["MischiefFiles"]),
        .library(name: "MischiefCatalog", targets: ["MischiefCatalog"]),
        .executable(name: "mischief", targets: ["MischiefCLI"]),
        .executable(name: "mischief-bench", targets: ["MischiefBenchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // The core: toolchain only, so any app or server can embed it.
        .target(name: "Mischief", dependencies: []),
        // YAML files (profiles, themes) into Codable values with file:line:column errors.
        .target(name: "MischiefFiles", dependencies: ["Mischief", .product(name: "Yams", package: "Yams")]),
        // Ready-made behaviours: pseudo-localisation, locations and routes, model mutation and fixtures.
        .target(name: "MischiefCatalog", dependencies: ["Mischief"]),
        .executableTarget(
            name: "MischiefCLI",
            dependencies: [
                "Mischief",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift run -c release mischief-bench`: hot-path costs as ratios against direct calls.
        .executableTarget(name: "MischiefBenchmarks", dependencies: ["Mischief"]),
        .testTarget(name: "MischiefTests", dependencies: ["Mischief"]),
        .testTarget(name: "MischiefFilesTests", dependencies: ["MischiefFiles"]),
        .testTarget(name: "MischiefCatalogTests", dependencies: ["MischiefCatalog"]),
        // Runs the built `mischief` binary end to end.
        .testTarget(name: "MischiefCLITests", dependencies: ["MischiefCLI"]),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
