import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The numbers the calls through one installed box take, while a recording or a replay numbers a seam's calls.
///
/// A seam's calls are numbered one after the other across the boxes installed on it: a box's first call is
/// ``base`` + 1. A call takes its number from the box it entered, in one compare-and-swap, and runs under that box's
/// layers; the registry *closes* a box's numbering just before it publishes the next box (in the seam core's lock,
/// nothing between the two), and the count it closes at is the next box's base. So every call numbered up to that base ran under the layers before the change and every
/// later one under those after it: the change is exactly between two calls, whatever thread made it. A call that
/// finds its box closed takes no number there: it leaves and enters again, meeting the box installed after it
/// (``claim()`` gives nil).
///
/// A seam with nothing applied and no replay waiting on it has no box: its calls take their numbers from its core
/// (``SeamCore/numbers``) the same way, and a numbering made with ``core`` closes and opens those.
///
/// A replay limits the numbers: while a step waits for call N, no call takes a number above N until the step is
/// made (it closes this box), so the calls after N meet the change as they did when it was recorded.
@usableFromInline
final class CallNumbering: @unchecked Sendable {
    // @unchecked: `base` is written once, by the registry, before the box is published (the word's release store);
    // calls read it after loading the word with acquire.
    /// The calls numbered before this box: its first call is `base + 1`.
    private(set) var base: Int
    /// The replay whose steps limit the numbers; nil when no replay waits on the seam.
    let trigger: ReplayTrigger?
    /// Calls that took a number here, with ``closedBit`` once the box is closed.
    private let claimed = Atomic<Int>(0)
    /// The core whose ``SeamCore/numbers`` number the calls instead, when the seam has nothing applied and no replay
    /// waits on it: no box is installed, and a call takes its number there (``SeamCore/enterNumbered(_:mayMigrate:)``).
    let core: SeamCore?

    /// Set in a count once no call may take a number there any more.
    @usableFromInline static var closedBit: Int { 1 << 62 }

    /// How long a call waits for a replay's step before it goes on without it (the replay then diverges, and says
    /// so; the program is never held longer than this).
    static let longestWait = Duration.seconds(2)

    /// Numbers for a box (`core` nil), or for the calls of `core`'s seam while no box is installed on it.
    init(base: Int = 0, trigger: ReplayTrigger?, core: SeamCore? = nil) {
        self.base = base
        self.trigger = trigger
        self.core = core
    }

    /// Starts this box's numbers after `previous`'s, closing it: called just before this box (or, for numbers in the
    /// core, no box) is published.
    func follow(_ previous: CallNumbering?) {
        base = previous?.close() ?? 0
        core?.numbers.store(base, ordering: .releasing)
    }

    /// Takes the next number: the call's number in the seam, or nil when the box has been closed (the caller leaves
    /// it and enters again).
    @usableFromInline
    func claim() -> Int? {
        var count = claimed.load(ordering: .acquiring)
        var limited = trigger != nil
        while true {
            if count & Self.closedBit != 0 { return nil }
            let number = base &+ count &+ 1
            if limited, let trigger, number &- trigger.start > trigger.due.load(ordering: .sequentiallyConsistent) {
                // A step is due before this call: wait for it to be made (it closes this box), or for the limit.
                limited = waitForStep(trigger, number: number)
                count = claimed.load(ordering: .acquiring)
                continue
            }
            let (exchanged, original) = claimed.weakCompareExchange(
                expected: count, desired: count &+ 1, ordering: .acquiringAndReleasing)
            if exchanged { return number }
            count = original
        }
    }

    /// Waits until this box is closed or `trigger`'s limit has moved past `number`; false when ``longestWait``
    /// passed first (the call then goes on without the step). Out of line: only a replay's calls come here.
    @inline(never)
    private func waitForStep(_ trigger: ReplayTrigger, number: Int) -> Bool {
        let started = ContinuousClock.now
        var spins = 0
        while claimed.load(ordering: .acquiring) & Self.closedBit == 0,
            number &- trigger.start > trigger.due.load(ordering: .sequentiallyConsistent)
        {
            spins &+= 1
            if spins & 63 == 0 {
                if ContinuousClock.now - started >= Self.longestWait { return false }
                sched_yield()
            }
        }
        return true
    }

    /// Closes the box: no call takes a number here any more. Returns the number of the last call that took one
    /// (the next box's ``base``).
    func close() -> Int {
        if let core { return core.numbers.bitwiseOr(Self.closedBit, ordering: .acquiringAndReleasing).oldValue }
        let before = claimed.bitwiseOr(Self.closedBit, ordering: .acquiringAndReleasing).oldValue
        return base &+ (before & ~Self.closedBit)
    }

    /// The number the seam's last call took so far (exact once closed).
    var position: Int {
        if let core { return core.numbers.load(ordering: .acquiring) & ~Self.closedBit }
        return base &+ (claimed.load(ordering: .acquiring) & ~Self.closedBit)
    }
}
