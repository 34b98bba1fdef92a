/// The ranges every number of a recording is checked against when it is read (``Recording/init(jsonLines:)``) and
/// before it is replayed (``ReplaySchedule/init(_:)``): a recording comes from outside (a file, `POST /v1/replay`,
/// `MISCHIEF_REPLAY`), and a number too large for a `Duration` or an `Int64` of milliseconds, or one that overflows
/// when counted from, must be an error naming its line and key, never a trap in the target.
extension Recording {
    /// Call numbers, event ids, layers and counts: whole numbers from 0 to 2^53 (exact as a JSON number).
    public static let countRange: ClosedRange<Int> = 0...(1 << 53)
    /// Times in seconds: since 1970 (`wall`, `started`) or since the registry started (`time`): 0 to 10^11 (the
    /// year 5138).
    public static let clockRange: ClosedRange<Double> = 0...1e11
    /// Lengths of time in seconds (`ttl`, `advanced`): 0 to 10^9 (about 31 years), as the control API takes them.
    public static let durationRange: ClosedRange<Double> = 0...1e9

    /// `"key" is VALUE, not …` when `value` is outside `range`; nil when it is absent or within.
    static func problem(_ value: Int?, _ key: String, within range: ClosedRange<Int> = countRange) -> String? {
        guard let value, !range.contains(value) else { return nil }
        return "\"\(key)\" is \(value), not a whole number from \(range.lowerBound) to \(range.upperBound)"
    }

    /// `"key" is VALUE, not …` when `value` is not finite or outside `range`; nil when it is absent or within.
    static func problem(_ value: Double?, _ key: String, within range: ClosedRange<Double>) -> String? {
        guard let value, !(value.isFinite && range.contains(value)) else { return nil }
        return "\"\(key)\" is \(value), not a number of seconds from \(ReplayStep.seconds(range.lowerBound)) to "
            + ReplayStep.seconds(range.upperBound)
    }
}

extension Recording.Header {
    /// The first number of the header out of its range, in words naming its key; nil when all are in range.
    public var rangeProblem: String? {
        Recording.problem(started, "started", within: Recording.clockRange)
            ?? Recording.problem(dropped, "dropped")
            ?? Recording.problem(decisions, "decisions")
            ?? Recording.problem(droppedDecisions, "droppedDecisions")
            ?? active?.lazy.compactMap { $0.rangeProblem.map { "active: \($0)" } }.first
    }
}

extension Recording.Entry {
    /// The first number of the entry out of its range, in words naming its key; nil when all are in range.
    public var rangeProblem: String? {
        Recording.problem(event, "event")
            ?? Recording.problem(time, "time", within: Recording.clockRange)
            ?? Recording.problem(wall, "wall", within: Recording.clockRange)
            ?? Recording.problem(call, "call")
            ?? Recording.problem(layer, "layer")
            ?? Recording.problem(ttl, "ttl", within: Recording.durationRange)
            ?? Recording.problem(advanced, "advanced", within: Recording.durationRange)
    }
}

extension Recording.Decision {
    /// The first number of the decision out of its range, in words naming its key; nil when all are in range. A
    /// decision's call counts from 1.
    public var rangeProblem: String? {
        Recording.problem(call, "call", within: 1...Recording.countRange.upperBound)
            ?? Recording.problem(layer, "layer")
            ?? Recording.problem(after, "after")
    }
}
