import MischiefFiles

/// A named look for the console: how each ``StyleRole`` is drawn.
///
/// Drawing code asks for a role, never a colour; a theme decides what the role looks like. Every theme of the
/// repository's `themes/` is built in (``ShippedThemes``), so the console has them all from any directory:
/// ``default`` (``Palette/standard``), ``mono`` (no colours, only bold, reverse and dim) and the others. More are
/// YAML files found by ``ThemeCatalog``:
/// ```swift
/// let catalog = ThemeCatalog(environment: ProcessInfo.processInfo.environment,
///                            currentDirectory: FileManager.default.currentDirectoryPath)
/// let loaded = catalog.load("solarized-dark")
/// for problem in loaded.diagnostics { print(problem) }
/// let terminal = CursesTerminal(palette: loaded.theme.palette)
/// ```
public struct Theme: Hashable, Sendable {
    /// The theme's name, e.g. `solarized-dark`.
    public var name: String
    /// What the theme is for, e.g. "for light terminal backgrounds".
    public var description: String?
    /// How each role looks; every role has an entry.
    public var palette: Palette

    /// Creates a theme.
    public init(name: String, description: String? = nil, palette: Palette) {
        self.name = name
        self.description = description
        self.palette = palette
    }

    /// Whether the theme uses no colours at all, only attributes (every colour is the terminal's default).
    public var isMonochrome: Bool {
        let entries = Array(palette.entries.values) + [palette.fallback]
        return entries.allSatisfy { $0.foreground == .default && $0.background == .default }
    }

    /// The themes that need no file, sorted by name: ``default``, ``mono`` and every other shipped theme
    /// (``ShippedThemes``). A shipped file that does not decode is left out; a test keeps them all decoding.
    public static let builtIn: [Theme] = {
        var themes: [Theme] = [.default, .mono]
        for file in ShippedThemes.files {
            let name = fileName(of: file.name)
            guard !themes.contains(where: { $0.name == name }),
                let decoded = try? load(text: file.text, file: "themes/" + file.name)
            else { continue }
            themes.append(decoded.value)
        }
        return themes.sorted { $0.name < $1.name }
    }()

    /// The built-in theme called `name`, if there is one.
    public static func builtIn(named name: String) -> Theme? {
        builtIn.first { $0.name == name }
    }
}

extension Theme {
    /// The console's standard look: dark, on the terminal's own background (``Palette/standard``).
    ///
    /// `themes/default.yaml` holds the same theme as a file; a test keeps the two identical.
    public static let `default` = Theme(
        name: "default",
        description: "The console's standard look: dark, on the terminal's own background",
        palette: .standard
    )

    /// No colours: emphasis is bold, the selection is reversed, secondary text is dim.
    ///
    /// What `NO_COLOR` and `--no-color` choose. `themes/mono.yaml` holds the same theme as a file.
    public static let mono = Theme(
        name: "mono",
        description: "No colours: bold for emphasis, reverse for the selection, dim for what matters less",
        palette: Palette(entries: [
            .background: .init(foreground: .default),
            .text: .init(foreground: .default),
            .muted: .init(foreground: .default, dim: true),
            .border: .init(foreground: .default),
            .title: .init(foreground: .default, bold: true),
            .selection: .init(foreground: .default, reverse: true),
            .active: .init(foreground: .default, bold: true),
            .reverted: .init(foreground: .default, dim: true),
            .reverting: .init(foreground: .default),
            .warning: .init(foreground: .default, bold: true),
            .error: .init(foreground: .default, bold: true),
            .accent: .init(foreground: .default),
        ])
    )
}
