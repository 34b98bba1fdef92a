/// The recent call rates of one seam, oldest first, from successive data frames.
public struct RateHistory: Sendable, Equatable {
    /// How many samples are kept.
    public static let capacity = 16

    /// Calls per second between successive frames, oldest first; at most ``capacity``.
    public private(set) var samples: [Double] = []

    /// An empty history.
    public init() {}

    /// A history of these samples (the newest ``capacity`` are kept).
    public init(_ samples: [Double]) {
        self.samples = Array(samples.suffix(Self.capacity))
    }

    /// The newest rate, if any.
    public var latest: Double? { samples.last }

    /// Adds a sample, dropping the oldest past ``capacity``.
    public mutating func append(_ rate: Double) {
        if samples.count == Self.capacity {
            samples.removeFirst()
        }
        samples.append(rate)
    }
}
