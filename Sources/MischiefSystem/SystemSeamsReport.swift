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
    /// Libraries a family would rebind (its defaults, or named) that are not loaded, by family: each is rebound
    /// once it is loaded and the seam next changes.
    public var notLoaded: [SystemSeams.Family: [String]]

    /// A report of `libraries` (those without a slot of their family's functions are left out), warning about each
    /// one of ``SystemSeams/excludedLibraries`` that is rebound (because it was named), and of the libraries
    /// `notLoaded` yet.
    public init(libraries: [Library], notLoaded: [SystemSeams.Family: [String]] = [:]) {
        self.libraries = libraries.filter { $0.slots > 0 }
        self.notLoaded = notLoaded.filter { !$0.value.isEmpty }
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
        return families.compactMap { family in
            summary(of: family).map { (family == .clock ? "" : "system.\(family.rawValue) ") + $0 }
        }.joined(separator: "; ")
    }

    /// What `family` reaches, on one line: `rebound: libcurl.so.4 (2), …; not: … (why)`; nil when no loaded object
    /// calls its functions.
    public func summary(of family: SystemSeams.Family) -> String? {
        guard libraries.contains(where: { $0.family == family }) else { return nil }
        let yes = rebound.filter { $0.family == family }.map { "\($0.name) (\($0.rebound))" }
        let no = notRebound.filter { $0.family == family }.map { "\($0.name) (\(Self.reason($0)))" }
        return "rebound: \(yes.isEmpty ? "none" : yes.joined(separator: ", "))"
            + (no.isEmpty ? "" : "; not: \(no.joined(separator: ", "))")
    }

    /// What `family` reaches now, in the lines `system.clock` and `system.net` show in a console and in
    /// `mischief list`: the libraries rebound, those left alone and why, those not loaded yet, and what the family
    /// never changes or what may hide a change.
    public func notes(for family: SystemSeams.Family) -> [String] {
        let yes = rebound.filter { $0.family == family }.map(\.name)
        var lines = ["rebound: " + (yes.isEmpty ? "none" : yes.joined(separator: ", "))]
        // Left alone on purpose, one line each with why; merely not chosen, on one line.
        let left = notRebound.filter { $0.family == family }
        let unchosen = left.filter { Self.reason($0) == "not chosen" }.map(\.name)
        for library in left where Self.reason(library) != "not chosen" {
            lines.append("not rebound: \(library.name) (\(Self.reason(library)))")
        }
        if !unchosen.isEmpty {
            lines.append("not chosen (name one to rebind it): " + unchosen.joined(separator: ", "))
        }
        for name in notLoaded[family] ?? [] {
            lines.append("not loaded yet: \(name) (rebound once loaded, when the seam next changes)")
        }
        lines += warnings.filter { warning in
            rebound.contains { $0.family == family && warning.hasPrefix($0.name + " is rebound as asked") }
        }
        switch family {
        case .clock:
            lines.append("never changed: monotonic and boot clocks (timers, sleeps, ContinuousClock keep real time)")
        case .net:
            lines.append(
                "may hide a change: libcurl keeps DNS answers about 60 s and reuses kept-alive connections, so a "
                    + "change shows on new lookups and connections")
            lines.append("never changed: AF_UNIX sockets (Mischief's control socket among them)")
        }
        return lines
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
