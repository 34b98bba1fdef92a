import Foundation
import MischiefTestSupport
import Testing

/// `mischief themes`, run as a user would, with an empty config directory so the user's own themes stay out.
@Suite(.oneAtATime) struct ThemesCommandTests {
    /// The repository root, whose `themes/` holds the shipped themes.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A fresh directory, removed when `body` returns.
    private func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }

    /// Runs `mischief themes` with no user config and `NO_COLOR` unset (empty), in `directory`.
    private func themes(_ arguments: [String], in directory: URL, config: URL, noColor: String = "") throws
        -> CLI.Result
    {
        try CLI.run(
            ["themes"] + arguments,
            environment: ["XDG_CONFIG_HOME": config.path, "NO_COLOR": noColor], directory: directory)
    }

    @Test func listsAndPreviewsTheShippedThemes() throws {
        try withDirectory { config in
            let result = try themes(["--no-color"], in: Self.repository, config: config)
            #expect(result.status == 0)
            #expect(result.error == "")
            for name in ["default", "light", "mono", "solarized-dark"] {
                #expect(result.output.contains("\n  \(name) "), "\(name) is listed")
                #expect(result.output.contains("\n\(name) — themes/\(name).yaml\n"), "\(name) is previewed")
            }
            #expect(result.output.contains("    selection   #000000 on #87afd7\n"))
            #expect(result.output.contains("    selection   default reverse\n"))
            #expect(!result.output.contains("\u{1B}"))
        }
    }

    @Test func aThemeNamedWithThemeIsTheOnlyOnePreviewed() throws {
        try withDirectory { config in
            // Output to a pipe is plain even without --no-color.
            let result = try themes(["--theme", "light", "--depth", "truecolor"], in: Self.repository, config: config)
            #expect(result.status == 0)
            #expect(result.output.contains("\nlight — themes/light.yaml\n  For light terminal backgrounds\n"))
            #expect(!result.output.contains("\ndefault — "))
            #expect(!result.output.contains("\u{1B}"))
        }
    }

    @Test func aBrokenThemePathNamesTheLineAndExitsOne() throws {
        try withDirectory { directory in
            let file = directory.appendingPathComponent("broken.yaml")
            try Data("name: broken\nmuted: \"#8a8a8\"\n".utf8).write(to: file)
            let result = try themes(["--theme", "broken.yaml"], in: directory, config: directory)
            #expect(result.status == 1)
            #expect(result.error.hasPrefix("broken.yaml:2:8: error: invalid colour \"#8a8a8\" for 'muted'"))
            // Still lists what it found: only the built-in themes here, every shipped one.
            #expect(
                result.output.contains(
                    "\n  default         built in\n  light           built in\n  mono            built in\n"
                        + "  solarized-dark  built in\n"))
        }
    }

    @Test func problemsInListedFilesAreReported() throws {
        try withDirectory { directory in
            let themes = directory.appendingPathComponent("themes")
            try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
            try Data("name: broken\ntitle: { bold: maybe }\n".utf8).write(
                to: themes.appendingPathComponent("broken.yaml"))
            try Data("name: typo\ntxet: red\n".utf8).write(to: themes.appendingPathComponent("typo.yaml"))
            let result = try self.themes([], in: directory, config: directory)
            #expect(result.status == 1)
            #expect(result.output.contains("  broken          themes/broken.yaml  (1 error; not usable)\n"))
            #expect(result.output.contains("  typo            themes/typo.yaml  (1 warning)\n"))
            #expect(result.output.contains("\ntypo — themes/typo.yaml\n"))
            #expect(!result.output.contains("\nbroken — "))
            #expect(
                result.error == """
                    themes/broken.yaml:2:16: error: expected true or false for 'bold', found "maybe"
                    themes/typo.yaml:2:1: warning: unknown key 'txet'; did you mean 'text'?

                    """)
            // Only the chosen theme decides the exit status.
            let chosen = try self.themes(["--theme", "typo"], in: directory, config: directory)
            #expect(chosen.status == 0)
            #expect(chosen.error == "themes/typo.yaml:2:1: warning: unknown key 'txet'; did you mean 'text'?\n")
        }
    }

    @Test func noColorIsNoted() throws {
        try withDirectory { config in
            let result = try themes([], in: config, config: config, noColor: "1")
            #expect(result.status == 0)
            #expect(result.output.contains("NO_COLOR is set, so the console uses the mono theme"))
            #expect(!result.output.contains("\u{1B}"))
        }
    }

    @Test func anUnknownThemeSuggestsOne() throws {
        try withDirectory { config in
            let result = try themes(["--theme", "lihgt"], in: Self.repository, config: config)
            #expect(result.status == 1)
            #expect(result.error.hasPrefix("--theme lihgt: error: no theme named 'lihgt' (did you mean 'light'?)"))
        }
    }
}
