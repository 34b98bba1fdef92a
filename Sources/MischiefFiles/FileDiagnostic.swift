/// One problem found in a file: how bad it is, where it is, and what is wrong.
public struct FileDiagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// Whether the problem stops the file from being used.
    public enum Severity: String, Hashable, Sendable {
        /// The file (or part of it) cannot be used.
        case error
        /// The file can be used, but something in it looks wrong.
        case warning
    }

    /// How bad the problem is.
    public var severity: Severity
    /// Where the problem is.
    public var location: FileLocation
    /// What is wrong, and what was expected.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, at location: FileLocation, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    /// Creates an error diagnostic.
    public static func error(at location: FileLocation, _ message: String) -> FileDiagnostic {
        FileDiagnostic(.error, at: location, message)
    }

    /// Creates a warning diagnostic.
    public static func warning(at location: FileLocation, _ message: String) -> FileDiagnostic {
        FileDiagnostic(.warning, at: location, message)
    }

    /// `path:line:column: error: message`, the form compilers use.
    public var description: String {
        "\(location): \(severity.rawValue): \(message)"
    }
}
