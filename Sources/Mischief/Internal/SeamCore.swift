import CMischiefTSan
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a seam whose calls are made outside Swift counts them (see `AnySeam.countsExternally(_:)`).
package struct ExternalCounting: Sendable {
    /// Turns counting on or off, as the registry turns it for a seam it observes.
    package var setCounting: @Sendable (Bool) -> Void
    /// The calls counted so far, and those of them that met a behaviour; both only grow.
    package var counts: @Sendable () -> (calls: UInt64, chaosCalls: UInt64)

    /// Counting through these two functions.
    package init(
        setCounting: @escaping @Sendable (Bool) -> Void,
        counts: @escaping @Sendable () -> (calls: UInt64, chaosCalls: UInt64)
    ) {
        self.setCounting = setCounting
        self.counts = counts
    }
}

/// The part of a seam its callers touch on every call: one atomic word and a block of sharded counters.
///
/// ## The word
/// `word` packs what a call needs to know into one relaxed load: bit 0 is set while calls are counted,
/// bit 1 is the *phase* of the installed box, bit 2 is set while a ``ChaosScope`` is active anywhere in the
/// process (so calls look for the calling task's scope), and the rest is the address of the installed behaviour
/// box, or zero. A seam that nothing changed and nobody observes has a word of zero: a call loads it, branches, and runs
/// the original.
///
/// The seam object keeps a copy of the word (``AnySeam/word``), stored right after the word under this core's lock,
/// which a call tests first: one load from the seam rather than two (the core, then its word). Only the first test
/// reads the copy. Whatever it says, a chaos call announces itself and then reloads this word (below), and uses only
/// what the reload names, so the copy being a moment behind or ahead of the word changes which path a call takes,
/// never what it may use. A call that is only counted (the copy is ``countingBit`` alone) is counted at its call
/// site (``countCall()``), which then runs the original.
///
/// ## Counters
/// Each of ``shardCount`` shards is one 64-byte cache line of eight `UInt64` counters (see ``Slot``). Every counter
/// only grows. The first ``laneCount`` shards are *lanes*: a thread claims one lane for all seams on its first
/// counted call and frees it when it exits (`mischief_lanes.h`), and a lane's line is written by its one owner, so
/// counting and leaving are a plain load and store, not a locked add. Threads beyond the lanes, and async calls (a
/// task may resume on another thread before it leaves), count with locked adds on the remaining shards, picked
/// from the thread id.
///
/// ## Freeing a replaced behaviour without locks or shared reference counts
/// A chaos call announces itself before it reads the box address: it adds one to `entered(phase)` on its
/// shard (a sequentially consistent read-modify-write, even on a lane: the reload below must not pass it), reloads
/// the word, and only then uses the box, without retaining it, if the phase is still the one it announced. When it
/// leaves it adds one to `left(phase)` on the same shard (a release store on a lane, whose only writer it is). The core
/// itself owns every box the word points to or did (see `SeamCore+Ownership.swift`): a replaced box is
/// *retired* with the phase it was installed in and freed once that phase has drained: for every shard, `left`
/// read before `entered` gives the same value. Because the counters only grow and a call leaves on the shard it
/// entered, that observation proves every call that could have read the old address has finished.
///
/// The phase of each box is chosen on the registry side, so that the current box never shares a phase with a
/// retired one for longer than its calls already inside take to return: a retired box waits for its own calls,
/// never for the calls of the behaviour after it. `Models/seam-core.pml` checks this protocol exhaustively
/// (`Scripts/model-check.sh`).
@usableFromInline
final class SeamCore: @unchecked Sendable {
    // @unchecked: `lines` is a fixed block of atomics taken in init and given back in deinit; every access to it
    // goes through `Atomic`. Everything else is behind `ownership`'s lock.

    @usableFromInline static let shardCount = 16
    /// Shards owned by one thread each; the rest are shared.
    @usableFromInline static let laneCount = Int(MISCHIEF_LANE_COUNT)
    @usableFromInline static let slotsPerShard = 8
    static let phaseCount = 2

