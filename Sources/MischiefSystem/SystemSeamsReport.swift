/// What system seams cover, library by library: which are rebound, which are not, and why.
public struct SystemSeamsReport: Sendable, Equatable, CustomStringConvertible {
    /// One loaded object.
    public struct Library: Sendable, Equatable {
        /// Its path, or "" for the program's own executable.
        public var path: String
        /// How many slots of the wall-clock functions it has.
        public var slots: Int
        /// How many of them lead to the hooks now.
        public var rebound: Int
        /// Whether it is one of ``SystemSeams/excludedLibraries``.
        public var excludedByDefault: Bool {
            SystemSeams.excludedLibraries.contains { name.hasPrefix($0) }
        }

        /// The file name, or `(executable)`.
        public var name: String { SystemClock.name(of: path) }

        /// A loaded object's coverage.
        public init(path: String, slots: Int, rebound: Int) {
            self.path = path
            self.slots = slots
            self.rebound = rebound
        }
    }

    /// Every loaded object that calls a wall-clock function through a slot, in load order.
    public var libraries: [Library]
    /// What rebinding the libraries the caller named risks.
    public var warnings: [String]

    /// A report of `libraries` (those without a slot of the wall-clock functions are left out), warning about each
    /// one of ``SystemSeams/excludedLibraries`` that is rebound (because it was named).
    public init(libraries: [Library]) {
        self.libraries = libraries.filter { $0.slots > 0 }
        warnings = self.libraries.filter { $0.excludedByDefault && $0.rebound > 0 }.map {
            "\($0.name) is rebound as asked: \(Self.risk(of: $0))"
        }
    }

    /// What rebinding `library`, one of the excluded ones, risks.
    static func risk(of library: Library) -> String {
        library.name.hasPrefix("libssl") || library.name.hasPrefix("libcrypto")
            ? "certificates are checked against the chaos time (a shifted clock fails TLS with \"certificate has expired\")"
            : "its timers and deadlines follow the chaos time"
    }

    /// The libraries whose slots all lead to the hooks.
    public var rebound: [Library] { libraries.filter { $0.rebound > 0 } }

    /// The libraries left alone.
    public var notRebound: [Library] { libraries.filter { $0.rebound == 0 } }

    /// Why `library` is not rebound.
    public static func reason(_ library: Library) -> String {
        guard library.excludedByDefault else { return "not chosen" }
        return library.name.hasPrefix("libssl") || library.name.hasPrefix("libcrypto")
            ? "never by default: certificates are checked against the real time"
            : "never by default: its timers and deadlines keep the real clock"
    }

    /// `rebound: libFoundationEssentials.so (3), (executable) (2); not: libdispatch.so (never by default: …)`.
    public var description: String {
        let yes = rebound.map { "\($0.name) (\($0.rebound))" }.joined(separator: ", ")
        let no = notRebound.map { "\($0.name) (\(Self.reason($0)))" }.joined(separator: ", ")
        return "rebound: \(yes.isEmpty ? "none" : yes)" + (no.isEmpty ? "" : "; not: \(no)")
    }
}
