import Mischief

/// The recent call rates of one seam, oldest first: calls per second over whole windows of at least a second.
///
/// Data arrives several times a second; a rate measured between two loads jumps between 0 and 4/s for a seam called
/// twice a second, and the column flickered. Calls are counted until a second has passed, then make one sample.
public struct RateHistory: Sendable, Equatable {
    /// How many samples are kept.
    public static let capacity = 16
    /// The shortest time a sample measures.
    public static let window = Duration.seconds(1)

    /// Calls per second in successive windows of at least ``window``, oldest first; at most ``capacity``.
    public private(set) var samples: [Double] = []
    /// Calls counted since the last sample, and over how long.
    private var pendingCalls = 0
    private var pendingTime = Duration.zero

    /// An empty history.
    public init() {}

    /// A history of these samples (the newest ``capacity`` are kept).
    public init(_ samples: [Double]) {
        self.samples = Array(samples.suffix(Self.capacity))
    }

    /// The rate of the last whole window, if any.
    public var latest: Double? { samples.last }

    /// The mean rate of the newest `count` windows (fewer while there are fewer), if any: what the seam list's
    /// sparkline of that width shows, as one number. A seam called every two seconds has windows of 1/s and 0/s in
    /// turn; its rate is 0.5/s, not whichever window came last.
    public func mean(ofLast count: Int) -> Double? {
        let shown = samples.suffix(max(1, count))
        guard !shown.isEmpty else { return nil }
        return shown.reduce(0, +) / Double(shown.count)
    }

    /// Counts `calls` made over `time`; once a window of at least a second is full, it becomes a sample.
    public mutating func record(calls: Int, over time: Duration) {
        guard time > .zero else { return }
        pendingCalls += calls
        pendingTime += time
        guard pendingTime >= Self.window else { return }
        append(Double(pendingCalls) / pendingTime.seconds)
        pendingCalls = 0
        pendingTime = .zero
    }

    /// Adds a sample, dropping the oldest past ``capacity``.
    public mutating func append(_ rate: Double) {
        if samples.count == Self.capacity {
            samples.removeFirst()
        }
        samples.append(rate)
    }
}