    /// Slot indices within a shard's line.
    @usableFromInline
    enum Slot {
        /// Chaos calls that announced themselves in `phase`.
        @inlinable @inline(__always) static func entered(_ phase: Int) -> Int { phase &<< 1 }
        /// Calls that left `phase` (on the shard they entered it).
        @inlinable @inline(__always) static func left(_ phase: Int) -> Int { phase &<< 1 | 1 }
        /// Counted calls that met no behaviour.
        @usableFromInline static let plain = 4
        /// Chaos calls whose behaviour did not fire.
        @usableFromInline static let passedThrough = 5
        /// Counted calls that ended in an error: thrown by a behaviour or the original, or reported afterwards.
        @usableFromInline static let errors = 6
        /// Entries that are not calls: retries after a phase change, peeks.
        @usableFromInline static let uncounted = 7
    }

    @usableFromInline static let countingBit: UInt = 1
    @usableFromInline static let phaseBit: UInt = 2
    /// Set while some ``ChaosScope`` is active: calls take the slow path and consult the task's scope.
    @usableFromInline static let scopedBit: UInt = 4
    /// Set while a recording or a replay numbers this seam's calls: with no box installed, a call takes its number
    /// from ``numbers`` (see ``CallNumbering``); the counting bit is set with it.
    @usableFromInline static let numberedBit: UInt = 8
    @usableFromInline static let addressMask: UInt = ~0xF

    /// Packed state; see the type's documentation.
    @usableFromInline let word = Atomic<UInt>(0)

    /// While calls are numbered and no box is installed, the number of the seam's last call, with
    /// ``CallNumbering/closedBit`` once a box numbers them instead: a call takes the next in one compare-and-swap, so a
    /// recorded seam with nothing applied costs a counted call and that (see ``CallNumbering``).
    @usableFromInline let numbers = Atomic<Int>(0)

    /// The boxes this core owns and the phase of each; see `SeamCore+Ownership.swift`.
    let ownership = Locked(Ownership())

    /// What few seams use, under one lock: a lock is an object of its own, and one less is some 50 bytes less a
    /// registered seam (issue 47).
    struct Seldom {
        /// Called after every apply or revert that changes what the seam does; see ``Seam/onChange(_:)``.
        var changeListeners: [@Sendable () -> Void] = []
        /// Calls made outside Swift, which count themselves: a system seam's C hooks (`MischiefSystem`). Told when
        /// counting goes on or off, and read by ``counters()``.
        var external: ExternalCounting?
    }

    let seldom = Locked(Seldom())

    /// Adds a change listener (see ``AnySeam/onChange(_:)``).
    func addChangeListener(_ body: @escaping @Sendable () -> Void) {
        seldom.withLock { $0.changeListeners.append(body) }
    }

    /// Runs the change listeners (never under the registry's lock).
    func notifyChanged() {
        for listener in seldom.withLock({ $0.changeListeners }) { listener() }
    }

    @usableFromInline let lines: UnsafeMutablePointer<Atomic<UInt64>>

    /// How the seam's calls made outside Swift are counted, if they are (see ``Seldom/external``).
    func externalCounting() -> ExternalCounting? {
        seldom.withLock { $0.external }
    }

    /// Makes `counting` part of this core's counters (see ``AnySeam/countsExternally(_:)``).
    func setExternal(_ counting: ExternalCounting) {
        seldom.withLock { $0.external = counting }
        countsExternally.store(true, ordering: .releasing)
    }

    /// Set once ``Seldom/external`` is: ``counters()`` of every other seam, read at every refresh, takes no lock for it.
    let countsExternally = Atomic<Bool>(false)

    /// `mischief_light_entry()` when this core was made (set before `main`, never changed after): whether a call on
    /// its own lane announces itself with a plain store, and so whether ``isDrained(phase:)`` must first have the
    /// kernel fence every thread. Kept here, beside the counters' pointer, so a chaos call tests one byte of the core
    /// it has already loaded instead of reading the C global through the global offset table (two instructions
    /// fewer on every chaos call); both sides of the protocol read this one copy.
    @usableFromInline let lightEntry: Bool = mischief_light_entry() != 0

    /// One bit for each shard a call has counted on, set before its first count there: ``counters()`` sums only
    /// those, so reading a seam nobody called touches none of its lines. (``isDrained(phase:)`` reads every shard
    /// regardless: freeing must not depend on when a bit becomes visible.)
    @usableFromInline let usedShards = Atomic<UInt32>(0)

