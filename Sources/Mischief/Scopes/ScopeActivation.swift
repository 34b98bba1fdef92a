/// Counts the ``ChaosScope``s active in the process and keeps every seam's scoped bit in step with it.
///
/// A call looks for the calling task's scope only when its seam's word has ``SeamCore/scopedBit`` set, so a
/// process that never activates a scope keeps the one-load fast path. The bit is set on every live seam core
/// when the first scope becomes active, cleared when the last one ends, and set on a core made while any is
/// active. Lock order: this lock, then a core's (a core never takes this lock while holding its own).
enum ScopeActivation {
    private struct State: @unchecked Sendable {
        // @unchecked: unowned references to cores, read and written only under the lock; a core removes itself
        // in its deinit before it is freed.
        var active = 0
        var cores: [ObjectIdentifier: Unowned] = [:]
    }

    private struct Unowned {
        unowned(unsafe) let core: SeamCore
    }

    private static let state = Locked(State())

    /// Whether any scope is active right now.
    static var isActive: Bool { state.withLock { $0.active > 0 } }

    /// Called by every core once it is initialised.
    static func track(_ core: SeamCore) {
        state.withLock { state in
            state.cores[ObjectIdentifier(core)] = Unowned(core: core)
            if state.active > 0 { core.setScoped(true) }
        }
    }

    /// Called by every core as it goes.
    static func untrack(_ core: SeamCore) {
        _ = state.withLock { state in state.cores.removeValue(forKey: ObjectIdentifier(core)) }
    }

    /// A scope became active; the first one sets the bit on every core.
    static func begin() {
        state.withLock { state in
            state.active += 1
            if state.active == 1 { for entry in state.cores.values { entry.core.setScoped(true) } }
        }
    }

    /// A scope ended; the last one clears the bit on every core.
    static func end() {
        state.withLock { state in
            precondition(state.active > 0, "ChaosScope activation ended more often than it began")
            state.active -= 1
            if state.active == 0 { for entry in state.cores.values { entry.core.setScoped(false) } }
        }
    }
}
