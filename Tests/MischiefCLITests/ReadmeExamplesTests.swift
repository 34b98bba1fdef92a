import Foundation
import Testing

/// The Swift examples of README.md and of the DocC articles (`Sources/*/*.docc/*.md`): each one is read here, and
/// (with `MISCHIEF_README_EXAMPLES=1`, as `Scripts/readme-examples.sh` and CI set it) built in a scratch package that
/// depends on this one by path, run, and its output compared with the one the document shows.
@Suite("README examples")
struct ReadmeExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let buildAll = ProcessInfo.processInfo.environment["MISCHIEF_README_EXAMPLES"] == "1"

    /// README.md and every DocC article, relative to the package.
    static func documents() throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        let catalogs = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted().flatMap { module in
            let catalog = "Sources/\(module)/\(module).docc"
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path))
            return (files ?? []).filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        return ["README.md"] + catalogs
    }

    static func text(of document: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    }

    /// Every example of every document.
    static func examples() throws -> [ReadmeExample] {
        try documents().flatMap { document in try ReadmeExample.parse(try text(of: document), file: document) }
    }

    /// The fast half, in every `swift test`: every Swift block is an example the slow half builds, every marker is
    /// understood, and no Swift hides in a block the test would not see.
    @Test func everySwiftBlockIsAnExampleItCanBuild() throws {
        let documents = try Self.documents()
        #expect(documents.contains("Sources/Mischief/Mischief.docc/GettingStarted.md"))
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for document in documents {
            let text = try Self.text(of: document)
            let examples = try ReadmeExample.parse(text, file: document)
            let fences = text.split(separator: "\n").filter { $0.hasPrefix("```") && $0.count > 3 }
            #expect(examples.count == fences.filter { $0 == "```swift" }.count, "\(document)")
            let otherSwift = fences.filter { $0.lowercased().contains("swift") && $0 != "```swift" }
            #expect(otherSwift.isEmpty, "\(document): fence Swift as ```swift to have it tested: \(otherSwift)")
            for example in examples {
                let modules = example.imports.filter { $0.hasPrefix("Mischief") }
                #expect(!modules.isEmpty, "\(example.location) imports no Mischief module: it cannot stand alone")
                for module in modules {
                    #expect(manifest.contains(".library(name: \"\(module)\""), "\(example.location): \(module)")
                }
            }
        }
        #expect(try Self.examples().count >= 14)
    }

    @Test func markersSetUpHideAndCheckOutput() throws {
        let text = """
            <!-- example: setup
            struct User: Codable {}
            -->
            ```swift
            import Mischief
            print("hi")
            ```
            It prints:
            <!-- example: output -->
            ```
            hi … there
            ```
            <!-- example: compile-only -->
            ```swift
            import MischiefNetwork
            ```
            """
        let examples = try ReadmeExample.parse(text)
        #expect(examples.map(\.line) == [4, 14])
        #expect(
            examples[0].setup == ["struct User: Codable {}"]
                && examples[0].code == ["import Mischief", "print(\"hi\")"])
        #expect(examples[0].expectedOutput == ["hi … there"] && !examples[0].compileOnly)
        #expect(examples[0].outputMatches("hi 216ms there\n") && !examples[0].outputMatches("hi there?\n"))
        #expect(
            examples[1].compileOnly && examples[1].expectedOutput == nil && examples[1].imports == ["MischiefNetwork"])
    }

    @Test(arguments: [
        ("<!-- example: run-twice -->\n```swift\n```", 1, "unknown example marker"),
        ("<!-- example: compile-only -->\n```sh\n```", 1, "not ```swift"),
        ("<!-- example: output -->\n```\n```", 2, "no Swift example"),
        ("<!-- example: setup\nlet x = 1\n", 1, "no closing"),
        ("```swift\nlet x = 1\n", 1, "never closed"),
        ("```swift\n```\n<!-- example: compile-only -->", 3, "no block after it"),
    ])
    func aMisplacedMarkerIsAnErrorNamingItsLine(text: String, line: Int, message: String) {
        #expect {
            _ = try ReadmeExample.parse(text)
        } throws: { error in
            guard let error = error as? ReadmeExample.ParseError else { return false }
            return error.line == line && error.message.contains(message)
        }
    }

    /// The slow half: a scratch package in `.build-readme` with one executable per example, built once, each run.
    @Test(
        .enabled(
            if: buildAll,
            "builds a package of its own (minutes): MISCHIEF_README_EXAMPLES=1 or Scripts/readme-examples.sh"),
        .timeLimit(.minutes(30)))
    func everyExampleBuildsRunsAndPrintsWhatTheReadmeShows() async throws {
        let examples = try Self.examples()
        let package = try ReadmePackage.write(examples, root: Self.root)
        try await package.build()
        for example in examples where !example.compileOnly {
            let result = try await package.run(example)
            #expect(result.status == 0, "\(example.location) exited \(result.status):\n\(result.error)")
            let shown = (example.expectedOutput ?? []).joined(separator: "\n")
            #expect(
                example.outputMatches(result.output),
                "\(example.location) printed:\n\(result.output)\nthe document shows:\n\(shown)")
        }
    }
}
