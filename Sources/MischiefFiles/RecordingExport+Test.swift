import Mischief

extension RecordingExport {
    /// A Swift Testing test file applying the layers for one test with MischiefTesting's `.mischief` trait: a
    /// profile for each seed, so each spec draws what it drew when recorded, and a placeholder where the developer
    /// calls their code.
    func testSource(name: String, registry: String?) -> String {
        var lines = [
            "// Exported by `mischief export --as test` from a recording of",
            "// \(origin).",
        ]
        if !layers.isEmpty {
            lines.append("// The changes applied when it ended, each with the seed it drew from:")
            lines += layers.map { "//   " + summary(of: $0) }
        }
        lines += notes(for: .test).map { "// Not exported: " + $0 }
        let registryName = registry.map(Self.oneLine) ?? "Registry.shared"
        lines.append("// The trait looks the seams up in \(registryName) when the test starts: register them first.")
        lines += ["", "import Mischief", "import MischiefTesting", "import Testing", ""]

        let indent = String(repeating: " ", count: 4)
        var changes = profiles(named: name).filter { !$0.entries.isEmpty }.map { profile in
            let seed = profile.seed ?? header.sessionSeed
            var change = [
                indent + indent + ".profile(",
                indent + indent + indent + "Profile(",
                indent + indent + indent + indent + "name: \(Self.swiftLiteral(profile.name)), seed: \(seed),",
                indent + indent + indent + indent + "entries: [",
            ]
            // A trailing comma after each entry when there are several, as swift-format writes them.
            let comma = profile.entries.count > 1 ? "," : ""
            change += profile.entries.map { entry in
                let seam = Self.swiftLiteral(entry.seam)
                return indent + indent + indent + indent + indent
                    + ".init(seam: \(seam), spec: \(Self.swiftLiteral(entry.spec)))\(comma)"
            }
            change += ["                ]))"]
            return change
        }
        if let registry { changes.append(["        registry: \(registry)"]) }
        lines += ["@Test(", "    \(Self.swiftLiteral(name)),"]
        if changes.isEmpty {
            lines.append("    .mischief()")
        } else {
            lines.append("    .mischief(")
            for (index, change) in changes.enumerated() {
                var change = change
                if index < changes.count - 1 { change[change.count - 1] += "," }
                lines += change
            }
            lines[lines.count - 1] += ")"
        }
        lines[lines.count - 1] += ")"
        lines += [
            "func recordedSession() async throws {",
            "    // Call the code under test here, then #expect what it should do under this chaos.",
            "}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a test scope cannot carry: times to live (its changes last as long as the test) and sources.
    var testNotes: [String] {
        layers.compactMap { layer in
            layer.ttl.map {
                "\(layer.seam): its ttl of \(SpecDuration($0)) (a test's changes last as long as the test)"
            }
        }
    }

    /// `text` as a Swift string literal: plain when it can be, raw (`#"…"#`) when it holds quotes or backslashes,
    /// escaped when it holds line breaks or other controls.
    static func swiftLiteral(_ text: String) -> String {
        let needsEscapes = text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        if needsEscapes {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\": result += "\\\\"
                case "\"": result += "\\\""
                case "\n": result += "\\n"
                case "\r": result += "\\r"
                case "\t": result += "\\t"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result + "\""
        }
        guard text.contains("\"") || text.contains("\\") else { return "\"\(text)\"" }
        // Enough #s that no `"#…` inside ends the literal and no `\#…(` interpolates.
        var longest = 0
        var run = -1
        for character in text {
            if character == "\"" || character == "\\" {
                run = 0
            } else if character == "#", run >= 0 {
                run += 1
                longest = max(longest, run)
            } else {
                run = -1
            }
        }
        let hashes = String(repeating: "#", count: longest + 1)
        return hashes + "\"" + text + "\"" + hashes
    }
}
