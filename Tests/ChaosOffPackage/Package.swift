// swift-tools-version: 6.1
// An app's shipping build: it depends on Mischief with `traits: []`, so chaos is compiled out.
// Scripts/chaos-off.sh builds and runs it; it is not part of the root package's build.
import PackageDescription

let package = Package(
    name: "ChaosOff",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Mischief", path: "../..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "ChaosOff",
            dependencies: [
                .product(name: "Mischief", package: "Mischief"),
                .product(name: "MischiefControl", package: "Mischief"),
                .product(name: "MischiefSystem", package: "Mischief"),
            ])
    ]
)
