import Synchronization

/// Switches chaos off for the whole process, for builds and runs where it must never happen.
///
/// Set `MISCHIEF_DISABLED=1` in the environment, or call ``engage(reason:)`` early (in a release build's
/// start-up, say). While engaged, every registry refuses every change with a clear message, and what was
/// applied when it was engaged is reverted, so every seam behaves as its original.
public enum KillSwitch {
    private static let state = Locked<String?>(environmentReason())
    /// Whether it is engaged, readable without the lock (test scopes check it on every call they change).
    private static let engaged = Atomic<Bool>(environmentReason() != nil)
    private static let registries = Locked<[WeakRegistry]>([])
    /// Scopes that have applied a pause: engaging reverts them, so no call stays held.
    private static let scopes = Locked<[WeakScope]>([])

    private struct WeakRegistry: @unchecked Sendable {
        // @unchecked: a weak reference to a Sendable class, read and written under the lock.
        weak var registry: Registry?
    }

    private struct WeakScope: @unchecked Sendable {
        // @unchecked: a weak reference to a Sendable class, read and written under the lock.
        weak var scope: ChaosScope?
    }

    /// Why chaos is off, or nil when it is allowed.
    public static var reason: String? { state.withLock { $0 } }

    /// Whether chaos is off.
    public static var isEngaged: Bool { engaged.load(ordering: .acquiring) }

    /// Switches chaos off for the rest of the process and reverts everything applied in every registry.
    public static func engage(reason: String = "KillSwitch.engage() was called") {
        state.withLock { $0 = $0 ?? reason }
        engaged.store(true, ordering: .releasing)
        let live = registries.withLock { list in list.compactMap(\.registry) }
        for registry in live { registry.revertAll() }
        let pausing = scopes.withLock { list in list.compactMap(\.scope) }
        for scope in pausing { scope.revertAll() }
    }

    static func track(_ scope: ChaosScope) {
        scopes.withLock { list in
            guard !list.contains(where: { $0.scope === scope }) else { return }
            list.removeAll { $0.scope == nil }
            list.append(WeakScope(scope: scope))
        }
    }

    static func track(_ registry: Registry) {
        registries.withLock { list in
            list.removeAll { $0.registry == nil }
            list.append(WeakRegistry(registry: registry))
        }
    }

    /// Whether this build has the `Chaos` package trait: false when an app depends on Mischief with
    /// `traits: []` for a shipping build. Then seams always call their originals, every registry refuses every
    /// change, `MISCHIEF_APPLY` is ignored and the control server does not listen.
    public static let isChaosCompiledIn: Bool = {
        #if Chaos
            true
        #else
            false
        #endif
    }()

    /// Why chaos is off in this build, when it was built without the `Chaos` trait.
    package static let compiledOutReason =
        "Mischief was built without its Chaos trait (a shipping build): seams always call their originals"

    private static func environmentReason() -> String? {
        if !isChaosCompiledIn { return compiledOutReason }
        guard let value = Environment.value("MISCHIEF_DISABLED"), !value.isEmpty, value != "0", value != "false"
        else { return nil }
        return "MISCHIEF_DISABLED=\(value) is set"
    }
}
