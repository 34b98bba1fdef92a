import Synchronization

extension Recording {
    /// What one chaos call was answered with: which layer decided it and what it returned or threw, or that no layer
    /// fired and the call went to the original. Recorded when a recording asks for decisions
    /// (``Registry/startRecording(toFile:target:decisions:)``, `MISCHIEF_RECORD_DECISIONS`); a replay compares the
    /// decisions its own calls get with these, call by call.
    ///
    /// A line of the file, between the events, with `"kind": "decision"`:
    /// ```sh
    /// jq -c 'select(.kind == "decision") | [.seam, .call, .outcome, .value]' session.jsonl
    /// ```
    public struct Decision: Codable, Sendable, Equatable {
        /// How a chaos call ended.
        public enum Outcome: String, Codable, Sendable {
            /// A layer returned ``Decision/value``.
            case returned
            /// A layer threw ``Decision/value``.
            case threw
            /// No layer fired: the call went to the original (a `20%` that did not fire, a rule that did not match).
            case passed
            /// Decisions on this seam stopped being kept from this call on: the recording's bound was reached, or
            /// the seam made more calls between two reads than the buffer holds. A replay compares up to here.
            case dropped
        }

        /// Always `decision`, so a reader (or `jq`) tells these lines from events.
        public var kind = "decision"
        /// The seam called.
        public var seam: SeamID
        /// The call's number, counted as an event's ``Entry/call`` is: this was the seam's `call`th call since the
        /// recording began.
        public var call: Int
        /// The layer that answered (its event's ``Entry/layer``); nil when none did.
        public var layer: Int?
        /// How it ended.
        public var outcome: Outcome
        /// What it returned or threw, as ``HeldCall/render(_:)`` writes a value (JSON for an `Encodable` one), at
        /// most 1,000 characters, credentials redacted; nil when it passed.
        public var value: String?
        /// True when the value came from the world, not from the behaviour alone (a `transform` of the original, a
        /// closure): a replay compares the layer and the outcome, not the value.
        public var live: Bool?
        /// The last event recorded before it (its ``Entry/event``), which places it among the events.
        public var after: Int

        /// A decision with these values.
        public init(
            seam: SeamID, call: Int, layer: Int?, outcome: Outcome, value: String?, live: Bool? = nil, after: Int = 0
        ) {
            self.seam = seam
            self.call = call
            self.layer = layer
            self.outcome = outcome
            self.value = value
            self.live = live
            self.after = after
        }

        /// The longest value kept.
        public static let longestValue = 1_000

        /// `layer 3 returned 7`, `no layer fired (the original answered)`.
        public var answer: String {
            let by = layer.map { "layer \($0) " } ?? ""
            switch outcome {
            case .returned: return "\(by)returned \(value ?? "?")"
            case .threw: return "\(by)threw \(value ?? "?")"
            case .passed: return "no layer fired (the original answered)"
            case .dropped: return "decisions no longer kept"
            }
        }
    }
}

/// A seam's output that can say a replay would not give it again as it is: it depends on when it was made or read
/// (a clock's timeline, anchored where it was applied and moved by advances). A decision that returned such a value
/// is recorded ``Recording/Decision/live``, so a replay compares its outcome and layer, not its text.
public protocol ReplayVariantValue {
    /// Whether a replay of the same behaviour could give this value with another text; true makes its decision
    /// `live`.
    var variesOnReplay: Bool { get }
}

/// A decision as a tape reads it back, before a consumer numbers its call from its own start.
struct TakenDecision {
    var seam: SeamID
    /// The call's number in the seam's numbering (``CallNumbering``).
    var rawCall: Int
    var layer: LayerID?
    var outcome: Recording.Decision.Outcome
    var value: String?
    var live: Bool
}

/// A seam's tape, type-erased for the registry, which drains it under its lock.
protocol DecisionSource: AnyObject, Sendable {
    var seam: SeamID { get }
    /// Hands every decision written since the last drain, in call order, to `take`; stops at the first one still
    /// being written. Called under the registry's lock only.
    func drain(_ take: (TakenDecision) -> Void)
    /// Whether every call that claimed a slot has been drained.
    var isDrained: Bool { get }
}

/// The decisions of one installed box, written by its calls and read by the registry.
///
/// A ring of `capacity` slots. A call claims the next ordinal with one compare-and-swap (only while the ring has
/// room: the drainer has read at least `ordinal - capacity + 1` slots), copies its output or error into the slot,
/// and publishes the slot's mark with a release store; the drainer reads marks with acquire loads, in order, and
/// moves the values out. A call that finds the ring full ends the tape: it and every later call are counted as
/// dropped, and the drainer says so once, with the call it stopped at, so a tape never has a hole in the middle.
final class DecisionTape<Output, Failure: Error>: DecisionSource, @unchecked Sendable {
    // @unchecked: a slot is written only by the call that claimed it, before its mark is published, and read only
    // by the drainer (under the registry's lock) after it sees the mark.
    let seam: SeamID
    /// The layers of the box, newest first (the index a slot's mark carries).
    let layers: [LayerID]
    /// Whether each layer's values come from the behaviour alone (see ``Recording/Decision/live``).
    let replayable: [Bool]
    let capacity: Int
    private let claimed = Atomic<Int>(0)
    private let drained = Atomic<Int>(0)
    /// The first ordinal that found the ring full; `Int.max` while none has.
    private let full = Atomic<Int>(.max)
    /// The number of the call that found the ring full (the first dropped).
    private let fullCall = Atomic<Int>(0)
    private var reportedFull = false
    private let marks: UnsafeMutablePointer<Atomic<UInt64>>
    private let outputs: UnsafeMutablePointer<Output>
    private let failures: UnsafeMutablePointer<Failure>
    /// The number each slot's call took (``CallNumbering``); written before the slot's mark is published.
    private let calls: UnsafeMutablePointer<Int>

