/// A small, fast, seedable random number generator (SplitMix64).
///
/// Random behaviours derive one generator per call from their seed and the call's index, so call *i* gets the
/// same value in every run with the same seed, whichever thread makes it.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator for `seed`.
    public init(seed: UInt64) { state = seed }

    /// The generator for call number `stream` of a behaviour seeded with `seed`.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SeededGenerator(seed: seed ^ 0x6A09_E667_F3BC_C909)
        state = mixer.next() ^ SeededGenerator.mix(stream &+ 0xBB67_AE85_84CA_A73B)
    }

    /// A generator seeded from several values at once (a strategy's seed, a call's seed, its index).
    public init(mixing values: UInt64...) {
        var mixed: UInt64 = 0x6A09_E667_F3BC_C908
        for value in values {
            var step = SeededGenerator(seed: mixed ^ value)
            mixed = step.next()
        }
        state = mixed
    }

    /// The next 64 random bits (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SeededGenerator.mix(state)
    }

    /// A value in 0..<1 with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// An index in 0..<count.
    public mutating func index(below count: Int) -> Int {
        precondition(count > 0, "count must be positive")
        return Int(next() % UInt64(count))
    }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed a target labelled `label` uses for `seed`: the same for the same pair in every run, different
    /// from one target to the next, so a fleet given one seed is reproducible without every instance doing the
    /// same thing.
    public static func seed(_ seed: UInt64, for label: String) -> UInt64 {
        var generator = SeededGenerator(mixing: seed, hash(label))
        return generator.next()
    }

    /// A stable 64-bit hash of text (FNV-1a), for deriving seeds from names.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
