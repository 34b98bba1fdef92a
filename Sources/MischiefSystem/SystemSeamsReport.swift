import CMischiefRebind

/// What system seams cover, library by library: which are rebound, which are not, and why.
public struct SystemSeamsReport: Sendable, Equatable, CustomStringConvertible {
    /// One loaded object.
    public struct Library: Sendable, Equatable {
        /// Its path, or "" for the program's own executable.
        public var path: String
        /// The family whose functions these slots are: the wall clock's, or the network's.
        public var family: SystemSeams.Family
        /// How many slots of the family's functions it has.
        public var slots: Int
        /// How many of them lead to the hooks now.
        public var rebound: Int
        /// Whether it is one of ``SystemSeams/excludedLibraries``.
        public var excludedByDefault: Bool {
            SystemSeams.excludedLibraries.contains { name.hasPrefix($0) }
        }

        /// The file name, or `(executable)`.
        public var name: String { HookTable.name(of: path) }

        /// A loaded object's coverage, for the wall clock unless `family` says otherwise.
        public init(path: String, family: SystemSeams.Family = .clock, slots: Int, rebound: Int) {
            self.path = path
            self.family = family
            self.slots = slots
            self.rebound = rebound
        }
    }

    /// Every loaded object that calls a function of an installed family through a slot, in load order, family by
    /// family: the wall clock first, then the network.
    public var libraries: [Library]
    /// What rebinding the libraries the caller named risks.
    public var warnings: [String]

    /// A report of `libraries` (those without a slot of their family's functions are left out), warning about each
    /// one of ``SystemSeams/excludedLibraries`` that is rebound (because it was named).
    public init(libraries: [Library]) {
        self.libraries = libraries.filter { $0.slots > 0 }
        warnings = self.libraries.filter { $0.excludedByDefault && $0.rebound > 0 }.map {
            "\($0.name) is rebound as asked: \(Self.risk(of: $0))"
        }
        if SystemSeams.swiftRuntimeIsStatic,
            self.libraries.contains(where: { $0.path.isEmpty && $0.family == .clock && $0.rebound > 0 })
        {
            warnings.append(
                "(executable) is rebound as asked: \(Self.staticRuntime); DispatchWallTime.now(), "
                    + "asyncAfter(wallDeadline:) and the absolute deadlines of its timeouts follow the chaos time")
        }
    }

    /// Why the executable is not rebound for the wall clock when the Swift runtime is linked into it.
    static let staticRuntime =
        "the Swift runtime, Foundation and libdispatch are linked statically into it, so libdispatch calls "
        + "clock_gettime through its slots"

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
        if library.path.isEmpty && library.family == .clock && SystemSeams.swiftRuntimeIsStatic {
            return "never by default: \(staticRuntime); rebinding it would change libdispatch's wall-clock deadlines "
                + "too; name \"(executable)\" to rebind it anyway"
        }
        guard library.excludedByDefault else { return "not chosen" }
        guard library.family == .clock else { return "never by default" }
        return library.name.hasPrefix("libssl") || library.name.hasPrefix("libcrypto")
            ? "never by default: certificates are checked against the real time"
            : "never by default: its timers and deadlines keep the real clock"
    }

    /// `rebound: libFoundationEssentials.so (3), (executable) (2); not: libdispatch.so (never by default: …)`, for
    /// the wall clock; the network's follows as `system.net rebound: libcurl.so.4 (2), …`.
    public var description: String {
        let families = SystemSeams.Family.allCases.filter { family in libraries.contains { $0.family == family } }
        guard !families.isEmpty else { return "rebound: none" }
        return families.map { family in
            let yes = rebound.filter { $0.family == family }.map { "\($0.name) (\($0.rebound))" }
            let no = notRebound.filter { $0.family == family }.map { "\($0.name) (\(Self.reason($0)))" }
            let prefix = family == .clock ? "" : "system.\(family.rawValue) "
            return "\(prefix)rebound: \(yes.isEmpty ? "none" : yes.joined(separator: ", "))"
                + (no.isEmpty ? "" : "; not: \(no.joined(separator: ", "))")
        }.joined(separator: "; ")
    }

    /// The coverage of `rebindings` (their symbols only), library by library, as the libraries of `family`.
    static func coverage(
        of rebindings: UnsafePointer<mischief_rebinding>, count: Int, family: SystemSeams.Family
    ) -> [Library] {
        final class Visits {
            var libraries: [Library] = []
            let family: SystemSeams.Family
            init(family: SystemSeams.Family) { self.family = family }
        }
        let visits = Visits(family: family)
        let context = Unmanaged.passUnretained(visits).toOpaque()
        mischief_rebind_coverage(
            rebindings, count,
            { path, slots, rebound, _, context in
                guard let context else { return }
                let visits = Unmanaged<Visits>.fromOpaque(context).takeUnretainedValue()
                visits.libraries.append(
                    Library(
                        path: path.map { String(cString: $0) } ?? "", family: visits.family, slots: Int(slots),
                        rebound: Int(rebound)))
            }, context)
        return visits.libraries
    }
}