    /// The slots of a tape: enough for a busy seam between two reads (every 100 ms) without holding much memory.
    static var defaultCapacity: Int { 4096 }

    init(seam: SeamID, layers: [LayerID], replayable: [Bool], capacity: Int = DecisionTape.defaultCapacity) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "a tape's capacity is a power of two")
        self.seam = seam
        self.layers = layers
        self.replayable = replayable
        self.capacity = capacity
        marks = .allocate(capacity: capacity)
        for index in 0..<capacity { (marks + index).initialize(to: Atomic(0)) }
        outputs = .allocate(capacity: capacity)
        failures = .allocate(capacity: capacity)
        calls = .allocate(capacity: capacity)
    }

    deinit {
        // Values written and never drained are deinitialised here; no call writes any more (the box is gone).
        drain { _ in }
        for index in 0..<capacity { _ = (marks + index).move() }
        marks.deallocate()
        outputs.deallocate()
        failures.deallocate()
        calls.deallocate()
    }

    /// The mark of ordinal `ordinal`: its generation (so a slot's previous occupant is never read as it), how it
    /// ended, and which layer answered.
    @inline(__always)
    private static func mark(ordinal: Int, fired: Fired, layer: Int) -> UInt64 {
        let outcome: UInt64 =
            switch fired {
            case .value: 1
            case .failure: 2
            case .skipped: 3
            }
        let generation = UInt64(truncatingIfNeeded: ordinal + 1) &<< 12
        let index = UInt64(truncatingIfNeeded: min(layer, 1023))
        return generation | (outcome &<< 10) | index
    }

    /// Notes the decision of call number `call`: `fired` with the value in `output` or the error in `failure`, by
    /// layer `layer` (an index into ``layers``; ignored when skipped).
    @inline(__always)
    func note(
        _ fired: Fired, call: Int, layer: Int, _ output: UnsafeMutablePointer<Output>,
        _ failure: UnsafeMutablePointer<Failure>
    ) {
        var ordinal = claimed.load(ordering: .relaxed)
        while true {
            guard ordinal < Self.ended else { return }  // the tape has ended: dropped
            guard ordinal &- drained.load(ordering: .acquiring) < capacity else {
                // Full: end the tape at this ordinal (only one call can move the count from a real ordinal).
                let (exchanged, original) = claimed.compareExchange(
                    expected: ordinal, desired: Self.ended, ordering: .relaxed)
                if exchanged {
                    fullCall.store(call, ordering: .relaxed)
                    full.store(ordinal, ordering: .releasing)
                    return
                }
                ordinal = original
                continue
            }
            let (exchanged, original) = claimed.weakCompareExchange(
                expected: ordinal, desired: ordinal &+ 1, ordering: .relaxed)
            if exchanged { break }
            ordinal = original
        }
        let slot = ordinal & (capacity - 1)
        calls[slot] = call
        switch fired {
        case .value: (outputs + slot).initialize(to: output.pointee)
        case .failure: (failures + slot).initialize(to: failure.pointee)
        case .skipped: break
        }
        marks[slot].store(Self.mark(ordinal: ordinal, fired: fired, layer: layer), ordering: .releasing)
    }

    /// The claimed count of a tape that has ended, beyond any ordinal.
    private static var ended: Int { Int.max / 2 }

    /// Where draining stops: the calls claimed, or where the tape ended.
    private var end: Int {
        let count = claimed.load(ordering: .acquiring)
        return count >= Self.ended ? full.load(ordering: .acquiring) : count
    }

    var isDrained: Bool { end <= drained.load(ordering: .relaxed) }

    func drain(_ take: (TakenDecision) -> Void) {
        let end = self.end
        var ordinal = drained.load(ordering: .relaxed)
        while ordinal < end {
            let slot = ordinal & (capacity - 1)
            let mark = marks[slot].load(ordering: .acquiring)
            guard mark >> 12 == UInt64(truncatingIfNeeded: ordinal + 1) else { break }  // still being written
            let layer = Int(mark & 1023)
            var decision = TakenDecision(
                seam: seam, rawCall: calls[slot], layer: nil, outcome: .passed, value: nil, live: false)
            switch (mark >> 10) & 3 {
            case 1:
                decision.outcome = .returned
                let value = (outputs + slot).move()
                decision.value = Self.rendered(value)
                decision.live = (value as? any ReplayVariantValue)?.variesOnReplay ?? false
            case 2:
                decision.outcome = .threw
                decision.value = Self.rendered((failures + slot).move())
            default:
                break
            }
            if decision.outcome != .passed, layer < layers.count {
                decision.layer = layers[layer]
                decision.live = decision.live || !replayable[layer]
            }
            take(decision)
            ordinal += 1
            drained.store(ordinal, ordering: .releasing)
        }
        let stoppedAt = full.load(ordering: .acquiring)
        if stoppedAt != .max, ordinal >= stoppedAt, !reportedFull {
            reportedFull = true
            take(
                TakenDecision(
                    seam: seam, rawCall: fullCall.load(ordering: .relaxed), layer: nil, outcome: .dropped, value: nil,
                    live: false))
        }
    }

    static func rendered(_ value: Any) -> String {
        let text = Recording.redacted(HeldCall.render(value))
        return text.count > Recording.Decision.longestValue
            ? text.prefix(Recording.Decision.longestValue - 1) + "…" : text
    }
}
