import Foundation

/// Great-circle helpers on a spherical Earth, good to about 0.5 % — plenty for faking a position.
///
/// Positions are `(latitude, longitude)` pairs in degrees; an unlabelled `(Double, Double)` works too.
///
/// ```swift
/// let london = (51.5074, -0.1278), paris = (48.8566, 2.3522)
/// Geodesy.distance(london, paris)                       // ≈ 343_556 m
/// Geodesy.bearing(from: london, to: paris)              // ≈ 148°
/// Geodesy.offset(london, metres: 1_000, bearing: 90)    // 1 km due east of London
/// ```
public enum Geodesy {
    /// The mean Earth radius (IUGG), in metres.
    public static let earthRadius: Double = 6_371_008.8

    /// The great-circle distance between two positions in metres, by the haversine formula.
    public static func distance(
        _ a: (latitude: Double, longitude: Double),
        _ b: (latitude: Double, longitude: Double)
    ) -> Double {
        let phi1 = radians(a.latitude), phi2 = radians(b.latitude)
        let deltaPhi = phi2 - phi1
        let deltaLambda = radians(b.longitude - a.longitude)
        let h =
            sin(deltaPhi / 2) * sin(deltaPhi / 2)
            + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// The initial bearing from `a` towards `b`, in degrees clockwise from true north, in `0..<360`.
    ///
    /// Returns 0 when the two positions coincide.
    public static func bearing(
        from a: (latitude: Double, longitude: Double),
        to b: (latitude: Double, longitude: Double)
    ) -> Double {
        let phi1 = radians(a.latitude), phi2 = radians(b.latitude)
        let deltaLambda = radians(b.longitude - a.longitude)
        let y = sin(deltaLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLambda)
        if x == 0 && y == 0 { return 0 }
        return normalizedDegrees(degrees(atan2(y, x)))
    }

    /// The position reached by travelling `metres` along a great circle from `coordinate`, starting on
    /// `bearing` (degrees clockwise from north). The longitude comes back in `-180..<180`.
    public static func offset(
        _ coordinate: (latitude: Double, longitude: Double),
        metres: Double,
        bearing: Double
    ) -> (latitude: Double, longitude: Double) {
        let delta = metres / earthRadius
        let theta = radians(bearing)
        let phi1 = radians(coordinate.latitude)
        let lambda1 = radians(coordinate.longitude)
        let sinPhi2 = sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta)
        let phi2 = asin(max(-1, min(1, sinPhi2)))
        let lambda2 =
            lambda1
            + atan2(
                sin(theta) * sin(delta) * cos(phi1),
                cos(delta) - sin(phi1) * sinPhi2
            )
        return (degrees(phi2), normalizedLongitude(degrees(lambda2)))
    }

    /// `longitude` wrapped into `-180..<180`.
    public static func normalizedLongitude(_ longitude: Double) -> Double {
        let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }

    /// `angle` wrapped into `0..<360`.
    static func normalizedDegrees(_ angle: Double) -> Double {
        let wrapped = angle.truncatingRemainder(dividingBy: 360)
        return wrapped < 0 ? wrapped + 360 : wrapped
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
