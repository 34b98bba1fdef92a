import MischiefFiles

/// Bytes as a profile file: never a crash; every problem is located at a line and column inside the text.
let yamlProfileHarness = FuzzHarness(name: "yaml-profile", summary: "bytes as a profile YAML file; errors located") {
    bytes in
    let text = String(decoding: bytes, as: UTF8.self)
    let profiles: [ProfileFile]
    do throws(FileErrors) {
        let decoded = try ProfileFile.loadDecoded(text: text, file: "fuzz.yaml")
        checkLocations(decoded.warnings, in: text)
        profiles = decoded.value
    } catch {
        fuzzCheck(!error.diagnostics.isEmpty, "an error without a diagnostic")
        checkLocations(error.diagnostics, in: text)
        return
    }
    // Every column of every spec maps to a place in the file, and saving gives text that loads back equal.
    for profile in profiles {
        for entry in profile.entries {
            for column in [1, 2, entry.spec.unicodeScalars.count, entry.spec.unicodeScalars.count + 1] {
                guard let location = entry.specLocation(column: column) else { continue }
                checkLocations([.error(at: location, "spec column \(column)")], in: text)
            }
        }
        checkLocations(ProfileFile.check([profile]) { _ in .spec("bad", column: 3) }, in: text)
        let saved = profile.yaml()
        do throws(FileErrors) {
            let back = try ProfileFile.load(text: saved, file: "saved.yaml").map { $0.withoutLocations() }
            fuzzCheck(back == [profile.withoutLocations()], "a saved profile loads back different:\n\(saved)")
        } catch {
            fuzzCheck(false, "a saved profile does not load: \(error)\n\(saved)")
        }
    }
}

/// Checks that each diagnostic names `fuzz.yaml` at a line of `text` and a column on it (or just past its end).
func checkLocations(_ diagnostics: [FileDiagnostic], in text: String) {
    let lengths = lineLengths(of: text)
    for diagnostic in diagnostics {
        let location = diagnostic.location
        fuzzCheck(
            location.line >= 1 && location.line <= lengths.count,
            "line \(location.line) outside 1...\(lengths.count): \(diagnostic)")
        let length = lengths[location.line - 1]
        fuzzCheck(
            location.column >= 1 && location.column <= length + 1,
            "column \(location.column) outside 1...\(length + 1) on line \(location.line): \(diagnostic)")
    }
}

/// The length in Unicode scalars of each line, as YAML counts lines (`\n`, `\r\n`, `\r`, U+0085, U+2028, U+2029).
func lineLengths(of text: String) -> [Int] {
    var lengths = [0]
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n" where previous == "\r":
            break
        case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
            lengths.append(0)
        default:
            lengths[lengths.count - 1] += 1
        }
        previous = scalar
    }
    return lengths
}
