import Foundation
import Mischief
import MischiefFiles

/// A recording from the input (``HostileRecording``: specs, seams, sources and messages that try to end a Swift
/// literal or comment, a YAML scalar or a shell quote) exported as a test, a profile and a `MISCHIEF_APPLY` line.
/// Checked by structure, not by text: the Swift has exactly one `@Test` and nothing from the input outside a string
/// literal or a comment; the YAML loads back as the profiles exported, with no key the export did not write; the
/// shell line is two assignments whose quoted value is the export's.
let exportHarness = FuzzHarness(name: "export", summary: "a hostile recording exported as test, profile and env") {
    bytes in
    guard let recording = try? Recording(jsonLines: HostileRecording(bytes).text) else { return }
    let export = RecordingExport(recording)

    let swift = export.text(as: .test)
    switch swiftCode(swift) {
    case .failure(let problem):
        fuzzCheck(false, "the test export does not lex: \(problem.reason)\n\(swift)")
    case .success(let code):
        fuzzCheck(code.components(separatedBy: "@Test").count == 2, "not exactly one @Test outside literals:\n\(swift)")
        fuzzCheck(!code.contains("INJECTED"), "input outside a literal or a comment:\n\(swift)")
    }

    let yaml = export.text(as: .profile)
    do throws(FileErrors) {
        let decoded = try ProfileFile.loadDecoded(text: yaml, file: "export.yaml")
        fuzzCheck(decoded.warnings.isEmpty, "the profile export loads with warnings \(decoded.warnings):\n\(yaml)")
        let expected = export.profiles(named: "Recorded fuzz").map { $0.withoutLocations() }
        fuzzCheck(
            decoded.value.map { $0.withoutLocations() } == expected, "the profile export loads back different:\n\(yaml)"
        )
    } catch {
        fuzzCheck(false, "the profile export does not load: \(error)\n\(yaml)")
    }

    let env = export.text(as: .env)
    fuzzCheck(env.hasSuffix("\n") && env.dropLast().allSatisfy { $0 != "\n" && $0 != "\r" }, "not one line:\n\(env)")
    switch shellWords(String(env.dropLast())) {
    case .failure(let problem):
        fuzzCheck(false, "the env export is not two plain assignments: \(problem.reason)\n\(env)")
    case .success(let words):
        fuzzCheck(
            words == ["MISCHIEF_SEED=\(export.environmentSeed)", "MISCHIEF_APPLY=\(export.environmentValue)"],
            "the env export splits into \(words):\n\(env)")
    }
}

/// Why a text is not what an export may write.
struct ExportProblem: Error {
    let reason: String
}

/// The Swift code of `source` outside comments and string literals (each literal as `S`), or why it cannot be lexed
/// as the export's Swift may be: no block comment, no multi-line literal, no interpolation, no literal left open at
/// the end of a line.
func swiftCode(_ source: String) -> Result<String, ExportProblem> {
    let scalars = Array(source.unicodeScalars)
    var code = String.UnicodeScalarView()
    var index = 0
    func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    while index < scalars.count {
        let scalar = scalars[index]
        if scalar == "/", at(1) == "/" {
            while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
            continue
        }
        if scalar == "/", at(1) == "*" { return .failure(ExportProblem(reason: "a block comment")) }
        var hashes = 0
        while at(hashes) == "#" { hashes += 1 }
        guard at(hashes) == "\"" else {
            code.append(scalar)
            index += 1
            continue
        }
        if at(hashes + 1) == "\"", at(hashes + 2) == "\"" {
            return .failure(ExportProblem(reason: "a multi-line literal"))
        }
        index += hashes + 1
        // Whether the literal's #s follow `offset` scalars on (none for a plain literal).
        func delimiterFollows(_ offset: Int) -> Bool { (0..<hashes).allSatisfy { at(offset + $0) == "#" } }
        var closed = false
        while index < scalars.count {
            let inner = scalars[index]
            if inner == "\n" || inner == "\r" { return .failure(ExportProblem(reason: "a literal left open")) }
            if inner == "\\", delimiterFollows(1) {
                if at(hashes + 1) == "(" { return .failure(ExportProblem(reason: "an interpolation")) }
                index += hashes + 2  // the escape and the character it escapes
                continue
            }
            if inner == "\"", delimiterFollows(1) {
                index += hashes + 1
                closed = true
                break
            }
            index += 1
        }
        guard closed else { return .failure(ExportProblem(reason: "a literal left open at the end")) }
        code.append("S")
    }
    return .success(String(code))
}

/// The words of a POSIX shell line made only of words and single-quoted text, or why it is more: any operator,
/// expansion, double quote or line break outside single quotes.
func shellWords(_ line: String) -> Result<[String], ExportProblem> {
    var words: [String] = []
    var word: String?
    var quoted = false
    var escaped = false
    for character in line {
        if quoted {
            if character == "'" { quoted = false } else { word!.append(character) }
        } else if escaped {
            word = (word ?? "") + String(character)
            escaped = false
        } else if character == " " {
            if let done = word { words.append(done) }
            word = nil
        } else if character == "'" {
            quoted = true
            word = word ?? ""
        } else if character == "\\" {
            escaped = true
        } else if ";|&<>()$`\"\n\r\t*?[]{}~#!".contains(character) {
            return .failure(ExportProblem(reason: "'\(character)' outside single quotes"))
        } else {
            word = (word ?? "") + String(character)
        }
    }
    guard !quoted, !escaped else { return .failure(ExportProblem(reason: "a quote left open")) }
    if let done = word { words.append(done) }
    return .success(words)
}
