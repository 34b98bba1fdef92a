import CMischiefRebind
import CMischiefSystem
import Foundation
import Mischief
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The installed `system.net`: its seam, the rebinding of `getaddrinfo` and `connect` that leads to the C hooks, and
/// the decider those hooks call, which runs the seam for each call while a behaviour is applied or calls are counted.
final class SystemNet: Sendable {
    let seam: Seam<SystemNetCall, SystemNetOutcome, Never>
    let registry: Registry
    /// The hooks and the libraries they go in.
    let hooks: HookTable
    /// Serializes rebinding, reporting and turning the hooks on and off.
    private let lock = Mutex(())
    /// Cleared by ``uninstall()``.
    private let isInstalled = Atomic(true)
    /// The seam's active layers at its last change: when one goes, the connects sleeping through a latency wake.
    private let layers = Mutex<Set<LayerID>>([])

    /// The installed instance the hooks' decider reaches; nil when none is.
    static let current = Mutex<SystemNet?>(nil)

    /// What every library's name starts with, or `(executable)`, for the libraries rebound unless others are named.
    static let defaultLibraries = ["libFoundation.so", "libFoundationNetworking.so", "libcurl.so", "(executable)"]

    init(registry: Registry, libraries: [String]) throws(SystemSeamsError) {
        self.registry = registry
        hooks = HookTable(
            count: Int(MISCHIEF_SYSTEM_NET_HOOKS), family: .net, defaults: Self.defaultLibraries, named: libraries
        ) { index in
            mischief_rebinding(
                symbol: mischief_system_net_symbol(index), replacement: mischief_system_net_hook(index),
                original: mischief_system_net_original(index))
        }
        seam = Self.makeSeam()
        seam.countsExternally(
            ExternalCounting(
                // The seam counts the calls it decides itself; the hooks only need to know when to ask it.
                setCounting: { [weak self] _ in self?.refresh() },
                counts: { (0, 0) }))
        mischief_system_net_set_decider(systemNetDecider)
        Self.current.withLock { $0 = self }
        let written = rebind()
        guard written > 0 else {
            Self.current.withLock { $0 = nil }
            mischief_rebind_restore()
            throw .unsupported(
                written < 0
                    ? "rebinding failed: \(String(cString: strerror(errno)))"
                    : "no library calls getaddrinfo or connect through a global offset table (a fully static binary?)")
        }
        seam.onChange { [weak self] in self?.changed() }
        do {
            try registry.register(seam)
        } catch {
            Self.current.withLock { $0 = nil }
            mischief_rebind_restore()
            throw .failed("registering \(SystemSeams.netID): \(error)")
        }
        refresh()
    }

    /// The `system.net` seam as installing makes it, not yet registered: its original is the real call, and what its
    /// actions decide is all a hook needs. Tests build it alone to check what each spec decides without rebinding.
    static func makeSeam() -> Seam<SystemNetCall, SystemNetOutcome, Never> {
        Seam(
            SystemSeams.netID, title: "System network", category: "Network",
            summary: "getaddrinfo and connect in code not written for Mischief (libcurl, URLSession); libcurl keeps "
                + "DNS answers ~60 s and reuses connections, so a change may show only on a new connection",
            stacking: .merge, actions: SystemNetActions.all
        ) { _ in .real }
    }

    /// Puts back every slot (of every family: see ``SystemSeams/uninstall()``), turns the hooks off, wakes the
    /// connects hanging now and unregisters the seam; returns the slots restored.
    func uninstall() -> Int {
        isInstalled.store(false, ordering: .sequentiallyConsistent)
        registry.unregister(SystemSeams.netID)
        return lock.withLock { _ in
            let restored = Int(mischief_rebind_restore())
            mischief_system_net_set_active(0)
            mischief_system_net_release_hangs()
            mischief_system_net_release_latencies()
            mischief_system_net_forget_hosts()
            Self.current.withLock { $0 = nil }
            return restored
        }
    }

    /// The seam changed: wake the connects sleeping through a latency if a layer went (a latency ends with its
    /// layer), turn the hooks on or off, and rebind libraries loaded since.
    private func changed() {
        guard isInstalled.load(ordering: .sequentiallyConsistent) else { return }
        let active = Set(
            (registry.snapshot(of: SystemSeams.netID)?.layers ?? []).filter { $0.status == .active }.map(\.id))
        let went = layers.withLock { layers in
            defer { layers = active }
            return !layers.subtracting(active).isEmpty
        }
        if went { mischief_system_net_release_latencies() }
        refresh()
        SystemSeams.rebindLoadedSince()
    }

    /// Tells the hooks whether to ask the seam: while a behaviour is applied or its calls are counted.
    private func refresh() {
        lock.withLock { _ in
            let on = isInstalled.load(ordering: .sequentiallyConsistent) && seam.countsCalls
            mischief_system_net_set_active(on ? 1 : 0)
        }
    }

    /// Decides one hooked call, for the C hook: runs the seam, logs what a rule did, counts failures.
    func decide(_ call: SystemNetCall) -> SystemNetOutcome {
        let outcome = seam(call)
        if let rule = outcome.rule {
            registry.report(seam: SystemSeams.netID, message: "\(call) → \(outcome) by \(rule)")
        }
        if outcome.isFailure { seam.countFailure() }
        return outcome
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

/// The hooks' decider: the installed `system.net` decides, or the call is real.
private let systemNetDecider: mischief_system_net_decider = { call, verdict in
    guard let call, let verdict, let net = SystemNet.current.withLock({ $0 }) else { return }
    let names = String(cString: call.pointee.names)
    let decided = SystemNetCall(
        operation: call.pointee.operation == Int32(MISCHIEF_NET_CONNECT) ? .connect : .lookup,
        host: String(cString: call.pointee.host),
        names: names.isEmpty ? [] : names.split(separator: "\n").map(String.init),
        port: call.pointee.port > 0 ? Int(call.pointee.port) : nil, isBlocking: call.pointee.blocking != 0)
    let outcome = net.decide(decided)
    verdict.pointee.delay_nanoseconds = outcome.delayNanoseconds
    switch outcome.action {
    case .real: verdict.pointee.action = Int32(MISCHIEF_NET_REAL)
    case .noSuchHost: verdict.pointee.action = Int32(MISCHIEF_NET_NO_NAME)
    case .refused: verdict.pointee.action = Int32(MISCHIEF_NET_REFUSED)
    case .hang: verdict.pointee.action = Int32(MISCHIEF_NET_HANG)
    case .resolve(let address):
        verdict.pointee.action = Int32(MISCHIEF_NET_RESOLVE)
        withUnsafeMutableBytes(of: &verdict.pointee.address) { buffer in
            let bytes = Array(address.utf8.prefix(buffer.count - 1))
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
    }
}
