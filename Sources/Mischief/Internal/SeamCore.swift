#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The part of a seam its callers touch on every call: one atomic word and a block of sharded counters.
///
/// ## The word
/// `word` packs what a call needs to know into one relaxed load: bit 0 is set while calls are counted,
/// bit 1 is the current *phase*, and the rest is the address of the installed behaviour box, or zero.
/// A seam that nothing changed and nobody observes has a word of zero: a call loads it, branches, and runs
/// the original.
///
/// ## Counters
/// Each of ``shardCount`` shards is one 64-byte cache line of eight `UInt64` counters; a thread picks its
/// shard from its thread id, so threads calling one seam rarely write the same line. Every counter only grows.
///
/// ## Freeing a replaced behaviour without locks or shared reference counts
/// A chaos call announces itself before it reads the box address: it adds one to `entered[phase]` on its
/// shard (sequentially consistent), reloads the word, and only then uses the box, without retaining it.
/// When it leaves it adds one to `left[phase]` on the same shard. The registry installs a new box by storing
/// a new word with the phase flipped, keeps the old box alive in a *retired* list, and frees it once the old
/// phase has drained: for every shard, `left` read before `entered` gives the same value. Because the counters
/// only grow and a call leaves on the shard it entered, that observation proves every call that could have
/// read the old address has finished. So a replaced behaviour is freed by the first registry operation
/// (apply, revert, snapshot, ``Registry/settle()``) after its last in-flight call returns; until then its
/// entries show as *reverting*.
@usableFromInline
final class SeamCore: @unchecked Sendable {
    // @unchecked: `lines` is a fixed block of atomics allocated in init and freed in deinit; every access to it
    // goes through `Atomic`.

    static let shardCount = 16
    static let slotsPerShard = 8

    /// Slot indices within a shard's line.
    enum Slot {
        static let entered = 0  // + 2 × phase
        static let left = 1  // + 2 × phase
        static let plain = 4  // counted calls that met no behaviour
        static let passedThrough = 5  // chaos calls whose behaviour did not fire
        static let errors = 6  // errors thrown on the chaos path
        static let uncounted = 7  // entries that are not calls: retries after a phase flip, peeks
    }

    static let countingBit: UInt = 1
    static let phaseBit: UInt = 2
    @usableFromInline static let addressMask: UInt = ~0xF

    /// Packed state; see the type's documentation.
    @usableFromInline let word = Atomic<UInt>(0)

    /// Called after every apply or revert that changes what the seam does; see ``Seam/onChange(_:)``.
    let changeListeners = Mutex<[@Sendable () -> Void]>([])

    /// Runs the change listeners (never under the registry's lock).
    func notifyChanged() {
        for listener in changeListeners.withLock({ $0 }) { listener() }
    }

    private let lines: UnsafeMutablePointer<Atomic<UInt64>>

