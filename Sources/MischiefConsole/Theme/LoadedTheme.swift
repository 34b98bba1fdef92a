import MischiefFiles

/// The theme to use, where it came from, and what was wrong on the way.
public struct LoadedTheme: Hashable, Sendable {
    /// Why ``theme`` is the theme to use.
    public enum Reason: Hashable, Sendable {
        /// It is the theme asked for (or `default`, when none was).
        case requested
        /// `NO_COLOR` or `--no-color` asked for no colours: it is ``Theme/mono``.
        case noColour
        /// The theme asked for could not be used (see ``LoadedTheme/diagnostics``): it is ``Theme/default``.
        case fallback
    }

    /// The theme to use.
    public var theme: Theme
    /// Where ``theme`` came from.
    public var source: ThemeSource
    /// Why ``theme`` is the one to use.
    public var reason: Reason
    /// Warnings (unknown keys, roles without a value) and, on ``Reason/fallback``, the errors that made the
    /// theme asked for unusable, each naming `file:line:column`.
    public var diagnostics: [FileDiagnostic]

    /// Creates a loaded theme.
    public init(theme: Theme, source: ThemeSource, reason: Reason = .requested, diagnostics: [FileDiagnostic] = []) {
        self.theme = theme
        self.source = source
        self.reason = reason
        self.diagnostics = diagnostics
    }

    /// Whether any diagnostic is an error (the theme asked for was not used).
    public var hasErrors: Bool {
        diagnostics.contains { $0.severity == .error }
    }
}
