import Mischief

extension RecordingExport {
    /// A Swift Testing test file that replays the recording in the test's own scope with MischiefTesting's
    /// `.replaying` trait: the recording is embedded as data (its lines as string literals), each change is made
    /// after the same call of its seam, and the decisions the calls get are checked against the recorded ones.
    ///
    /// - Parameters:
    ///   - name: The test's display name; the suite's type is named after it.
    ///   - registry: The Swift expression of the registry the seams are registered in (`Registry.shared` when nil).
    ///   - register: The Swift expression of a function `(Registry) throws -> Void` that registers the seams; when
    ///     nil, the generated `registerSeams(in:)` says where to register them.
    ///   - body: Swift statements that run the code under test; when nil, a comment says to call it there.
    ///   - imports: More modules to import (the app's), each a module name.
    func testSource(name: String, registry: String?, register: String?, body: String?, imports: [String]) -> String {
        let type = Self.typeName(name)
        let registryName = registry.map(Self.oneLine) ?? "Registry.shared"
        let schedule = try? ReplaySchedule(recording)
        let seams = Set(
            (schedule?.steps.compactMap(\.seam) ?? []) + (schedule?.decisions.map(\.seam) ?? [])
        ).sorted().map(\.description)
        var lines = [
            "// Exported by `mischief export --as test` from a recording of",
            "// \(origin).",
            "// The test replays it in its own scope: each change is made after the same call of its seam as when it was",
            "// recorded, and the decisions the calls get are checked against the recorded ones; the first that differs,",
            "// or a change whose calls never come, fails the test with both values.",
        ]
        if let schedule, !schedule.steps.isEmpty {
            lines.append("// The changes, and when:")
            lines += schedule.steps.map { "//   " + Self.oneLine($0.description(of: schedule.steps.count)) }
        }
        if let decisions = schedule?.decisions.count, decisions > 0 {
            lines.append("// Decisions checked: \(decisions).")
        }
        lines += notes(for: .test).map { "// Not exported: " + $0 }
        lines += Self.wrappedComment(
            "The seams it names (\(seams.isEmpty ? "none" : seams.joined(separator: ", "))) are looked up in "
                + "\(registryName); the trait calls `\(type).registerSeams(in:)` when the test starts, before the "
                + "replay, so the test registers what it needs itself"
                + (register == nil
                    ? ": register your app's seams there, as your app does (registering a seam again is harmless)."
                    : "."))
        // A module name is letters, digits, `_` and `.`; anything else is not imported (never injected).
        let modules = Set(
            ["Mischief", "MischiefTesting", "Testing"]
                + imports.filter { name in
                    !name.isEmpty
                        && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
                })
        lines += [""] + modules.sorted().map { "import \($0)" } + [""]

        lines.append("struct \(type) {")
        lines.append("    /// The recording, a line each, as it was written.")
        lines.append("    static let recording: [String] = [")
        let recorded = recording.jsonLines.split(separator: "\n", omittingEmptySubsequences: true)
        lines += recorded.map { "        " + Self.swiftLiteral(String($0)) + "," }
        lines.append("    ]")
        lines.append("")
        lines.append("    /// Registers the seams the recording names in `registry`, when the test starts.")
        lines.append("    @Sendable static func registerSeams(in registry: Registry) throws {")
        if let register = register.map(Self.oneLine) {
            // `AppSeams.register(in:)` reads best called with its label.
            lines.append(
                register.hasSuffix("(in:)")
                    ? "        try \(register.dropLast(5))(in: registry)" : "        try \(register)(registry)")
        } else {
            lines.append("        // Register your app's seams here, as it does when it starts:")
            lines.append("        // try registry.register(AppSeams.fetch, AppSeams.clock.seam)")
        }
        lines.append("    }")
        lines.append("")
        var arguments = ["\(type).recording"]
        if let registry { arguments.append("registry: \(Self.oneLine(registry))") }
        arguments.append("registering: \(type).registerSeams(in:)")
        lines += ["    @Test(", "        \(Self.swiftLiteral(name)),"]
        lines += Self.call(".replaying", arguments: arguments, indent: 8, end: "))")
        lines.append("    func replaysTheRecordedSession() async throws {")
        if let body {
            lines += body.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }
        } else {
            lines.append(
                "        // Call the code under test here, as the recorded session did: the replay makes each change")
            lines.append("        // after the same call of its seam, and checks the decisions when the test ends.")
        }
        lines += ["    }", "}"]
        return lines.map { $0.hasSuffix(" ") ? String($0.reversed().drop { $0 == " " }.reversed()) : $0 }
            .joined(separator: "\n") + "\n"
    }

    /// What the test cannot replay: times to live (its changes last as long as the test), advances of virtual time,
    /// a recording it cannot read; and what ``notes`` says besides, but for covered layers (a replay makes them all).
    var testNotes: [String] {
        var notes: [String] = []
        do {
            let schedule = try ReplaySchedule(recording)
            for step in schedule.steps {
                if step.action == .advance {
                    notes.append(
                        "line \(step.line): \(step.what), which a test's replay cannot do (the test diverges there)")
                } else if let ttl = step.ttl.flatMap(Self.ttl), step.action == .apply {
                    notes.append(
                        "\(step.seam.map(\.description) ?? "?"): its ttl of \(SpecDuration(ttl)) (a test's changes last"
                            + " as long as the test)")
                }
            }
        } catch {
            notes.append("line \(error.line): \(Self.oneLine(error.reason)): the test cannot replay the recording")
        }
        return notes
    }

    /// `name(a, b)` followed by `end` at `indent` spaces, on one line when it fits in 120 columns, else with its
    /// arguments on the lines after it, as many a line as fit (as swift-format lays out a call).
    static func call(_ name: String, arguments: [String], indent: Int, end: String) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let one = pad + name + "(" + arguments.joined(separator: ", ") + end
        guard one.count > 120 else { return [one] }
        var lines = [pad + name + "("]
        let inner = pad + "    "
        var current = ""
        for (index, argument) in arguments.enumerated() {
            let piece = argument + (index == arguments.count - 1 ? end : ",")
            if current.isEmpty {
                current = inner + piece
            } else if current.count + 1 + piece.count <= 120 {
                current += " " + piece
            } else {
                lines.append(current)
                current = inner + piece
            }
        }
        lines.append(current)
        return lines
    }

    /// `Recorded shop` → `RecordedShopReplay`: the ASCII letters and digits of `name` in upper camel case.
    static func typeName(_ name: String) -> String {
        let words = name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let camel = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        let start = camel.first.map { $0.isNumber } ?? true ? "Recorded" + camel : camel
        return start + "Replay"
    }

    /// `text` as `//` lines of at most 120 columns, broken between words.
    static func wrappedComment(_ text: String) -> [String] {
        var lines: [String] = []
        var current = "//"
        for word in text.split(separator: " ") {
            if current.count + 1 + word.count > 120, current != "//" {
                lines.append(current)
                current = "//"
            }
            current += " " + word
        }
        lines.append(current)
        return lines
    }

    /// `text` as a Swift string literal: plain when it can be, raw (`#"…"#`) when it holds quotes or backslashes,
    /// escaped when it holds line breaks, other controls or bidirectional controls (which would make the source read
    /// otherwise than it compiles: a test's name from a live session may hold any).
    static func swiftLiteral(_ text: String) -> String {
        let needsEscapes = text.unicodeScalars.contains(where: escapedInLiteral)
        if needsEscapes {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\": result += "\\\\"
                case "\"": result += "\\\""
                case "\n": result += "\\n"
                case "\r": result += "\\r"
                case "\t": result += "\\t"
                case _ where escapedInLiteral(scalar):
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

    /// Whether a literal writes `scalar` as `\u{…}`: C0 and C1 controls, DEL, line and paragraph separators, and
    /// the bidirectional controls and marks (as ``oneLine(_:)`` escapes them in comments).
    static func escapedInLiteral(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || value == 0x2028 || value == 0x2029 || value == 0x061C
            || value == 0x200E || value == 0x200F
    }
}
