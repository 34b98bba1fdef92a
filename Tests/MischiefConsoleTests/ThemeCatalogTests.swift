import Foundation
import MischiefConsole
import MischiefFiles
import Testing

/// A throwaway tree: `xdg/mischief/themes` and `work/themes`, removed when the test ends.
private final class ThemeDirectories {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-themes-\(UUID().uuidString)")
    var xdg: URL { root.appendingPathComponent("xdg/mischief/themes") }
    var work: URL { root.appendingPathComponent("work") }
    var local: URL { work.appendingPathComponent("themes") }

    init() throws {
        try FileManager.default.createDirectory(at: xdg, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Writes a theme file whose text colour tells where it is.
    @discardableResult
    func write(_ name: String, in directory: URL, text: String? = nil, colour: String = "red") throws -> URL {
        let url = directory.appendingPathComponent("\(name).yaml")
        try Data((text ?? "name: \(name)\ntext: \(colour)\n").utf8).write(to: url)
        return url
    }

    func catalog(_ extra: [String: String] = [:]) -> ThemeCatalog {
        ThemeCatalog(
            environment: ["XDG_CONFIG_HOME": root.appendingPathComponent("xdg").path].merging(extra) { $1 },
            currentDirectory: work.path)
    }
}

@Suite struct ThemeCatalogTests {
    @Test func theSearchPathIsXDGThenLocalThenBuiltIn() throws {
        let dirs = try ThemeDirectories()
        try dirs.write("ocean", in: dirs.xdg, colour: "blue")
        try dirs.write("ocean", in: dirs.local, colour: "green")
        try dirs.write("forest", in: dirs.local, colour: "green")
        try dirs.write("mono", in: dirs.local, colour: "cyan")
        let catalog = dirs.catalog()
        #expect(catalog.directories.map(\.path) == [dirs.xdg.path, dirs.local.path])

        let ocean = catalog.load("ocean")
        #expect(ocean.source == .file(dirs.xdg.appendingPathComponent("ocean.yaml").path))
        #expect(ocean.theme.palette[.text].foreground == .named(.blue))
        #expect(catalog.load("forest").theme.palette[.text].foreground == .named(.green))
        #expect(catalog.load("mono").theme.palette[.text].foreground == .named(.cyan))
        let standard = catalog.load()
        #expect(standard.theme == .default && standard.source == .builtIn && standard.reason == .requested)
    }

    @Test func anExplicitPathWinsOverEveryName() throws {
        let dirs = try ThemeDirectories()
        try dirs.write("ocean", in: dirs.xdg, colour: "blue")
        let elsewhere = dirs.root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let file = try dirs.write("ocean", in: elsewhere, colour: "magenta")
        let catalog = dirs.catalog()
        let absolute = catalog.load(file.path)
        #expect(absolute.theme.palette[.text].foreground == .named(.magenta))
        #expect(absolute.source == .file(file.path))
        // Relative to the current directory; a name ending in .yaml is a path too.
        let relative = catalog.load("../elsewhere/ocean.yaml")
        #expect(relative.theme.palette[.text].foreground == .named(.magenta))
        #expect(relative.source == .file(file.path))
        #expect(ThemeCatalog.isPath("ocean.yml") && ThemeCatalog.isPath("./ocean") && !ThemeCatalog.isPath("ocean"))
    }

    @Test func listsEachNameOnceWithWhatItHides() throws {
        let dirs = try ThemeDirectories()
        try dirs.write("ocean", in: dirs.xdg)
        try dirs.write("ocean", in: dirs.local)
        try dirs.write("default", in: dirs.local)
        try dirs.write("broken", in: dirs.local, text: "name: broken\ntext: { bold: maybe }\n")
        try dirs.write("typo", in: dirs.local, text: "name: typo\ntxet: red\n")
        let (items, problems) = dirs.catalog().list()
        #expect(problems.isEmpty)
        #expect(items.map(\.name) == ["broken", "default", "light", "mono", "ocean", "solarized-dark", "typo"])
        let byName = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0) })
        #expect(byName["ocean"]!.source == .file(dirs.xdg.appendingPathComponent("ocean.yaml").path))
        #expect(byName["ocean"]!.shadowed == [.file(dirs.local.appendingPathComponent("ocean.yaml").path)])
        #expect(byName["default"]!.shadowed == [.builtIn])
        #expect(byName["mono"]!.source == .builtIn && byName["mono"]!.theme == .mono)
        #expect(byName["broken"]!.theme == nil)
        #expect(
            byName["broken"]!.diagnostics.map(\.description) == [
                "\(dirs.local.path)/broken.yaml:2:15: error: expected true or false for 'bold', found \"maybe\""
            ])
        #expect(byName["typo"]!.theme != nil)
        #expect(byName["typo"]!.diagnostics.map(\.location.line) == [2])
    }

    @Test func aBrokenThemeFallsBackToTheBuiltInDefault() throws {
        let dirs = try ThemeDirectories()
        try dirs.write("broken", in: dirs.local, text: "name: broken\nmuted: \"#12\"\n")
        let loaded = dirs.catalog().load("broken")
        #expect(loaded.theme == .default)
        #expect(loaded.source == .builtIn)
        #expect(loaded.reason == .fallback)
        #expect(loaded.hasErrors)
        #expect(
            loaded.diagnostics.map(\.location) == [
                FileLocation(file: dirs.local.appendingPathComponent("broken.yaml").path, line: 2, column: 8)
            ])
    }

    @Test func anUnknownNameOrMissingFileFallsBackToo() throws {
        let dirs = try ThemeDirectories()
        try dirs.write("solarized-dark", in: dirs.local)
        let unknown = dirs.catalog().load("solarised-dark")
        #expect(unknown.theme == .default && unknown.reason == .fallback)
        #expect(
            unknown.diagnostics.map(\.description) == [
                "--theme solarised-dark: error: no theme named 'solarised-dark' (did you mean 'solarized-dark'?);"
                    + " the themes are default, light, mono, solarized-dark; using the built-in default"
            ])
        let missing = dirs.catalog().load("nowhere/theme.yaml")
        #expect(missing.theme == .default && missing.reason == .fallback)
        #expect(missing.diagnostics.map(\.message) == ["cannot read the file: no such file"])
    }

    @Test func warningsComeWithAUsableTheme() throws {
        let dirs = try ThemeDirectories()
        try dirs.write("typo", in: dirs.local, text: "name: typo\ntext: red\nborder: blue\nbordr: red\n")
        let loaded = dirs.catalog().load("typo")
        #expect(loaded.reason == .requested && !loaded.hasErrors)
        #expect(loaded.theme.palette[.border].foreground == .named(.blue))
        #expect(
            loaded.diagnostics.map(\.description)
                == ["\(dirs.local.path)/typo.yaml:4:1: warning: unknown key 'bordr'; did you mean 'border'?"])
    }

    @Test func noColorForcesMono() throws {
        let dirs = try ThemeDirectories()
        try dirs.write("ocean", in: dirs.local)
        let forced = dirs.catalog(["NO_COLOR": "1"])
        #expect(forced.environmentSaysNoColour)
        for selection in [nil, "ocean", "default", "broken/path.yaml"] {
            let loaded = forced.load(selection)
            #expect(loaded.theme == .mono && loaded.reason == .noColour && loaded.diagnostics.isEmpty)
        }
        // Set but empty does not count (https://no-color.org).
        let empty = dirs.catalog(["NO_COLOR": ""])
        #expect(!empty.environmentSaysNoColour)
        #expect(empty.load("ocean").theme.name == "ocean")
        // --no-color does the same as NO_COLOR.
        let flagged = dirs.catalog().load("ocean", noColour: true)
        #expect(flagged.theme == .mono && flagged.reason == .noColour)
    }
}
