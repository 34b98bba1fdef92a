import Foundation

/// A scratch package in `<root>/.build-readme` with one executable per README example, depending on this package by
/// path as an app would: one build compiles the libraries once and every example beside them.
struct ReadmePackage {
    let directory: URL
    let examples: [ReadmeExample]

    /// Writes the manifest and one `Sources/ExampleN/main.swift` per example, replacing what was there.
    static func write(_ examples: [ReadmeExample], root: URL) throws -> ReadmePackage {
        let directory = root.appendingPathComponent(".build-readme")
        let sources = directory.appendingPathComponent("Sources")
        try? FileManager.default.removeItem(at: sources)
        for example in examples {
            let folder = sources.appendingPathComponent(example.name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try example.source.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        }
        // SwiftPM names a package required by path after its folder.
        let identity = root.lastPathComponent.lowercased()
        let targets = examples.map { example in
            let products = example.imports.filter { $0.hasPrefix("Mischief") }
                .map { ".product(name: \"\($0)\", package: \"\(identity)\")" }
            let dependencies = products.joined(separator: ", ")
            return "        .executableTarget(name: \"\(example.name)\", dependencies: [\(dependencies)]),"
        }
        let manifest = """
            // swift-tools-version: 6.1
            // Written by ReadmeExamplesTests from README.md: one executable per Swift example.
            import PackageDescription

            let package = Package(
                name: "ReadmeExamples",
                platforms: [.macOS(.v15)],
                dependencies: [.package(path: "..")],
                targets: [
            \(targets.joined(separator: "\n"))
                ]
            )

            """
        try manifest.write(to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        return ReadmePackage(directory: directory, examples: examples)
    }

    /// Builds every example; a compile error is thrown with the compiler's words.
    func build() async throws {
        let result = try await run(
            URL(fileURLWithPath: "/usr/bin/env"), ["swift", "build", "--package-path", directory.path],
            timeout: .seconds(1_500), log: "build")
        guard result.status == 0 else {
            throw Poll.Failure(description: "the README examples do not build:\n\(result.output)\n\(result.error)")
        }
    }

    /// Runs one built example, with a fixed session seed.
    func run(_ example: ReadmeExample) async throws -> ChildProcess.Result {
        let executable = directory.appendingPathComponent(".build/debug/\(example.name)")
        return try await run(executable, [], timeout: .seconds(60), log: example.name, seed: "7")
    }

    private func run(_ executable: URL, _ arguments: [String], timeout: Duration, log: String, seed: String? = nil)
        async throws -> ChildProcess.Result
    {
        var environment = ProcessInfo.processInfo.environment
        environment["MISCHIEF_SEED"] = seed
        let output = directory.appendingPathComponent("\(log).out")
        let error = directory.appendingPathComponent("\(log).err")
        let process = try ChildProcess.start(
            executable, arguments, environment: environment, directory: directory, output: output, error: error)
        defer { process.kill() }
        let status = try await process.waitForExit(timeout: timeout)
        return ChildProcess.Result(status: status, output: process.outputText, error: process.errorText)
    }
}
