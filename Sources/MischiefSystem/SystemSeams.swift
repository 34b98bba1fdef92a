import CMischiefClock
import CMischiefRebind
import CMischiefSystem
import Foundation
import Mischief
import MischiefCatalog
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Seams for code that was not written for Mischief: the process's own wall clock, as `Date()`, `time()` and
/// `gettimeofday` read it in any library, and its network, as `getaddrinfo` and `connect` reach it in libcurl
/// (URLSession on Linux) and Foundation, changed live and put back exactly.
///
/// Installing rebinds the wall-clock functions (`clock_gettime`, `gettimeofday`, `time`) in the global offset tables of
/// Foundation, FoundationEssentials, the program's own executable and the libraries you name, so a JWT library
/// that checks expiry with `Date()` sees the `system.clock` seam's shift too. The seam has the clock's actions
/// (`shift`, `freeze`, `dilate`, `virtual`) and is driven like any other, from the console, the CLI, the API,
/// profiles, guards and time to live:
/// ```swift
/// let report = try SystemSeams.install([.clock])      // registers system.clock in Registry.shared
/// try Registry.shared.apply(spec: "shift(+1d)", to: "system.clock")
/// print(Date())                                        // tomorrow, in this program and its libraries
/// Registry.shared.revert(seam: "system.clock")
/// SystemSeams.uninstall()                              // every slot holds what it held before
/// ```
///
/// Monotonic and boot clocks are never changed, and libdispatch, Swift Concurrency, libssl and libcrypto are never
/// rebound unless named (their timeouts and certificate checks must keep working): `DispatchQueue.asyncAfter`,
/// `Task.sleep` and `ContinuousClock` stay exact under any wall-clock chaos. Mischief's own readings (`ChaosClock`,
/// a console's times) read the real clock, so `clock.now` and `system.clock` never stack.
///
/// `install([.clock, .net])` adds `system.net`, whose actions (`dns`, `refused`, `hang`, `latency`, `resolve`) fail
/// or redirect lookups and connections by host; AF_UNIX sockets, such as Mischief's control socket, are never
/// affected. libcurl keeps DNS answers about a minute and reuses connections, so a change may show only on a new
/// session or connection (see the article "The network of code you cannot change"). ``uninstall()`` removes every
/// family at once.
///
/// The rebinding is process-wide: a `ChaosScope` cannot scope it, and tests that use it run serialized. Libraries
/// loaded after install are covered the next time the seam changes (the loaded objects are scanned again when they
/// changed). It works on Linux. With the Swift runtime linked statically (`-static-stdlib`), Foundation and
/// libdispatch share the executable's slots, so `system.clock` leaves the executable alone unless it is named and
/// covers nothing by default: the report says why (``swiftRuntimeIsStatic``). Elsewhere, or in a fully static
/// binary (`-static-executable`, no dynamic linking), ``install(_:in:libraries:)`` says why it cannot and changes
/// nothing.
public enum SystemSeams {
    /// A family of system seams.
    public enum Family: String, Sendable, Hashable, CaseIterable {
        /// `system.clock`: the wall clock.
        case clock
        /// `system.net`: host-name lookups (`getaddrinfo`) and TCP connections (`connect`).
        case net
    }

    /// The id of the wall-clock seam.
    public static let clockID: SeamID = "system.clock"

    /// The id of the network seam.
    public static let netID: SeamID = "system.net"

    /// The libraries `system.clock` rebinds unless you name others: Foundation's and the program's own executable.
    public static let defaultLibraries = ["libFoundationEssentials.so", "libFoundation.so", "(executable)"]

    /// Libraries never rebound unless named in `libraries`: their timeouts and certificate checks must keep working.
    public static let excludedLibraries = [
        "libdispatch.so", "libswift_Concurrency.so", "libssl.so", "libcrypto.so",
    ]

    /// Whether the Swift runtime is linked into the executable (`swift build -Xswiftc -static-stdlib`, or
    /// `--static-swift-stdlib`): no `libswiftCore.so` is loaded. Foundation, libdispatch and Swift Concurrency are then
    /// in the executable too, and call `clock_gettime` through its one global offset table, so rebinding the
    /// executable would move libdispatch's wall-clock deadlines (`DispatchWallTime`, `asyncAfter(wallDeadline:)`,
    /// and the absolute deadlines it computes for semaphore and group timeouts) with the chaos time. `system.clock`
    /// then leaves the executable alone unless you name `(executable)` in `libraries`; the report says so.
    public static let swiftRuntimeIsStatic: Bool = {
        #if os(Linux)
            guard let handle = dlopen("libswiftCore.so", RTLD_LAZY | RTLD_NOLOAD) else { return true }
            dlclose(handle)
            return false
        #else
            return false
        #endif
    }()

    /// The libraries `system.net` rebinds unless you name others: libcurl (URLSession's transport on Linux),
    /// Foundation's, FoundationNetworking's and the program's own executable.
    public static let defaultNetLibraries = SystemNet.defaultLibraries

