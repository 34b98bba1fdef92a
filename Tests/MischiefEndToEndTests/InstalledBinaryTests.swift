import Foundation
import MischiefTestSupport
import Testing

/// `mischief` copied out of the build, run from a directory that is not the repository: everything it ships (the
/// themes, the demo's preset profiles) is inside the binary, not in `./themes` or a resource bundle next to it.
@Suite(.oneAtATime) struct InstalledBinaryTests {
    /// A fresh directory holding `bin/mischief` (a copy of the built binary), an empty `work/` and `config/`.
    private final class Installation {
        let root: URL
        var binary: URL { root.appendingPathComponent("bin/mischief") }
        var work: URL { root.appendingPathComponent("work") }
        var config: URL { root.appendingPathComponent("config") }

        init() throws {
            root = try HeadlessDemo.makeDirectory()
            for directory in ["bin", "work", "config"] {
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(directory), withIntermediateDirectories: true)
            }
            try FileManager.default.copyItem(at: CLI.binary, to: binary)
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    static let shippedThemes = ["default", "light", "mono", "solarized-dark"]

    @Test func themesListsEveryShippedThemeAsBuiltIn() throws {
        let installation = try Installation()
        let process = Process()
        process.executableURL = installation.binary
        process.arguments = ["themes", "--no-color"]
        process.currentDirectoryURL = installation.work
        process.environment = ["XDG_CONFIG_HOME": installation.config.path, "HOME": installation.root.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for name in Self.shippedThemes {
            #expect(text.contains("\n  \(name) "), "\(name) is listed: \(text)")
            #expect(text.contains("\n\(name) — built in\n"), "\(name) is previewed as built in")
        }
    }

    @Test func theDemoHasEveryPresetAndCyclesEveryTheme() async throws {
        let installation = try Installation()
        let console = try await ConsoleInTmux.start(seed: 5, binary: installation.binary, width: 200, height: 60)
        defer { console.stop() }
        let screen = DemoScreen(console.tmux.screen(console.session))
        let presets = [
            "Tomorrow", "Tokyo", "German-length UI", "Right-to-left", "Flaky network", "Garbage models", "Year 2038",
            "Frozen time",
        ]
        for preset in presets {
            #expect(screen.text.contains(preset), "preset \(preset) is on the profile bar")
        }
        // The console starts on `default`; `t` goes through the others in name order and back.
        for name in ["light", "mono", "solarized-dark", "default"] {
            try console.tmux.send(console.session, keys: "t")
            _ = try await console.tmux.wait(for: "theme \(name)", in: console.session) { text in
                DemoScreen(text).statusLine.contains("theme \(name)") ? true : nil
            }
        }
    }
}