    init() {
        // Zeros already (counters at 0), and not resident until a call first counts here: see `CounterArena`.
        lines = CounterArena.allocate().bindMemory(
            to: Atomic<UInt64>.self, capacity: SeamCore.shardCount * SeamCore.slotsPerShard)
        ScopeActivation.track(self)
    }

    deinit {
        ScopeActivation.untrack(self)
        // No call can be inside a box now (every call holds the seam, which holds this core): the boxes still
        // owned go with `ownership`.
        CounterArena.release(UnsafeMutableRawPointer(lines))
    }

    /// Where the calling thread counts: its lane's line, which only it writes, or a shared line picked from its
    /// thread id. Calls that may leave on another thread (async ones) pass `shared`.
    @inlinable @inline(__always)
    func currentLine(shared: Bool = false) -> Line {
        if !shared {  // a thread that only makes async calls never claims a lane
            let lane = Int(truncatingIfNeeded: mischief_lane())
            if _fastPath(lane < SeamCore.laneCount) {
                markUsed(lane)
                return Line(counters: lines + lane * SeamCore.slotsPerShard, isOwned: true)
            }
        }
        let thread = UInt64(UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))))
        // Fibonacci hashing of the thread id; bits from the upper half pick one of the shared shards.
        let sharedCount = UInt64(SeamCore.shardCount - SeamCore.laneCount)
        let shard =
            SeamCore.laneCount + Int(truncatingIfNeeded: ((thread &* 0x9E37_79B9_7F4A_7C15) >> 32) % sharedCount)
        markUsed(shard)
        return Line(counters: lines + shard * SeamCore.slotsPerShard, isOwned: false)
    }

    /// Sets `shard`'s bit in `usedShards` the first time: afterwards a load that finds it set.
    @inlinable @inline(__always)
    func markUsed(_ shard: Int) {
        if _slowPath(usedShards.load(ordering: .relaxed) & (UInt32(1) << UInt32(truncatingIfNeeded: shard)) == 0) {
            setUsed(shard)
        }
    }

    /// ``markUsed(_:)``'s first time, out of line: inlined, the bit it sets was worked out before the test on every
    /// call (three instructions on every counted and chaos call, for a store made once a shard).
    @usableFromInline @inline(never)
    func setUsed(_ shard: Int) {
        usedShards.bitwiseOr(UInt32(1) << UInt32(truncatingIfNeeded: shard), ordering: .releasing)
    }

    /// One shard's counters, and whether the calling thread is their only writer.
    @usableFromInline
    struct Line {
        @usableFromInline let counters: UnsafeMutablePointer<Atomic<UInt64>>
        @usableFromInline let isOwned: Bool

        @inlinable
        init(counters: UnsafeMutablePointer<Atomic<UInt64>>, isOwned: Bool) {
            self.counters = counters
            self.isOwned = isOwned
        }

        /// Adds one to `slot`: a plain load and a store on an owned line, else a locked add. `releasing` orders
        /// the call's earlier accesses before the add, for a drain check that reads it.
        @inlinable @inline(__always)
        func bump(_ slot: Int, releasing: Bool = false) {
            let counter = counters + slot
            switch (isOwned, releasing) {
            case (true, false): counter.pointee.store(counter.pointee.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
            case (true, true):
                counter.pointee.store(counter.pointee.load(ordering: .relaxed) &+ 1, ordering: .releasing)
            case (false, false): counter.pointee.wrappingAdd(1, ordering: .relaxed)
            case (false, true): counter.pointee.wrappingAdd(1, ordering: .releasing)
            }
        }
    }

    /// The counter line of shard `index`.
    func line(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        lines + index * SeamCore.slotsPerShard
    }

    /// A chaos call in progress: where it counted itself and which box it may use.
    @usableFromInline
    struct Ticket {
        @usableFromInline let line: Line
        @usableFromInline let phase: Int
        @usableFromInline let box: UnsafeRawPointer

        @inlinable
        init(line: Line, phase: Int, box: UnsafeRawPointer) {
            self.line = line
            self.phase = phase
            self.box = box
        }
    }

    /// Called when the word was non-zero. Returns a ticket when a behaviour is installed (the call must
    /// `leave` it), or nil after counting the call as a plain one (the caller runs the original). A call that may
    /// leave on another thread than this one (an async call) passes `mayMigrate`.
    ///
    /// The announcement must be visible to the registry's drain check before the reload below reads the word. A
    /// read-modify-write orders them on its own (on x86 only a locked instruction or a fence does), at some 20 cycles
    /// a call; where the process has asymmetric fences (`mischief_fence.h`: Linux's membarrier) a call that owns its
    /// lane stores instead, with only a compiler barrier, and the drain check has the kernel put a full barrier on
    /// every thread before it reads (``isDrained(phase:)``). Inlined, so a call's path is one piece of code.
    @inlinable @inline(__always)
    func enter(_ word: UInt, counted: Bool = true, mayMigrate: Bool = false) -> Ticket? {
        let line = currentLine(shared: mayMigrate)
        guard word & SeamCore.addressMask != 0 else {
            if counted && word & SeamCore.countingBit != 0 {
                // While calls are numbered the counting bit is set too: one test on the counting path.
                if _slowPath(word & SeamCore.numberedBit != 0) { return enterNumbered(word, on: line) }
                line.bump(Slot.plain)
            }
            return nil
        }
        // The first attempt, straight through; a phase changed under it (rare: the registry installed a box between
        // the two loads) goes on out of line, so the call's path has no loop.
        let phase = Int(truncatingIfNeeded: (word & SeamCore.phaseBit) >> 1)
        announce(on: line, phase: phase)
        // Acquiring: the box the word names was published by its store.
        let current = self.word.load(ordering: .acquiring)
        guard _fastPath((current ^ word) & SeamCore.phaseBit == 0 && current & SeamCore.addressMask != 0) else {
            return enterAgain(on: line, left: phase, current: current, counted: counted)
        }
        if !counted { line.bump(Slot.uncounted) }
        return Ticket(line: line, phase: phase, box: UnsafeRawPointer(bitPattern: current & SeamCore.addressMask)!)
    }

    /// Adds one to `entered(phase)` on `line`, visible to the registry's drain check before the caller's reload of the
    /// word (see ``enter(_:counted:mayMigrate:)``).
    @inlinable @inline(__always)
    func announce(on line: Line, phase: Int) {
        let entered = line.counters + Slot.entered(phase)
        if line.isOwned && lightEntry {
            entered.pointee.store(entered.pointee.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
            mischief_compiler_fence()
        } else {
            entered.pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
        }
    }

    /// ``enter(_:counted:mayMigrate:)`` after its first attempt found the phase changed between its two loads: takes
    /// back the entry into `phase` and tries again with the word now there, until the two loads agree.
    @usableFromInline @inline(never)
    func enterAgain(on line: Line, left phase: Int, current: UInt, counted: Bool) -> Ticket? {
        line.bump(Slot.uncounted)
        line.bump(Slot.left(phase), releasing: true)
        return enterAny(current, on: line, counted: counted)
    }

    /// Enters the box `word` names, until two loads of the word agree on it; nil, counting the call as a plain one,
    /// once no box is installed (a numbered call then takes its number in ``enterNumbered(_:on:)``).
    func enterAny(_ word: UInt, on line: Line, counted: Bool) -> Ticket? {
        var word = word
        while word & SeamCore.addressMask != 0 {
            let phase = Int(truncatingIfNeeded: (word & SeamCore.phaseBit) >> 1)
            announce(on: line, phase: phase)
            let current = self.word.load(ordering: .acquiring)
            if (current ^ word) & SeamCore.phaseBit == 0, current & SeamCore.addressMask != 0 {
                if !counted { line.bump(Slot.uncounted) }
                return Ticket(
                    line: line, phase: phase, box: UnsafeRawPointer(bitPattern: current & SeamCore.addressMask)!)
            }
            line.bump(Slot.uncounted)
            line.bump(Slot.left(phase), releasing: true)
            word = current
        }
        if counted && word & SeamCore.numberedBit != 0 { return enterNumbered(word, on: line) }
        if counted && word & SeamCore.countingBit != 0 { line.bump(Slot.plain) }
        return nil
    }

    /// ``enter(_:counted:mayMigrate:)`` for a counted call while calls are numbered and no box was installed: takes
    /// the call's number from ``numbers`` and counts it on `line` (nil: the caller runs the original), or, when a box
    /// was published meanwhile, enters it. Numbers found closed mean the registry is publishing a box (it closes them
    /// and publishes in one step of this core's lock), so the call waits for the word to change, or for the numbers
    /// to open again, and tries again with what it finds.
    @usableFromInline @inline(never)
    func enterNumbered(_ word: UInt, on line: Line) -> Ticket? {
        var word = word
        while true {
            if word & SeamCore.addressMask != 0 { return enterAny(word, on: line, counted: true) }
            if word & SeamCore.numberedBit == 0 {
                if word & SeamCore.countingBit != 0 { line.bump(Slot.plain) }
                return nil
            }
            // One locked add: taken while open, the number is the call's; once closed, adding changes nothing that
            // is read (the registry took the closed count, and opening stores a new one).
            if numbers.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue & CallNumbering.closedBit == 0 {
                line.bump(Slot.plain)
                return nil
            }
            let seen = word
            var spins = 0
            repeat {
                spins &+= 1
                if spins & 63 == 0 { sched_yield() }
                word = self.word.load(ordering: .acquiring)
            } while word == seen && numbers.load(ordering: .acquiring) & CallNumbering.closedBit != 0
        }
    }

    /// Counts a call that meets no behaviour while counting is on.
    @inlinable @inline(__always)
    func countPlain() {
        currentLine().bump(Slot.plain)
    }

    /// Counts a call for ``Seam/callAsFunction(_:)`` when the word says only that calls are counted, before the call
    /// site runs the original itself: inlined there, the common case alone (the lane's thread-local, the used-shard
    /// bit, an increment on the lane), and everything else (a thread's first call, a shard's first count, a thread
    /// without a lane) one call out of line (``countPlainFirst()``). Counting inlined whole (``countPlain()``, with
    /// the claim, the shared lines and the bit's first set) made the path with nothing applied longer (32 → 52
    /// instructions) and the compiler's inlining of other paths worse; counting inside the out-of-line chaos path
    /// (``Seam/changedCall(_:word:)``) cost that path's frame around the original; a frameless function of its own
    /// cost its call (51 instructions a counted call, 46 inlined).
    @inlinable @inline(__always)
    func countCall() {
        let lane = Int(truncatingIfNeeded: mischief_lane())
        if _fastPath(
            lane < SeamCore.laneCount
                && usedShards.load(ordering: .relaxed) & (UInt32(1) << UInt32(truncatingIfNeeded: lane)) != 0)
        {
            Line(counters: lines + lane * SeamCore.slotsPerShard, isOwned: true).bump(Slot.plain)
            return
        }
        countPlainFirst()
    }

    /// ``countCall()`` for a thread's first counted call, a shard's first count, or a thread without a lane.
    @usableFromInline @inline(never)
    func countPlainFirst() {
        currentLine().bump(Slot.plain)
    }

    /// Counts a call a test scope served, when counting is on.
    @usableFromInline
    func countPlainIfCounting() {
        if word.load(ordering: .relaxed) & SeamCore.countingBit != 0 { countPlain() }
    }

    /// Whether a call made now is counted: counting is on or a behaviour is installed.
    var countsCalls: Bool { word.load(ordering: .relaxed) & (SeamCore.countingBit | SeamCore.addressMask) != 0 }

    /// Counts an error found for a counted call: its original threw, or its caller learnt after it returned that it
    /// failed (a request passed on to the network that the network refused). On a shared line: callers may be on
    /// any thread.
    @usableFromInline
    func countError() {
        currentLine(shared: true).bump(Slot.errors)
    }

    /// Ends a chaos call; `uncounted` takes it back from the counts (a reading that found it had to make the call in
    /// full, which counts it).
    @inlinable @inline(__always)
    func leave(_ ticket: Ticket, passedThrough: Bool = false, failed: Bool = false, uncounted: Bool = false) {
        if uncounted { ticket.line.bump(Slot.uncounted) }
        if passedThrough { ticket.line.bump(Slot.passedThrough) }
        if failed { ticket.line.bump(Slot.errors) }
        ticket.line.bump(Slot.left(ticket.phase), releasing: true)
    }

    /// Leaves a numbered box the call found closed (see ``CallNumbering``): waits until the word names the box
    /// published after it (the registry closes one and publishes the next in one step of this core's lock), then takes
    /// the entry back from the counts; the caller enters again.
    @usableFromInline
    func leaveReplaced(_ ticket: Ticket) {
        var spins = 0
        while word.load(ordering: .acquiring) & SeamCore.addressMask == UInt(bitPattern: ticket.box) {
            spins &+= 1
            if spins & 63 == 0 { sched_yield() }
        }
        leave(ticket, uncounted: true)
    }

    /// Whether every call that entered `phase` has left; see the type's documentation. With asymmetric fences (see
    /// ``enter(_:counted:mayMigrate:)``) it first has every thread of the process run a full barrier, so a call that
    /// read a word older than this check's has its announcement visible here; when that fails, nothing has drained.
    func isDrained(phase: Int) -> Bool {
        if lightEntry && mischief_heavy_fence() != 0 { return false }
        for shard in 0..<SeamCore.shardCount {
            let line = line(shard)
            let left = line[Slot.left(phase)].load(ordering: .sequentiallyConsistent)
            let entered = line[Slot.entered(phase)].load(ordering: .sequentiallyConsistent)
            if left != entered { return false }
        }
        return true
    }

    /// Sums the shards calls have used into the counters a snapshot shows.
    func counters() -> SeamCounters {
        var left: UInt64 = 0
        var entered: UInt64 = 0
        var plain: UInt64 = 0
        var passedThrough: UInt64 = 0
        var errors: UInt64 = 0
        var uncounted: UInt64 = 0
        var used = usedShards.load(ordering: .acquiring)
        while used != 0 {
            let line = line(used.trailingZeroBitCount)
            used &= used &- 1
            // Read `left` before `entered` so that in-flight never comes out negative.
            for phase in 0..<SeamCore.phaseCount { left &+= line[Slot.left(phase)].load(ordering: .acquiring) }
            for phase in 0..<SeamCore.phaseCount { entered &+= line[Slot.entered(phase)].load(ordering: .acquiring) }
            plain &+= line[Slot.plain].load(ordering: .acquiring)
            passedThrough &+= line[Slot.passedThrough].load(ordering: .acquiring)
            errors &+= line[Slot.errors].load(ordering: .acquiring)
            uncounted &+= line[Slot.uncounted].load(ordering: .acquiring)
        }
        var chaosEntries = entered &- uncounted
        if countsExternally.load(ordering: .acquiring), let external = externalCounting() {
            let counted = external.counts()
            plain &+= counted.calls &- counted.chaosCalls
            chaosEntries &+= counted.chaosCalls
        }
        return SeamCounters(
            calls: Int(truncatingIfNeeded: plain &+ chaosEntries),
            chaosCalls: Int(truncatingIfNeeded: chaosEntries &- passedThrough),
            errors: Int(truncatingIfNeeded: errors),
            inFlight: Int(truncatingIfNeeded: entered &- left))
    }
}

/// A seam's counters at one moment.
public struct SeamCounters: Hashable, Sendable, Codable {
    /// Calls made while counting was on, plus every call that met a behaviour.
    public var calls: Int
    /// Calls a behaviour served (it fired, rather than passing through to the original).
    public var chaosCalls: Int
    /// Counted calls that ended in an error: a behaviour or the original threw, or the caller reported a failure
    /// afterwards (``AnySeam/countFailure()``: a network request refused, timed out or answered with a 5xx).
    public var errors: Int
    /// Calls inside a behaviour right now.
    public var inFlight: Int
    /// Calls a pause holds right now (they are in flight too); the registry adds these, the seam does not count
    /// them.
    public var held: Int

    /// Counters with the given values; all zero by default.
    public init(calls: Int = 0, chaosCalls: Int = 0, errors: Int = 0, inFlight: Int = 0, held: Int = 0) {
        self.calls = calls
        self.chaosCalls = chaosCalls
        self.errors = errors
        self.inFlight = inFlight
        self.held = held
    }

    private enum CodingKeys: String, CodingKey { case calls, chaosCalls, errors, inFlight, held }

    /// Decodes counters; `held`, added after the first API version, may be missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            calls: try container.decode(Int.self, forKey: .calls),
            chaosCalls: try container.decode(Int.self, forKey: .chaosCalls),
            errors: try container.decode(Int.self, forKey: .errors),
            inFlight: try container.decode(Int.self, forKey: .inFlight),
            held: try container.decodeIfPresent(Int.self, forKey: .held) ?? 0)
    }
}
