import Foundation
import Mischief
import Synchronization

/// How chaos time relates to real time: what the ``ChaosClock``'s seam returns.
///
/// One value describes every reading, so `Date`s and the clock's instants agree under every action:
/// - real: chaos time is real time (nothing applied);
/// - shifted: real time plus a fixed offset (`shift(+1d)`);
/// - stopped: time stands still at a date and moves only by ``ChaosClock/advance(by:)`` (`freeze`, `virtual`);
/// - dilated: from a real anchor R₀ and a chaos anchor C₀, chaos = C₀ + (real − R₀)·N (`dilate(N)`).
///
/// Every timeline but the real one carries a shared advance offset, created with the behaviour that made it,
/// so that advancing the clock moves every reading of that behaviour at once.
/// ```swift
/// let timeline = clock.seam.peek()
/// let chaos = timeline.date(atReal: Date())          // what the target sees now
/// let wakes = timeline.realDate(forChaos: deadline)   // when a sleeper really wakes; nil while time stands still
/// ```
public struct Timeline: Sendable, CustomStringConvertible {
    enum Base: Sendable {
        case real
        case stopped(at: Duration)
        case dilated(realAnchor: Duration, chaosAnchor: Duration, factor: Double)
    }

    let base: Base
    /// Whether `base` is ``Base/real``, kept apart: a reading tests this one byte, where testing the enum read
    /// its 40-byte payload back from the copy just stored and stalled on store forwarding (a quarter of the cost
    /// of `ChaosClock.date` with nothing applied).
    let runsInRealTime: Bool
    /// The sum of the `shift` offsets applied to the base.
    let offset: Duration
    /// `offset` in seconds, for ``dateNow()``, which reads the time as `Date()` does.
    let offsetSeconds: Double
    /// While time stands still, where it stands before any advance (the stopped date plus `offset`) in seconds since
    /// 1970, so a reading is that sum plus the advance's seconds: no real clock, no lock (the exact advance is kept
    /// under `progress`'s). Zero for the other bases.
    let stoppedSeconds: Double
    /// Whether `base` is ``Base/stopped``, kept apart as `runsInRealTime` is, so a reading tests one byte.
    let standsStill: Bool
    /// How far ``ChaosClock/advance(by:)`` has moved this timeline; nil for the real timeline, which cannot move.
    let progress: Progress?
    /// Where `progress` keeps its seconds, valid while this value holds `progress`: ``dateNow()`` reads them
    /// without retaining `progress`, which cost more than the rest of a shifted reading.
    nonisolated(unsafe) let advancedSeconds: UnsafeMutablePointer<Atomic<UInt64>>?

    init(base: Base, offset: Duration = .zero, progress: Progress?) {
        self.init(base: base, offset: offset, offsetSeconds: offset.seconds, progress: progress)
    }

    /// `offsetSeconds` is given rather than worked out: on the per-call path of `shift` a `Duration`'s components
    /// (a 128-bit division) cost more than the rest of the reading.
    init(base: Base, offset: Duration, offsetSeconds: Double, progress: Progress?) {
        self.base = base
        if case .real = base { runsInRealTime = true } else { runsInRealTime = false }
        self.offset = offset
        self.offsetSeconds = offsetSeconds
        if case .stopped(let at) = base {
            stoppedSeconds = (at + offset).seconds
            standsStill = true
        } else {
            stoppedSeconds = 0
            standsStill = false
        }
        self.progress = progress
        advancedSeconds = progress?.secondsAddress
    }

    /// Real time: what the seam's original returns. Built on each use, which costs less than a lazy global's check.
    public static var real: Timeline { Timeline(base: .real, offset: .zero, offsetSeconds: 0, progress: nil) }

    /// True when time stands still and moves only when advanced (`freeze`, `virtual`).
    public var isStopped: Bool {
        if case .stopped = base { return true }
        return false
    }

    /// True for the real timeline the seam's original returns; any action, even `shift(0s)`, makes it false.
    public var isReal: Bool {
        if case .real = base { return offset == .zero && progress == nil }
        return false
    }

    /// Chaos seconds per real second: 0 when stopped, N when dilated, else 1.
    public var rate: Double {
        switch base {
        case .real: return 1
        case .stopped: return 0
        case .dilated(_, _, let factor): return factor
        }
    }

