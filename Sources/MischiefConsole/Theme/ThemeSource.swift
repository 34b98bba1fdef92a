/// Where a theme came from.
public enum ThemeSource: Hashable, Sendable, CustomStringConvertible {
    /// Compiled into Mischief (``Theme/builtIn``).
    case builtIn
    /// A YAML file at this path.
    case file(String)

    /// `built in`, or the file's path.
    public var description: String {
        switch self {
        case .builtIn: "built in"
        case .file(let path): path
        }
    }
}
