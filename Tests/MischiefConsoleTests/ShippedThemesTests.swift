import Foundation
import MischiefConsole
import Testing

/// The themes built into the binary are the repository's `themes/` files, and all of them are built in.
@Suite struct ShippedThemesTests {
    /// The `.yaml` files of `themes/`, sorted by name.
    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: shippedThemes.path).filter { $0.hasSuffix(".yaml") }
            .sorted()
    }

    @Test func theEmbeddedTextEqualsEachFileInThemes() throws {
        let names = try files()
        #expect(ShippedThemes.files.map(\.name) == names, "run Scripts/embed-files.sh")
        for file in ShippedThemes.files {
            let text = try String(contentsOf: shippedThemes.appendingPathComponent(file.name), encoding: .utf8)
            #expect(file.text == text, "\(file.name) differs from themes/: run Scripts/embed-files.sh")
        }
    }

    @Test func everyShippedThemeIsBuiltIn() throws {
        let names = try files().map { String($0.dropLast(".yaml".count)) }
        #expect(Theme.builtIn.map(\.name) == names)
        for name in names { #expect(Theme.builtIn(named: name) != nil, "\(name) is built in") }
        #expect(Theme.builtIn(named: "default") == .default)
        #expect(Theme.builtIn(named: "mono") == .mono)
    }

    @Test func aCatalogWithNoDirectoriesStillHasEveryShippedTheme() throws {
        let catalog = ThemeCatalog(directories: [], currentDirectory: "/")
        let (items, problems) = catalog.list()
        #expect(problems.isEmpty)
        #expect(items.map(\.name) == ["default", "light", "mono", "solarized-dark"])
        #expect(items.allSatisfy { $0.source == .builtIn && $0.theme != nil && $0.diagnostics.isEmpty })
        let light = catalog.load("light")
        #expect(light.source == .builtIn && light.reason == .requested && light.theme.name == "light")
    }
}
