import Foundation
import Testing

/// The codebase guide's module table (`docs/dev/CodebaseGuide.md`) is `Package.swift`'s targets and their
/// dependencies: a target added, removed or given another edge in one and not the other fails here.
@Suite struct CodebaseGuideTests {
    static let guide = "docs/dev/CodebaseGuide.md"

    /// The guide's modules and what each depends on, from the rows between its `modules:begin` and `modules:end`
    /// markers: the first cell's module, the last cell's dependencies (`—` for none).
    static func guideModules(_ text: String) throws -> [String: Set<String>] {
        let begin = try #require(text.range(of: "<!-- modules:begin -->"), "\(guide) has no modules:begin")
        let end = try #require(
            text.range(of: "<!-- modules:end -->", range: begin.upperBound..<text.endIndex),
            "\(guide) has no modules:end")
        var modules: [String: Set<String>] = [:]
        for line in text[begin.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let dependencies = cells[cells.count - 2].matches(of: /`([^`]+)`/).map { String($0.output.1) }
            #expect(modules[name] == nil, "\(guide) lists \(name) twice")
            modules[name] = Set(dependencies)
        }
        return modules
    }

    /// `Package.swift`'s library and executable targets (test targets, system libraries' dependencies and the test
    /// tools under `Tests/` aside) with their dependencies, products by product name.
    static func manifestModules(_ text: String) -> [String: Set<String>] {
        // Comments out (a `//` after a space or at a line's start, so `https://` stays).
        let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.firstRange(of: /(^|\s)\/\//).map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
        var modules: [String: Set<String>] = [:]
        for match in code.matches(of: /\.(target|executableTarget|systemLibrary|testTarget)\(/) {
            guard match.output.1 != "testTarget", let body = balanced(code, from: match.range.upperBound, "(", ")")
            else { continue }
            guard let name = body.firstMatch(of: /name:\s*"([^"]+)"/)?.output.1,
                body.firstMatch(of: /path:\s*"Tests\//) == nil
            else { continue }
            var dependencies: Set<String> = []
            if let start = body.firstRange(of: /dependencies:\s*\[/),
                let list = balanced(body, from: start.upperBound, "[", "]")
            {
                var rest = list
                for product in list.matches(of: /\.product\(\s*name:\s*"([^"]+)"[^)]*\)/) {
                    dependencies.insert(String(product.output.1))
                    rest = rest.replacingOccurrences(of: String(product.output.0), with: "")
                }
                for target in rest.matches(of: /"([^"]+)"/) { dependencies.insert(String(target.output.1)) }
            }
            modules[String(name)] = dependencies
        }
        return modules
    }

    /// The text between an opening bracket just before `start` and the bracket that closes it.
    static func balanced(_ text: String, from start: String.Index, _ open: Character, _ close: Character) -> String? {
        var depth = 1
        var index = start
        while index < text.endIndex {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return String(text[start..<index]) }
            }
            index = text.index(after: index)
        }
        return nil
    }

    @Test func theModuleTableIsThePackage() throws {
        let root = ReadmeExamplesTests.root
        let guide = try Self.guideModules(
            try String(contentsOf: root.appendingPathComponent(Self.guide), encoding: .utf8))
        let manifest = Self.manifestModules(
            try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
        #expect(manifest.count >= 20, "Package.swift read as \(manifest)")
        for name in Set(guide.keys).union(manifest.keys).sorted() {
            guard let listed = guide[name] else {
                Issue.record("\(name) is a target of Package.swift but not in \(Self.guide)'s module table")
                continue
            }
            guard let declared = manifest[name] else {
                Issue.record("\(Self.guide) lists \(name), which Package.swift does not have")
                continue
            }
            #expect(
                listed == declared,
                """
                \(name): \(Self.guide) says it depends on \(listed.sorted()), Package.swift on \(declared.sorted()) \
                (missing from the guide: \(declared.subtracting(listed).sorted()); not in Package.swift: \
                \(listed.subtracting(declared).sorted()))
                """)
        }
    }

    @Test func theReadmeAndContributingLinkTheGuide() throws {
        for document in ["README.md", "CONTRIBUTING.md"] {
            let text = try ReadmeExamplesTests.text(of: document)
            #expect(text.contains("(docs/dev/CodebaseGuide.md"), "\(document) does not link the codebase guide")
        }
    }
}
