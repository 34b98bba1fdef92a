import Foundation
import MischiefConsole
import MischiefFiles
import Testing

/// The repository's `themes/` directory.
let shippedThemes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("themes")

@Suite struct ThemeTests {
    @Test func decodesHexIndexAndNamesInShortAndFullForm() throws {
        let text = """
            name: sample
            description: A test
            text: "#FFd75f"
            muted: 245
            border: bright-blue
            accent: default
            title: { fg: red, bold: true }
            selection: { fg: "#000000", bg: 110, reverse: true, dim: true }
            active: { bold: true }
            """
        let decoded = try Theme.load(text: text, file: "sample.yaml")
        #expect(decoded.warnings.isEmpty)
        let theme = decoded.value
        #expect(theme.name == "sample")
        #expect(theme.description == "A test")
        #expect(theme.palette[.text] == .init(foreground: .rgb(0xff, 0xd7, 0x5f)))
        #expect(theme.palette[.muted] == .init(foreground: .indexed(245)))
        #expect(theme.palette[.border] == .init(foreground: .named(.brightBlue)))
        #expect(theme.palette[.accent] == .init(foreground: .default))
        #expect(theme.palette[.title] == .init(foreground: .named(.red), bold: true))
        #expect(
            theme.palette[.selection]
                == .init(foreground: .rgb(0, 0, 0), background: .indexed(110), reverse: true, dim: true))
        #expect(theme.palette[.active] == .init(foreground: .default, bold: true))
        #expect(!theme.isMonochrome)
    }

    @Test func missingRolesLookAsInTheDefaultTheme() throws {
        let theme = try Theme.load(text: "name: sparse\nerror: red\n", file: "sparse.yaml").value
        #expect(theme.palette[.error] == .init(foreground: .named(.red)))
        for role in StyleRole.allCases where role != .error {
            #expect(theme.palette[role] == Theme.default.palette[role], "\(role)")
        }
        #expect(theme.palette.entries.count == StyleRole.allCases.count)
        #expect(theme.description == nil)
    }

    @Test func rolesWithoutBackgroundTakeTheBackgroundRoles() throws {
        let text = """
            name: painted
            background: { fg: white, bg: "#002b36" }
            muted: "#586e75"
            selection: { fg: white, bg: blue }
            border: { fg: blue, bg: default }
            """
        let palette = try Theme.load(text: text, file: "painted.yaml").value.palette
        let base = Colour.rgb(0x00, 0x2b, 0x36)
        #expect(palette[.muted] == .init(foreground: .rgb(0x58, 0x6e, 0x75), background: base))
        #expect(palette[.selection].background == .named(.blue))
        #expect(palette[.border].background == .default)
        // Left out: the default theme's look, on this theme's background.
        #expect(palette[.title] == .init(foreground: .rgb(0xff, 0xd7, 0x5f), background: base, bold: true))
        #expect(palette.fallback == palette[.text])
    }

    @Test func unknownKeysAndEmptyRolesAreWarningsWithTheirLine() throws {
        let text = """
            name: typo
            titel: red
            muted: #8a8a8a
            selection: { fg: blue, revers: true }
            """
        let decoded = try Theme.load(text: text, file: "typo.yaml")
        #expect(
            decoded.warnings.map(\.description) == [
                "typo.yaml:2:1: warning: unknown key 'titel'; did you mean 'title'?",
                "typo.yaml:3:7: warning: 'muted' has no value, so it looks as in the default theme; a '#' starts a"
                    + " comment in YAML, so write colours in quotes: muted: \"#8a8a8a\"",
                "typo.yaml:4:24: warning: unknown key 'revers'; did you mean 'reverse'?",
            ])
        #expect(decoded.value.palette[.muted] == Theme.default.palette[.muted])
        #expect(decoded.value.palette[.title] == Theme.default.palette[.title])
    }

    @Test func aMissingNameIsTheFileName() throws {
        let decoded = try Theme.load(text: "text: red\n", file: "/somewhere/ocean.yaml")
        #expect(decoded.value.name == "ocean")
        #expect(
            decoded.warnings.map(\.description)
                == ["/somewhere/ocean.yaml:1:1: warning: missing key 'name'; using the file's name 'ocean'"])
        let empty = try Theme.load(text: "name: ''\ntext: red\n", file: "lake.yaml")
        #expect(empty.value.name == "lake")
        #expect(
            empty.warnings.map(\.description) == [
                "lake.yaml:1:7: warning: the name is empty; using the file's name 'lake'"
            ])
    }

    @Test(arguments: [
        (
            "name: x\nmuted: \"#12345\"\n",
            "x.yaml:2:8: error: invalid colour \"#12345\" for 'muted': expected '#' and"
                + " six hexadecimal digits, such as \"#ffd75f\""
        ),
        ("name: x\nmuted: 256\n", "x.yaml:2:8: error: colour index 256 for 'muted' is out of range: expected 0 to 255"),
        (
            "name: x\ntitle: { fg: gren }\n",
            "x.yaml:2:14: error: unknown colour \"gren\" for 'fg': expected"
                + " \"#rrggbb\" (in quotes), an index 0 to 255, default, or a name: black, red, green, yellow, blue,"
                + " magenta, cyan, white, each also as bright-NAME (did you mean 'green'?)"
        ),
        ("name: x\ntitle: { bold: yes }\n", "x.yaml:2:16: error: expected true or false for 'bold', found \"yes\""),
        (
            "name: x\ntitle: [red]\n",
            "x.yaml:2:8: error: expected a colour or a mapping with 'fg', 'bg', 'bold',"
                + " 'reverse', 'dim' for 'title', found a list"
        ),
        (
            "name: x\nmuted: \"#8a8a8a\n",
            "x.yaml:3:1: error: syntax error: found unexpected end of stream"
                + " (while scanning a quoted scalar at line 2, column 8)"
        ),
    ])
    func brokenFilesNameTheLine(text: String, expected: String) {
        #expect(throws: FileErrors.self) { try Theme.load(text: text, file: "x.yaml") }
        do throws(FileErrors) {
            _ = try Theme.load(text: text, file: "x.yaml")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func theBuiltInDefaultIsThemesDefaultYAML() throws {
        let decoded = try Theme.load(contentsOf: shippedThemes.appendingPathComponent("default.yaml"))
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.value == Theme.default)
        #expect(Theme.default.palette == Palette.standard)
    }

    @Test func theBuiltInMonoIsThemesMonoYAML() throws {
        let decoded = try Theme.load(contentsOf: shippedThemes.appendingPathComponent("mono.yaml"))
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.value == Theme.mono)
        #expect(Theme.mono.isMonochrome)
        #expect(Theme.mono.palette[.selection].reverse)
        #expect(Theme.mono.palette[.title].bold)
    }

    @Test(arguments: ["default", "light", "solarized-dark", "mono"])
    func everyShippedThemeLoadsWithoutProblems(name: String) throws {
        let decoded = try Theme.load(contentsOf: shippedThemes.appendingPathComponent("\(name).yaml"))
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.value.name == name)
        #expect(decoded.value.description != nil)
        // Every role is given, so none depends on the default theme.
        let text = try String(contentsOf: shippedThemes.appendingPathComponent("\(name).yaml"), encoding: .utf8)
        for role in StyleRole.allCases {
            #expect(text.contains("\n\(role.rawValue): "), "\(name) gives \(role)")
        }
    }

    @Test func solarizedDarkUsesSolarizedsPalette() throws {
        let palette = try Theme.load(contentsOf: shippedThemes.appendingPathComponent("solarized-dark.yaml")).value
            .palette
        #expect(palette[.background] == .init(foreground: .rgb(0x83, 0x94, 0x96), background: .rgb(0x00, 0x2b, 0x36)))
        #expect(palette[.selection] == .init(foreground: .rgb(0x93, 0xa1, 0xa1), background: .rgb(0x07, 0x36, 0x42)))
        #expect(palette[.error].foreground == .rgb(0xdc, 0x32, 0x2f))
    }

    @Test func builtInThemesAreFoundByName() {
        #expect(Theme.builtIn(named: "default") == .default)
        #expect(Theme.builtIn(named: "mono") == .mono)
        #expect(Theme.builtIn(named: "light")?.description == "For light terminal backgrounds")
        #expect(Theme.builtIn(named: "ocean") == nil)
        #expect(!Theme.default.isMonochrome)
    }
}
