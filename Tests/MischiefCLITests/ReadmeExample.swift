import Foundation

/// One ```` ```swift ```` block of README.md or of a DocC article, with what the `<!-- example: … -->` comments
/// before it say (DocC drops HTML comments, so readers of neither see them).
///
/// Every Swift block in those documents is an example that ``ReadmeExamplesTests`` builds as an executable of its
/// own in a scratch package that depends on this one by path, and runs. Comments on the lines before a block say
/// more:
///
/// - `<!-- example: compile-only -->`: build it, do not run it (it needs something a test does not have).
/// - `<!-- example: setup` … `-->`: Swift lines put before the block, hidden from readers (a stand-in model, the
///   JSON it decodes).
/// - `<!-- example: output -->` before a plain ```` ``` ```` block after a Swift block: what that example prints,
///   line for line; a `…` in a line stands for any text (a time that varies).
struct ReadmeExample: Equatable {
    /// The document, relative to the package: `README.md`, `Sources/Mischief/Mischief.docc/GettingStarted.md`.
    var file = "README.md"
    /// The line of the opening fence, 1-based.
    let line: Int
    /// Hidden lines from `<!-- example: setup … -->`.
    var setup: [String] = []
    /// The block's lines.
    var code: [String] = []
    var compileOnly = false
    /// What the README shows it prints, if it shows anything.
    var expectedOutput: [String]?

    /// The executable target's name in the scratch package: `Readme97`, `MischiefGettingStarted12`.
    var name: String {
        let parts = file.split(separator: "/").map { $0.split(separator: ".")[0] }
        let stem = file == "README.md" ? ["Readme"] : parts.suffix(2)
        return stem.joined() + "\(line)"
    }

    /// Where the block is, for messages: `README.md:97`.
    var location: String { "\(file):\(line)" }

    /// The modules the example imports, in order.
    var imports: [String] {
        (setup + code).compactMap { line in
            let words = line.split(separator: " ")
            return words.count == 2 && words[0] == "import" ? String(words[1]) : nil
        }
    }

    /// The example's main.swift: setup, then the block, imports first.
    var source: String {
        let all = setup + code
        let importLines = all.filter { $0.hasPrefix("import ") }
        let rest = all.filter { !$0.hasPrefix("import ") }
        return (importLines + ["", "// \(location)"] + rest).joined(separator: "\n") + "\n"
    }

    /// Whether `actual` (what the example printed) is what the README shows; `…` matches any text within a line.
    func outputMatches(_ actual: String) -> Bool {
        guard let expectedOutput else { return true }
        let lines = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let printed = lines.last == "" ? Array(lines.dropLast()) : lines
        guard printed.count == expectedOutput.count else { return false }
        return zip(expectedOutput, printed).allSatisfy { expected, line in Self.line(line, matches: expected) }
    }

    private static func line(_ line: String, matches pattern: String) -> Bool {
        let parts = pattern.components(separatedBy: "…")
        guard parts.count > 1 else { return line == pattern }
        guard line.hasPrefix(parts[0]) else { return false }
        var rest = line.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(parts.last!)
    }
}

extension ReadmeExample {
    /// A README the examples cannot be read from: a marker that says nothing known, or is in the wrong place.
    struct ParseError: Error, CustomStringConvertible {
        let file: String
        let line: Int
        let message: String
        var description: String { "\(file):\(line): \(message)" }
    }

    /// The Swift examples of a README, in order.
    ///
    /// - Throws: ``ParseError`` for an unknown marker, a marker that no block follows, an output block with no Swift
    ///   block before it, or a fence left open.
    static func parse(_ text: String, file: String = "README.md") throws(ParseError) -> [ReadmeExample] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [ReadmeExample] = []
        var pending = ReadmeExample(line: 0)
        var pendingLine: Int?
        var outputNext = false
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let number = index + 1
            if line.hasPrefix("<!-- example:") {
                let marker = line.dropFirst("<!-- example:".count).trimmingCharacters(in: .whitespaces)
                switch marker {
                case "compile-only -->": pending.compileOnly = true
                case "output -->": outputNext = true
                case "setup":
                    guard let end = lines[(index + 1)...].firstIndex(of: "-->") else {
                        throw ParseError(
                            file: file, line: number, message: "a setup comment with no closing `-->` line")
                    }
                    pending.setup += lines[(index + 1)..<end]
                    index = end
                default:
                    throw ParseError(file: file, line: number, message: "unknown example marker `\(marker)`")
                }
                if marker != "output -->" { pendingLine = pendingLine ?? number }
                index += 1
                continue
            }
            guard line.hasPrefix("```") else {
                index += 1
                continue
            }
            guard let close = lines[(index + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else {
                throw ParseError(file: file, line: number, message: "a code block that is never closed")
            }
            let body = Array(lines[(index + 1)..<close])
            if line == "```swift" {
                guard !outputNext else {
                    throw ParseError(
                        file: file, line: number, message: "`example: output` must come before a plain block")
                }
                pending = ReadmeExample(
                    file: file, line: number, setup: pending.setup, code: body, compileOnly: pending.compileOnly)
                examples.append(pending)
                pending = ReadmeExample(line: 0)
                pendingLine = nil
            } else if let markerLine = pendingLine {
                throw ParseError(
                    file: file, line: markerLine, message: "an example marker before a block that is not ```swift")
            } else if outputNext {
                guard !examples.isEmpty, examples[examples.count - 1].expectedOutput == nil else {
                    throw ParseError(
                        file: file, line: number, message: "an output block with no Swift example of its own before it")
                }
                examples[examples.count - 1].expectedOutput = body
                outputNext = false
            }
            index = close + 1
        }
        if let pendingLine {
            throw ParseError(file: file, line: pendingLine, message: "an example marker with no block after it")
        }
        if outputNext {
            throw ParseError(file: file, line: lines.count, message: "`example: output` with no block after it")
        }
        return examples
    }
}
