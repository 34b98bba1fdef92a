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

/// The installed `system.clock`: its seam (a ``ChaosClock`` of its own), the rebinding of the wall-clock functions
/// that leads to the C hooks, and the timeline those hooks follow, published whenever the seam changes.
final class SystemClock: Sendable {
    let clock: ChaosClock
    let registry: Registry
    /// Extra libraries to rebind, as the caller named them.
    let libraries: [String]
    /// The three rebindings (symbol, hook, where the original goes), allocated once and kept for the process: the
    /// hooks may still be running on other threads after an uninstall. Written once in init, then only read, under
    /// `lock`.
    nonisolated(unsafe) private let rebindings: UnsafeMutablePointer<mischief_rebinding>
    /// Serializes publishing and rescanning.
    private let lock = Mutex(())

    init(registry: Registry, libraries: [String]) throws(SystemSeamsError) {
        self.registry = registry
        self.libraries = libraries
        rebindings = Self.makeRebindings()
        // The real clock first: Mischief's own readings go through it once the executable's slot is rebound.
        guard let real = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "clock_gettime") else {
            throw .unsupported(
                "dlsym(RTLD_NEXT, \"clock_gettime\") found nothing: the program is not dynamically linked")
        }
        mischief_clock_set_real(
            unsafeBitCast(real, to: (@convention(c) (clockid_t, UnsafeMutablePointer<timespec>?) -> Int32).self))
        clock = ChaosClock(
            id: SystemSeams.clockID, title: "System wall clock",
            summary: "Date(), time() and gettimeofday in code not written for Mischief")
        clock.seam.countsExternally(
            ExternalCounting(
                setCounting: { mischief_system_clock_set_counting($0 ? 1 : 0) },
                counts: {
                    var calls: UInt64 = 0
                    var chaos: UInt64 = 0
                    mischief_system_clock_counts(&calls, &chaos)
                    return (calls, chaos)
                }))
        publish()
        let written = rebind()
        guard written > 0 else {
            mischief_rebind_restore()
            throw .unsupported(
                written < 0
                    ? "rebinding failed: \(String(cString: strerror(errno)))"
                    : "no library calls the wall-clock functions through a global offset table (a fully static binary?)"
            )
        }
        clock.seam.onChange { [weak self] in self?.changed() }
        do {
            try registry.register(clock.seam)
        } catch {
            mischief_rebind_restore()
            throw .failed("registering \(SystemSeams.clockID): \(error)")
        }
    }

    /// Puts back every slot, stops the hooks' chaos and unregisters the seam; returns the slots restored.
    func uninstall() -> Int {
        // First, so the changes unregistering makes (a revert) neither publish nor rescan.
        isInstalled.store(false, ordering: .sequentiallyConsistent)
        registry.unregister(SystemSeams.clockID)
        return lock.withLock { _ in
            let restored = Int(mischief_rebind_restore())
            var real = mischief_system_timeline()
            mischief_system_clock_publish(&real)
            mischief_system_clock_set_counting(0)
            return restored
        }
    }

    /// Cleared by ``uninstall()``.
    private let isInstalled = Atomic(true)

    /// The seam changed: publish its timeline, and rebind libraries loaded since (the scan runs only then).
    private func changed() {
        guard isInstalled.load(ordering: .sequentiallyConsistent) else { return }
        publish()
        SystemSeams.rebindLoadedSince()
    }

    /// Publishes the seam's timeline to the hooks.
    func publish() {
        let map = clock.seam.peek().nanosecondMap
        var timeline = mischief_system_timeline(
            kind: map.kind, offset: map.offset, stopped: map.stopped, real_anchor: map.realAnchor,
            chaos_anchor: map.chaosAnchor, factor: map.factor)
        lock.withLock { _ in mischief_system_clock_publish(&timeline) }
    }

    func rebind() -> Int32 {
        lock.withLock { _ in rebindLocked() }
    }

    private func rebindLocked() -> Int32 {
        let context = Unmanaged.passUnretained(self).toOpaque()
        return mischief_rebind_apply(
            rebindings, Int(MISCHIEF_SYSTEM_CLOCK_HOOKS),
            { path, context in
                guard let context else { return 0 }
                let system = Unmanaged<SystemClock>.fromOpaque(context).takeUnretainedValue()
                return system.chooses(path.map { String(cString: $0) } ?? "") ? 1 : 0
            }, context)
    }

    /// Whether the object at `path` ("" for the executable) is rebound: the default libraries, and those named.
    func chooses(_ path: String) -> Bool {
        let name = Self.name(of: path)
        if libraries.contains(where: { name.contains($0) }) { return true }
        if SystemSeams.excludedLibraries.contains(where: { name.hasPrefix($0) }) { return false }
        return SystemSeams.defaultLibraries.contains { $0 == "(executable)" ? path.isEmpty : name.hasPrefix($0) }
    }

    /// The file name of `path`, or `(executable)` for the program itself.
    static func name(of path: String) -> String {
        path.isEmpty ? "(executable)" : String(path.split(separator: "/").last ?? Substring(path))
    }

    /// What is covered now, library by library.
    func coverage() -> [SystemSeamsReport.Library] {
        lock.withLock { _ in
            SystemSeamsReport.coverage(of: rebindings, count: Int(MISCHIEF_SYSTEM_CLOCK_HOOKS), family: .clock)
        }
    }

    private static func makeRebindings() -> UnsafeMutablePointer<mischief_rebinding> {
        let count = Int(MISCHIEF_SYSTEM_CLOCK_HOOKS)
        let rebindings = UnsafeMutablePointer<mischief_rebinding>.allocate(capacity: count)
        for index in 0..<count {
            rebindings[index] = mischief_rebinding(
                symbol: mischief_system_clock_symbol(Int32(index)),
                replacement: mischief_system_clock_hook(Int32(index)),
                original: mischief_system_clock_original(Int32(index)))
        }
        return rebindings
    }
}
