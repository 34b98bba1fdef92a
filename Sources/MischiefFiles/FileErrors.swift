/// Several diagnostics reported at once; thrown when a file cannot be used.
public struct FileErrors: Error, Hashable, Sendable, CustomStringConvertible {
    /// The diagnostics, errors first, each group in file order.
    public var diagnostics: [FileDiagnostic]

    /// Creates the error from diagnostics, keeping their order.
    public init(_ diagnostics: [FileDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Creates the error from a single diagnostic.
    public init(_ diagnostic: FileDiagnostic) {
        self.diagnostics = [diagnostic]
    }

    /// The diagnostics of severity `.error`.
    public var errors: [FileDiagnostic] {
        diagnostics.filter { $0.severity == .error }
    }

    /// One diagnostic per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
