import ArgumentParser
import Foundation
import MischiefConsole
import MischiefFiles

/// `mischief themes`: list the console's colour themes, check their files, and preview them.
struct ThemesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes",
        abstract: "List the console's colour themes and preview them.",
        discussion: """
            Themes are YAML files (see themes/README.md), found by name in $XDG_CONFIG_HOME/mischief/themes \
            (default ~/.config/mischief/themes), then ./themes, then among the built-in themes (default, light, \
            mono, solarized-dark: the shipped files, built into the binary); the first place with a name wins. \
            Each role is previewed in its colours; the output is plain text when standard output is not a \
            terminal, when NO_COLOR is set, or with --no-color.

            Problems are printed on standard error as file:line:column. Exits 1 when a theme file listed has \
            errors or the theme chosen with --theme cannot be used (the console itself falls back to the \
            built-in default theme then).
            """
    )

    /// The colour depths `--depth` takes.
    enum Depth: String, ExpressibleByArgument, CaseIterable {
        case truecolor
        case colours256 = "256"
        case colours8 = "8"

        var colourDepth: ColourDepth {
            switch self {
            case .truecolor: .trueColour
            case .colours256: .colours256
            case .colours8: .colours8
            }
        }
    }

    @Option(name: .long, help: "Preview only this theme: a name, or a path to a theme file.")
    var theme: String?

    @Flag(name: .customLong("no-color"), help: "Plain text without colours (as NO_COLOR does).")
    var noColor = false

    @Option(
        name: .long, help: "The colour depth of the previews: truecolor, 256 or 8 (default: from $COLORTERM and $TERM)."
    )
    var depth: Depth?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let currentDirectory = FileManager.default.currentDirectoryPath
        let catalog = ThemeCatalog(environment: environment, currentDirectory: currentDirectory)
        let plain = noColor || catalog.environmentSaysNoColour || isatty(STDOUT_FILENO) == 0
        let previewDepth = plain ? nil : depth?.colourDepth ?? ColourDepth.detected(environment: environment)
        let display = PathDisplay(currentDirectory: currentDirectory)

        let (items, problems) = catalog.list()
        var diagnostics = problems
        print(
            "Themes (search path: "
                + (catalog.directories.map { display($0.path) } + ["built in"])
                .joined(separator: ", ") + "):")
        let width = (items.map(\.name.count).max() ?? 0) + 2
        for item in items {
            diagnostics += item.diagnostics
            print("  " + item.name.padding(toLength: width, withPad: " ", startingAt: 0) + summary(of: item, display))
        }
        if catalog.environmentSaysNoColour {
            print("NO_COLOR is set, so the console uses the mono theme whatever --theme says.")
        }

        if let theme {
            // Only the chosen theme is checked; the list above still counts the others' problems. NO_COLOR
            // changes how the preview is printed, not which theme it shows.
            let unforced = ThemeCatalog(directories: catalog.directories, currentDirectory: currentDirectory)
            let loaded = unforced.load(theme)
            diagnostics = problems + loaded.diagnostics
            if loaded.reason != .fallback {
                print()
                let name = ThemeCatalog.isPath(theme) ? loaded.theme.name : theme
                preview(loaded.theme, name: name, source: loaded.source, depth: previewDepth, display)
            }
        } else {
            for item in items {
                guard let theme = item.theme else { continue }
                print()
                preview(theme, name: item.name, source: item.source, depth: previewDepth, display)
            }
        }
        let failed = diagnostics.contains { $0.severity == .error }
        var standardError = StandardError()
        var seen: Set<FileDiagnostic> = []
        for diagnostic in diagnostics where seen.insert(diagnostic).inserted {
            print(display(diagnostic), to: &standardError)
        }
        if failed { throw ExitCode(1) }
    }

    /// Where an item comes from and what is wrong with it, for its line in the list.
    private func summary(of item: ThemeCatalog.Item, _ display: PathDisplay) -> String {
        var text = display(item.source)
        let errors = item.diagnostics.filter { $0.severity == .error }.count
        let warnings = item.diagnostics.count - errors
        if errors > 0 { text += "  (\(count(errors, "error")); not usable)" }
        if warnings > 0 { text += "  (\(count(warnings, "warning")))" }
        if !item.shadowed.isEmpty {
            text += "  (hides " + item.shadowed.map { display($0) }.joined(separator: ", ") + ")"
        }
        return text
    }

    /// A theme's heading, description and one line per role.
    private func preview(
        _ theme: Theme, name: String, source: ThemeSource, depth: ColourDepth?,
        _ display: PathDisplay
    ) {
        let calls = theme.name == name ? "" : " (named '\(theme.name)' inside)"
        print("\(name)\(calls) — \(display(source))")
        if let description = theme.description { print("  \(description)") }
        for line in ThemePreview.lines(for: theme, depth: depth, indent: "    ") { print(line) }
    }

    /// "1 error", "2 warnings".
    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// Shows paths under the current directory relative to it, as compilers do.
struct PathDisplay {
    let currentDirectory: String

    func callAsFunction(_ path: String) -> String {
        let prefix = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    func callAsFunction(_ source: ThemeSource) -> String {
        switch source {
        case .builtIn: "built in"
        case .file(let path): self(path)
        }
    }

    func callAsFunction(_ diagnostic: FileDiagnostic) -> String {
        var shown = diagnostic
        shown.location.file = self(diagnostic.location.file)
        return shown.description
    }
}
