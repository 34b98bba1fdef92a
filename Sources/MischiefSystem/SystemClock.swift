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
    /// The hooks and the libraries they go in.
    let hooks: HookTable
    /// Serializes publishing and rescanning.
    private let lock = Mutex(())

    init(registry: Registry, libraries: [String]) throws(SystemSeamsError) {
        self.registry = registry
        hooks = HookTable(
            count: Int(MISCHIEF_SYSTEM_CLOCK_HOOKS), family: .clock, defaults: SystemSeams.defaultLibraries,
            named: libraries
        ) { index in
            mischief_rebinding(
                symbol: mischief_system_clock_symbol(index), replacement: mischief_system_clock_hook(index),
                original: mischief_system_clock_original(index))
        }
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
        // With the Swift runtime linked statically, the executable is withheld unless named: nothing rebound is then
        // what the report says and why, not a failure to install.
        guard written > 0 || (written == 0 && SystemSeams.swiftRuntimeIsStatic) else {
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
        hooks.apply()
    }

    /// What is covered now, library by library.
    func coverage() -> [SystemSeamsReport.Library] {
        lock.withLock { _ in
            hooks.coverage()
        }
    }
}