    /// This timeline as a map of nanoseconds since 1970, for hooks written in C (the `system.clock` seam's): `kind`
    /// 0 real, 1 real plus `offset`, 2 stopped at `stopped` plus `offset`, 3 `chaosAnchor + (real − realAnchor) ·
    /// factor + offset`. `offset` holds the shift and the advance as of now, so an advance needs a new map.
    package var nanosecondMap:
        (kind: Int32, offset: Int64, stopped: Int64, realAnchor: Int64, chaosAnchor: Int64, factor: Double)
    {
        let moved = Self.nanoseconds(offset + (progress?.advanced ?? .zero))
        switch base {
        case .real:
            return (isReal ? 0 : 1, moved, 0, 0, 0, 1)
        case .stopped(let at):
            return (2, moved, Self.nanoseconds(at), 0, 0, 0)
        case .dilated(let realAnchor, let chaosAnchor, let factor):
            return (3, moved, 0, Self.nanoseconds(realAnchor), Self.nanoseconds(chaosAnchor), factor)
        }
    }

    /// `duration` in nanoseconds, clamped to what an `Int64` holds (some 292 years either side of 1970).
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let limit = Int64.max / 1_000_000_000 - 1
        guard seconds < limit else { return .max }
        guard seconds > -limit else { return .min }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The chaos date at a real date.
    public func date(atReal real: Date) -> Date {
        Instants.date(chaos(atReal: Instants.duration(real)))
    }

    /// The real date at which chaos time reaches `chaos`; nil while time stands still (only an advance or a
    /// change gets there).
    public func realDate(forChaos chaos: Date) -> Date? {
        real(forChaos: Instants.duration(chaos)).map(Instants.date)
    }

    /// The chaos date now, on the cheapest path: the real clock itself on the real timeline (what `Date()` reads
    /// when no system seam changes it), and the real clock plus a sum of seconds when shifted, so the catalogue clock costs what a raw seam does. Time that stands still or runs at
    /// another rate goes through ``chaos(atReal:)`` and its nanoseconds.
    @inline(__always)
    func dateNow() -> Date {
        guard runsInRealTime else {
            if let stopped = stoppedDate { return stopped }
            return Instants.date(chaos(atReal: Instants.realNow()))
        }
        guard let advancedSeconds else { return RealClock.date() }
        return Date(timeIntervalSince1970: RealClock.seconds() + offsetSeconds + Self.seconds(at: advancedSeconds))
    }

    /// Where time stands while it stands still (`freeze`, `virtual`): the stopped date, the shift and the advance as one
    /// sum of seconds, with no real clock read and no lock taken; nil while it runs.
    @inline(__always)
    var stoppedDate: Date? {
        guard standsStill, let advancedSeconds else { return nil }
        return Date(timeIntervalSince1970: stoppedSeconds + Self.seconds(at: advancedSeconds))
    }

    /// The advance's seconds, kept at `address` by ``Progress``.
    @inline(__always)
    static func seconds(at address: UnsafeMutablePointer<Atomic<UInt64>>) -> Double {
        Double(bitPattern: address.pointee.load(ordering: .acquiring))
    }

    /// A reading taken where the seam keeps the timeline (``Seam/read(_:)``), which ``ChaosClock/date`` finishes
    /// after the seam call: the offset to add to the real clock when time runs at the real rate, or the date itself when
    /// it does not. A trivial value, so the timeline is neither copied nor retained and nothing is destroyed after
    /// the call (a case holding the timeline cost the real path 2 ns in an outlined destroy).
    enum Reading {
        case real
        case shifted(seconds: Double)
        case date(Date)

        /// The chaos date now.
        @inline(__always)
        var date: Date {
            switch self {
            case .real: RealClock.date()
            case .shifted(let seconds): Date(timeIntervalSince1970: RealClock.seconds() + seconds)
            case .date(let date): date
            }
        }
    }

    /// This timeline's ``Reading``.
    @inline(__always)
    func reading() -> Reading {
        guard runsInRealTime else { return .date(dateNow()) }
        guard let advancedSeconds else { return .real }
        return .shifted(seconds: offsetSeconds + Self.seconds(at: advancedSeconds))
    }

    /// The ``Reading`` of the timeline at `timeline`, read field by field where it lies (`Seam.readIfInPlace`): the
    /// timeline is 96 bytes, and a copy of it cost a shifted reading a fifth of its instructions.
    @inline(__always)
    static func reading(at timeline: UnsafePointer<Timeline>) -> Reading {
        guard timeline.pointee.runsInRealTime else {
            if timeline.pointee.standsStill, let advancedSeconds = timeline.pointee.advancedSeconds {
                return .date(
                    Date(timeIntervalSince1970: timeline.pointee.stoppedSeconds + seconds(at: advancedSeconds)))
            }
            return .date(dilatedDate(at: timeline))
        }
        guard let advancedSeconds = timeline.pointee.advancedSeconds else { return .real }
        return .shifted(seconds: timeline.pointee.offsetSeconds + seconds(at: advancedSeconds))
    }

