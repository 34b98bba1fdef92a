import ArgumentParser
import Foundation
import Testing

@testable import MischiefCLI

/// Every `mischief …` command line in the code blocks of README.md and of the DocC articles (`Sources/*/*.docc/*.md`,
/// the documents ``ReadmeExamplesTests`` reads) parses with the CLI's own parser: an option a page teaches that the
/// CLI does not have (`mischief attach --socket PATH` was one) fails here, named by file and line.
@Suite struct ReadmeCommandLinesTests {
    /// Each document's `mischief` command lines, with the document's path relative to the package.
    static func documentedCommandLines() throws -> [(file: String, line: Int, arguments: [String])] {
        try ReadmeExamplesTests.documents().flatMap { document in
            commandLines(in: try ReadmeExamplesTests.text(of: document)).map { (document, $0.line, $0.arguments) }
        }
    }

    /// The `mischief` command lines of a document's code blocks, as argument vectors (after `mischief`), with the
    /// line number.
    static func commandLines(in text: String) -> [(line: Int, arguments: [String])] {
        var found: [(Int, [String])] = []
        var inCode = false
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inCode.toggle()
                continue
            }
            guard inCode else { continue }
            let words = words(of: String(line))
            // The command, after environment assignments and shell keywords: `VAR=x mischief …`, `then mischief …`.
            var rest = words[...]
            while let first = rest.first, first.contains("=") || ["then", "else", "if", "swift", "run"].contains(first)
            {
                rest = rest.dropFirst()
            }
            guard rest.first == "mischief", rest.count > 1, words.first != "#" else { continue }
            found.append((number + 1, Array(rest.dropFirst())))
        }
        return found
    }

    /// A line's words as sh splits them (quotes removed), up to a comment or the end of the command (`;`, `|`, `||`,
    /// `&&`); `[--json]`-style optional parts are taken as given.
    static func words(of line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var hasWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                hasWord = true
            case " ", "\t":
                if hasWord { words.append(current) }
                current = ""
                hasWord = false
            case "#" where !hasWord, ";", "|", "&":
                if hasWord { words.append(current) }
                return words.map { $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0 }
            default:
                current.append(character)
                hasWord = true
            }
        }
        if hasWord { words.append(current) }
        return words.map { $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0 }
    }

    @Test func theDocumentsHaveCommandLines() throws {
        let lines = try Self.documentedCommandLines()
        #expect(lines.filter { $0.file == "README.md" }.count >= 3, "\(lines)")
        #expect(lines.count >= 20, "\(lines)")
        #expect(lines.contains { $0.arguments == ["attach", "--socket", "~/fleet/orders-hostA.sock"] })
        #expect(Set(lines.map(\.file)).count >= 3, "command lines are read from the articles too")
    }

    @Test func everyCommandLineInTheDocumentsParses() throws {
        for (file, line, arguments) in try Self.documentedCommandLines() {
            do {
                _ = try MischiefCommand.parseAsRoot(arguments)
            } catch {
                Issue.record(
                    "\(file):\(line): mischief \(arguments.joined(separator: " ")): \(MischiefCommand.message(for: error))"
                )
            }
        }
    }

    @Test func attachTakesTheSocketAsAnArgumentOrAnOption() throws {
        let option = try #require(
            try MischiefCommand.parseAsRoot(["attach", "--socket", "/tmp/x.sock"]) as? AttachCommand)
        #expect(option.socketOption == "/tmp/x.sock")
        let argument = try #require(try MischiefCommand.parseAsRoot(["attach", "/tmp/x.sock"]) as? AttachCommand)
        #expect(argument.socket == "/tmp/x.sock")
        #expect(throws: (any Error).self) {
            try MischiefCommand.parseAsRoot(["attach", "/a.sock", "--socket", "/b.sock"])
        }
    }
}