    /// Installs the system seams of `families` in `registry`, and rebinds the slots that lead to them.
    ///
    /// - Parameters:
    ///   - families: the system seams to install: ``Family/clock``, ``Family/net``, or both.
    ///   - registry: where their seams are registered.
    ///   - libraries: more libraries to rebind, by file name (`libcurl.so.4`) or a part of it; naming one of
    ///     ``excludedLibraries`` rebinds it too, at the risk the ``SystemSeamsReport/warnings`` name.
    /// - Returns: what is covered, library by library, and what is not and why.
    /// - Throws: ``SystemSeamsError`` when it cannot work here (not Linux, no dynamic linking, chaos compiled out)
    ///   or is installed already; nothing is changed then. Install every family you need in one call: a second
    ///   install, even of another family, is refused until ``uninstall()``.
    @discardableResult
    public static func install(
        _ families: Set<Family> = [.clock], in registry: Registry = .shared, libraries: [String] = []
    ) throws(SystemSeamsError) -> SystemSeamsReport {
        #if !Chaos
            throw .compiledOut
        #elseif !os(Linux)
            throw .unsupported("system seams rebind ELF global offset tables; this platform is not Linux")
        #else
            try installed.withLock { (current) throws(SystemSeamsError) -> SystemSeamsReport in
                guard current == nil else { throw .alreadyInstalled }
                let clock = families.contains(.clock) ? try SystemClock(registry: registry, libraries: libraries) : nil
                var net: SystemNet?
                if families.contains(.net) {
                    do throws(SystemSeamsError) {
                        net = try SystemNet(registry: registry, libraries: libraries)
                    } catch {
                        _ = clock?.uninstall()
                        throw error
                    }
                }
                let installing = Installed(clock: clock, net: net)
                current = installing
                rebinders.withLock { $0 = installing }
                let report = installing.report()
                installing.annotate(report)
                return report
            }
        #endif
    }

    /// Puts back every slot the system seams rebound, exactly as it was, and unregisters their seams: every family
    /// at once (the rebinding core restores all the slots it wrote together), so there is no uninstalling one family
    /// and keeping another. A connect hanging under `system.net` wakes and fails with `ETIMEDOUT`.
    ///
    /// - Returns: how many slots were restored (0 when nothing was installed).
    @discardableResult
    public static func uninstall() -> Int {
        installed.withLock { current in
            defer { current = nil }
            rebinders.withLock { $0 = nil }
            // The network first: its restore puts back the clock's slots too, before the clock publishes the real
            // time, so no clock reading sees a half-uninstalled seam.
            let net = current?.net?.uninstall() ?? 0
            return net + (current?.clock?.uninstall() ?? 0)
        }
    }

    /// What the installed system seams cover now, library by library; empty when none is installed.
    public static var report: SystemSeamsReport? {
        installed.withLock { $0?.report() }
    }

    /// The clock behind `system.clock`, to advance its time (`virtual`, `freeze`); nil when not installed.
    public static var clock: ChaosClock? {
        installed.withLock { $0?.clock?.clock }
    }

    /// The seam behind `system.net`, to apply behaviours in code; nil when not installed.
    public static var net: Seam<SystemNetCall, SystemNetOutcome, Never>? {
        installed.withLock { $0?.net?.seam }
    }

    /// Moves `system.clock`'s time forward by `duration` (see `ChaosClock.advance(by:)`), and the hooks with it.
    ///
    /// - Returns: false when it is not installed or its time is real.
    @discardableResult
    public static func advanceClock(by duration: Duration) async -> Bool {
        guard let system = installed.withLock({ $0?.clock }) else { return false }
        let moved = await system.clock.advance(by: duration)
        system.publish()
        return moved
    }

    /// Rebinds, for every installed family, the libraries loaded since the last rebinding (the scan runs only when
    /// objects were loaded or unloaded). One place for all families: the core's "objects changed" answer is cleared by
    /// whichever family applies first.
    static func rebindLoadedSince() {
        rebinders.withLock { installed in
            guard let installed, mischief_rebind_objects_changed() != 0 else { return }
            _ = installed.clock?.rebind()
            _ = installed.net?.rebind()
            installed.annotate(installed.report())
        }
    }

    /// The installed families.
    final class Installed: Sendable {
        let clock: SystemClock?
        let net: SystemNet?

        init(clock: SystemClock?, net: SystemNet?) {
            self.clock = clock
            self.net = net
        }

        /// What is covered now, family by family.
        func report() -> SystemSeamsReport {
            let clockLibraries = clock?.coverage() ?? []
            let netLibraries = net?.coverage() ?? []
            var notLoaded: [Family: [String]] = [:]
            if let clock { notLoaded[.clock] = clock.hooks.notLoaded(among: clockLibraries) }
            if let net { notLoaded[.net] = net.hooks.notLoaded(among: netLibraries) }
            return SystemSeamsReport(libraries: clockLibraries + netLibraries, notLoaded: notLoaded)
        }

        /// Tells the registry what each family's seam reaches now (see `Registry.annotate(_:notes:)`), so consoles
        /// and `mischief list` show it.
        func annotate(_ report: SystemSeamsReport) {
            if let clock { clock.registry.annotate(SystemSeams.clockID, notes: report.notes(for: .clock)) }
            if let net { net.registry.annotate(SystemSeams.netID, notes: report.notes(for: .net)) }
        }
    }

    private static let installed = Mutex<Installed?>(nil)
    /// The installed families again, under a lock of their own: seams changing call ``rebindLoadedSince()``, which
    /// must not wait for `installed`, held while installing or uninstalling registers and unregisters seams.
    private static let rebinders = Mutex<Installed?>(nil)
}

/// Why system seams cannot be installed.
public enum SystemSeamsError: Error, Equatable, CustomStringConvertible {
    /// Mischief is built without chaos (`traits: []`): nothing can be changed.
    case compiledOut
    /// This platform or build cannot be rebound; the text says why.
    case unsupported(String)
    /// System seams are installed already; uninstall first.
    case alreadyInstalled
    /// The rebinding failed; the text says where.
    case failed(String)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .compiledOut: "system seams are compiled out: Mischief is built without chaos (traits: [])"
        case .unsupported(let why): "system seams cannot work here: \(why)"
        case .alreadyInstalled: "system seams are installed already; uninstall them first"
        case .failed(let why): "system seams could not be installed: \(why)"
        }
    }
}