    /// The date on a dilated timeline, out of line: its exact arithmetic (a copy of the timeline, durations, the
    /// advance's lock) would otherwise give every reading's inlined path its stack frame.
    @inline(never)
    static func dilatedDate(at timeline: UnsafePointer<Timeline>) -> Date {
        timeline.pointee.dateNow()
    }

    /// Chaos time, as a duration since 1970, at a real time given the same way.
    func chaos(atReal real: Duration) -> Duration {
        let moved = offset + (progress?.advanced ?? .zero)
        switch base {
        case .real:
            return real + moved
        case .stopped(let date):
            return date + moved
        case .dilated(let realAnchor, let chaosAnchor, let factor):
            return chaosAnchor + Instants.scale(real - realAnchor, by: factor) + moved
        }
    }

    /// The real time, as a duration since 1970, at which chaos time reaches `chaos`; nil when stopped.
    func real(forChaos chaos: Duration) -> Duration? {
        let unmoved = chaos - offset - (progress?.advanced ?? .zero)
        switch base {
        case .real:
            return unmoved
        case .stopped:
            return nil
        case .dilated(let realAnchor, let chaosAnchor, let factor):
            return realAnchor + Instants.scale(unmoved - chaosAnchor, by: 1 / factor)
        }
    }

    /// Moves this timeline, and every copy of it, forward by `duration`; false for the real timeline.
    @discardableResult
    func advance(by duration: Duration) -> Bool {
        guard let progress else { return false }
        progress.add(duration)
        return true
    }

    /// The timeline shifted by `duration` (`seconds` in seconds), keeping its advance offset, or taking `progress`
    /// when it has none.
    func shifted(by duration: Duration, seconds: Double, progress fresh: Progress) -> Timeline {
        Timeline(
            base: base, offset: offset + duration, offsetSeconds: offsetSeconds + seconds,
            progress: progress ?? fresh)
    }

    /// `real`, `stopped at 2030-01-01T00:00:00Z`, `×60 from 2026-05-01T09:00:00Z`, with `shifted by 1d` and
    /// `advanced by 1h` when they apply.
    public var description: String {
        var parts: [String] = []
        switch base {
        case .real:
            parts.append("real")
        case .stopped(let date):
            parts.append("stopped at \(Instants.text(date))")
        case .dilated(_, let chaosAnchor, let factor):
            parts.append("×\(Spec.Value.number(factor)) from \(Instants.text(chaosAnchor))")
        }
        if offset != .zero { parts.append("shifted by \(SpecDuration(offset))") }
        if let advanced = progress?.advanced, advanced != .zero {
            parts.append("advanced by \(SpecDuration(advanced))")
        }
        return parts.joined(separator: ", ")
    }

    /// The advance offset shared by every copy of one behaviour's timeline.
    ///
    /// The exact offset is kept under a lock; its value in seconds (a `Double`'s bits) is also kept in an atomic at a
    /// fixed address, so ``dateNow()`` reads it with one load, neither taking the lock nor retaining the object.
    final class Progress: Sendable {
        private let value = Locked<Duration>(.zero)
        /// ``advanced`` in seconds, as a `Double`'s bits; allocated with the object and freed with it.
        nonisolated(unsafe) let secondsAddress: UnsafeMutablePointer<Atomic<UInt64>>

        init() {
            secondsAddress = .allocate(capacity: 1)
            secondsAddress.initialize(to: Atomic(0.0.bitPattern))
        }

        deinit {
            secondsAddress.deinitialize(count: 1).deallocate()
        }

        var advanced: Duration { value.withLock { $0 } }

        func add(_ duration: Duration) {
            value.withLock {
                $0 += duration
                secondsAddress.pointee.store($0.seconds.bitPattern, ordering: .releasing)
            }
        }
    }
}

extension Timeline: ReplayVariantValue {
    /// Always: a timeline is where the behaviour's time stands when it is read (a `virtual` clock stops where it
    /// was applied, an advance moves every reading after it), so a replay compares a clock's decisions by which
    /// layer answered, not by the timeline's text.
    public var variesOnReplay: Bool { true }
}
