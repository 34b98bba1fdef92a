import Foundation
import Mischief
import MischiefFiles

/// Finds, lists and loads themes along the search path.
///
/// `--theme NAME|PATH` picks a theme: a PATH (anything with a `/` or ending in `.yaml`/`.yml`) is read as it
/// is; a NAME is the file name without its extension, looked for in `$XDG_CONFIG_HOME/mischief/themes`
/// (default `$HOME/.config/mischief/themes`), then `./themes`, then among the built-in themes (every file of
/// the repository's `themes/`, ``Theme/builtIn``). The first place that has the name wins. `NO_COLOR` (set and
/// not empty) and `--no-color` choose ``Theme/mono`` whatever was asked for. A theme that cannot be used falls back
/// to the built-in ``Theme/default``, with diagnostics naming `file:line:column`.
///
/// The environment and directory are parameters, so tests need neither the real ones nor global state:
/// ```swift
/// let catalog = ThemeCatalog(environment: ["XDG_CONFIG_HOME": dir.path], currentDirectory: "/work")
/// #expect(catalog.load("light").theme.name == "light")
/// ```
public struct ThemeCatalog: Sendable {
    /// One theme the catalog can find.
    public struct Item: Hashable, Sendable {
        /// What `--theme` takes to choose it: its file name without the extension, or a built-in name.
        public var name: String
        /// Where it was found.
        public var source: ThemeSource
        /// The theme, or nil when its file cannot be used.
        public var theme: Theme?
        /// Warnings, and the errors that make the file unusable.
        public var diagnostics: [FileDiagnostic]
        /// Places further along the search path with a theme of the same name, which this one hides.
        public var shadowed: [ThemeSource]

        /// Creates an item.
        public init(
            name: String, source: ThemeSource, theme: Theme?, diagnostics: [FileDiagnostic] = [],
            shadowed: [ThemeSource] = []
        ) {
            self.name = name
            self.source = source
            self.theme = theme
            self.diagnostics = diagnostics
            self.shadowed = shadowed
        }
    }

    /// The directories searched, in order.
    public let directories: [URL]
    /// The directory relative paths are taken from.
    public let currentDirectory: String
    /// Whether the environment asks for no colours (`NO_COLOR` set and not empty).
    public let environmentSaysNoColour: Bool

    /// A catalog over the standard search path.
    ///
    /// - Parameters:
    ///   - environment: supplies `XDG_CONFIG_HOME`, `HOME` and `NO_COLOR`.
    ///   - currentDirectory: where `./themes` and relative paths are.
    public init(environment: [String: String], currentDirectory: String) {
        self.init(
            directories: SearchPath.themes(explicit: [], environment: environment, currentDirectory: currentDirectory),
            currentDirectory: currentDirectory,
            noColour: !(environment["NO_COLOR"] ?? "").isEmpty
        )
    }

    /// A catalog over the given directories, searched in order before the built-in themes.
    public init(directories: [URL], currentDirectory: String, noColour: Bool = false) {
        self.directories = directories
        self.currentDirectory = currentDirectory
        self.environmentSaysNoColour = noColour
    }

    /// Whether `--theme` text names a file rather than a theme: it has a `/` or ends in `.yaml` or `.yml`.
    public static func isPath(_ selection: String) -> Bool {
        let lowered = selection.lowercased()
        return selection.contains("/") || lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml")
    }

    // MARK: Finding

    /// Theme files by name, first on the search path first, and the places they hide.
    private func files() -> (found: [(name: String, url: URL, shadowed: [URL])], problems: [FileDiagnostic]) {
        let (urls, problems) = SearchPath.files(in: directories)
        var found: [(name: String, url: URL, shadowed: [URL])] = []
        for url in urls {
            let name = url.deletingPathExtension().lastPathComponent
            if let index = found.firstIndex(where: { $0.name == name }) {
                found[index].shadowed.append(url)
            } else {
                found.append((name, url, []))
            }
        }
        return (found, problems)
    }

    /// Where the theme called `name` is found first: a file on the search path, else built in; nil if nowhere.
    public func source(named name: String) -> ThemeSource? {
        if let file = files().found.first(where: { $0.name == name }) { return .file(file.url.path) }
        return Theme.builtIn(named: name) == nil ? nil : .builtIn
    }

    /// Every theme found, sorted by name, each file decoded; and problems with the directories themselves.
    public func list() -> (items: [Item], problems: [FileDiagnostic]) {
        let (found, problems) = files()
        var items = found.map { file -> Item in
            let shadowed =
                file.shadowed.map { ThemeSource.file($0.path) }
                + (Theme.builtIn(named: file.name) == nil ? [] : [.builtIn])
            do throws(FileErrors) {
                let decoded = try Theme.load(contentsOf: file.url)
                return Item(
                    name: file.name, source: .file(file.url.path), theme: decoded.value,
                    diagnostics: decoded.warnings, shadowed: shadowed)
            } catch {
                return Item(
                    name: file.name, source: .file(file.url.path), theme: nil,
                    diagnostics: error.diagnostics, shadowed: shadowed)
            }
        }
        for theme in Theme.builtIn where !items.contains(where: { $0.name == theme.name }) {
            items.append(Item(name: theme.name, source: .builtIn, theme: theme))
        }
        return (items.sorted { $0.name < $1.name }, problems)
    }

    // MARK: Loading

    /// The theme to use for `--theme` text (nil: `default`), honouring `NO_COLOR` and `noColour`.
    ///
    /// Never fails: a theme that cannot be found or used gives ``Theme/default`` (built in) with
    /// ``LoadedTheme/Reason/fallback`` and the errors in ``LoadedTheme/diagnostics``.
    /// - Parameters:
    ///   - selection: a theme name or a path to a theme file.
    ///   - noColour: `--no-color` was given: use ``Theme/mono``.
    public func load(_ selection: String? = nil, noColour: Bool = false) -> LoadedTheme {
        if noColour || environmentSaysNoColour {
            return LoadedTheme(theme: .mono, source: .builtIn, reason: .noColour)
        }
        let selection = selection ?? Theme.default.name
        if Self.isPath(selection) {
            let path = selection.hasPrefix("/") ? selection : currentDirectory + "/" + selection
            return load(file: URL(fileURLWithPath: path).standardizedFileURL)
        }
        switch source(named: selection) {
        case .file(let path):
            return load(file: URL(fileURLWithPath: path))
        case .builtIn:
            return LoadedTheme(theme: Theme.builtIn(named: selection)!, source: .builtIn)
        case nil:
            let names = Set(files().found.map(\.name) + Theme.builtIn.map(\.name)).sorted()
            var message = "no theme named '\(selection)'"
            if let guess = suggestion(for: selection, among: names) { message += " (did you mean '\(guess)'?)" }
            message += "; the themes are " + names.joined(separator: ", ") + "; using the built-in default"
            let diagnostic = FileDiagnostic.error(at: .wholeFile("--theme \(selection)"), message)
            return LoadedTheme(theme: .default, source: .builtIn, reason: .fallback, diagnostics: [diagnostic])
        }
    }

    /// The theme in a file, or the built-in default with the file's errors.
    private func load(file url: URL) -> LoadedTheme {
        do throws(FileErrors) {
            let decoded = try Theme.load(contentsOf: url)
            return LoadedTheme(theme: decoded.value, source: .file(url.path), diagnostics: decoded.warnings)
        } catch {
            return LoadedTheme(theme: .default, source: .builtIn, reason: .fallback, diagnostics: error.diagnostics)
        }
    }
}