    init() {
        let count = SeamCore.shardCount * SeamCore.slotsPerShard
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * 8, alignment: 64)
        lines = raw.bindMemory(to: Atomic<UInt64>.self, capacity: count)
        for index in 0..<count {
            (lines + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        lines.deinitialize(count: SeamCore.shardCount * SeamCore.slotsPerShard)
        UnsafeMutableRawPointer(lines).deallocate()
    }

    /// The counter line of the calling thread's shard.
    @inline(__always)
    private func currentLine() -> UnsafeMutablePointer<Atomic<UInt64>> {
        let thread = UInt64(UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))))
        // Fibonacci hashing of the thread id; the top bits pick the shard.
        let shard = Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> 60)
        return lines + shard * SeamCore.slotsPerShard
    }

    /// A chaos call in progress: where it counted itself and which box it may use.
    @usableFromInline
    struct Ticket {
        @usableFromInline let line: UnsafeMutablePointer<Atomic<UInt64>>
        @usableFromInline let phase: Int
        @usableFromInline let box: UnsafeRawPointer
    }

    /// Called when the word was non-zero. Returns a ticket when a behaviour is installed (the call must
    /// `leave` it), or nil after counting the call as a plain one (the caller runs the original).
    @usableFromInline
    func enter(_ word: UInt, counted: Bool = true) -> Ticket? {
        let line = currentLine()
        var word = word
        while word & SeamCore.addressMask != 0 {
            let phase = Int(truncatingIfNeeded: (word & SeamCore.phaseBit) >> 1)
            line[Slot.entered + 2 * phase].wrappingAdd(1, ordering: .sequentiallyConsistent)
            let current = self.word.load(ordering: .sequentiallyConsistent)
            if current & SeamCore.phaseBit == word & SeamCore.phaseBit, current & SeamCore.addressMask != 0 {
                if !counted { line[Slot.uncounted].wrappingAdd(1, ordering: .relaxed) }
                let address = UnsafeRawPointer(bitPattern: current & SeamCore.addressMask)!
                return Ticket(line: line, phase: phase, box: address)
            }
            // The registry swapped the box between our two loads: undo and try again with what is there now.
            line[Slot.uncounted].wrappingAdd(1, ordering: .relaxed)
            line[Slot.left + 2 * phase].wrappingAdd(1, ordering: .releasing)
            word = current
        }
        if counted && word & SeamCore.countingBit != 0 {
            line[Slot.plain].wrappingAdd(1, ordering: .relaxed)
        }
        return nil
    }

    /// Counts a call that meets no behaviour while counting is on.
    @usableFromInline
    func countPlain() {
        currentLine()[Slot.plain].wrappingAdd(1, ordering: .relaxed)
    }

    /// Ends a chaos call.
    @usableFromInline
    func leave(_ ticket: Ticket, passedThrough: Bool = false, failed: Bool = false) {
        if passedThrough { ticket.line[Slot.passedThrough].wrappingAdd(1, ordering: .relaxed) }
        if failed { ticket.line[Slot.errors].wrappingAdd(1, ordering: .relaxed) }
        ticket.line[Slot.left + 2 * ticket.phase].wrappingAdd(1, ordering: .releasing)
    }

    // MARK: Registry side (always called under the registry's lock)

    /// Installs `box` (or nothing) and flips the phase. Returns the phase the previous box belonged to.
    func install(_ box: AnyObject?) -> Int {
        let old = word.load(ordering: .sequentiallyConsistent)
        // With no box the phase is irrelevant (calls do not enter a phase), so it is cleared: an unobserved
        // seam with nothing applied gets the all-zero word of the fast path back. The phase only speeds up
        // freeing; safety never depends on which phase is current.
        var new = old & SeamCore.countingBit
        if let box {
            new |= (old & SeamCore.phaseBit) ^ SeamCore.phaseBit
            let address = UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque())
            precondition(address & ~SeamCore.addressMask == 0, "behaviour boxes must be 16-byte aligned")
            new |= address
        }
        word.store(new, ordering: .sequentiallyConsistent)
        return Int(truncatingIfNeeded: (old & SeamCore.phaseBit) >> 1)
    }

    /// Turns counting on or off, keeping the box and phase.
    func setCounting(_ on: Bool) {
        let old = word.load(ordering: .relaxed)
        let new = on ? old | SeamCore.countingBit : old & ~SeamCore.countingBit
        if new != old { word.store(new, ordering: .sequentiallyConsistent) }
    }

    /// Whether every call that entered `phase` has left; see the type's documentation.
    func isDrained(phase: Int) -> Bool {
        for shard in 0..<SeamCore.shardCount {
            let line = lines + shard * SeamCore.slotsPerShard
            let left = line[Slot.left + 2 * phase].load(ordering: .sequentiallyConsistent)
            let entered = line[Slot.entered + 2 * phase].load(ordering: .sequentiallyConsistent)
            if left != entered { return false }
        }
        return true
    }

    /// Sums the shards into the counters a snapshot shows.
    func counters() -> SeamCounters {
        var sums = [UInt64](repeating: 0, count: SeamCore.slotsPerShard)
        for shard in 0..<SeamCore.shardCount {
            let line = lines + shard * SeamCore.slotsPerShard
            // Read `left` before `entered` so that in-flight never comes out negative.
            for slot in [1, 3, 0, 2, 4, 5, 6, 7] {
                sums[slot] &+= line[slot].load(ordering: .acquiring)
            }
        }
        let entered = sums[0] &+ sums[2]
        let left = sums[1] &+ sums[3]
        let chaosEntries = entered &- sums[Slot.uncounted]
        return SeamCounters(
            calls: Int(truncatingIfNeeded: sums[Slot.plain] &+ chaosEntries),
            chaosCalls: Int(truncatingIfNeeded: chaosEntries &- sums[Slot.passedThrough]),
            errors: Int(truncatingIfNeeded: sums[Slot.errors]),
            inFlight: Int(truncatingIfNeeded: entered &- left))
    }
}

/// A seam's counters at one moment.
public struct SeamCounters: Hashable, Sendable, Codable {
    /// Calls made while counting was on, plus every call that met a behaviour.
    public var calls: Int
    /// Calls a behaviour served (it fired, rather than passing through to the original).
    public var chaosCalls: Int
    /// Errors thrown on the chaos path.
    public var errors: Int
    /// Calls inside a behaviour right now.
    public var inFlight: Int

    /// Counters with the given values; all zero by default.
    public init(calls: Int = 0, chaosCalls: Int = 0, errors: Int = 0, inFlight: Int = 0) {
        self.calls = calls
        self.chaosCalls = chaosCalls
        self.errors = errors
        self.inFlight = inFlight
    }
}
