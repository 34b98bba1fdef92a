import Foundation
import Mischief

/// Seeded GPS noise: nudges each fix by up to `metres` in a random direction, reproducibly.
///
/// The displacement for a call depends only on `(seed, callIndex)`, so a chaos run replays exactly. Points
/// are spread uniformly over the disc of radius `metres`, and the reported `horizontalAccuracy` grows by
/// `metres` so the true position always stays inside the reported circle of uncertainty.
///
/// ```swift
/// let jitter = Jitter(metres: 30, seed: 2024)
/// let noisy = jitter.apply(to: fix, callIndex: 3)   // same result every time for call 3
/// ```
public struct Jitter: Sendable, Hashable {
    /// The largest displacement, in metres.
    public let metres: Double
    /// The seed that fixes every displacement.
    public let seed: UInt64

    /// Creates a jitter of at most `metres` (negative or non-finite values mean no jitter).
    public init(metres: Double, seed: UInt64) {
        self.metres = metres.isFinite ? max(0, metres) : 0
        self.seed = seed
    }

    /// `coordinate` displaced by at most ``metres``, deterministically for `(seed, callIndex)`.
    ///
    /// Latitude and longitude move; altitude, course, speed and timestamp are kept; `horizontalAccuracy`
    /// grows by ``metres``.
    public func apply(to coordinate: Coordinate, callIndex: Int) -> Coordinate {
        guard metres > 0 else { return coordinate }
        var generator = SeededGenerator(seed: seed, stream: UInt64(bitPattern: Int64(callIndex)))
        let distance = metres * sqrt(generator.nextUnit())
        let bearing = 360 * generator.nextUnit()
        let moved = Geodesy.offset((coordinate.latitude, coordinate.longitude), metres: distance, bearing: bearing)
        var result = coordinate
        result.latitude = moved.latitude
        result.longitude = moved.longitude
        result.horizontalAccuracy = coordinate.horizontalAccuracy + metres
        return result
    }
}
