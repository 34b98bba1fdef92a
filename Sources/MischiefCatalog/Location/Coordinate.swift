import Foundation

/// A position fix as a `location.*` seam reports it: where the target believes it is, and how sure it is.
///
/// There is no CoreLocation on Linux, so this is the plain value a seam hands back when the target asks
/// "where am I". Angles are in degrees, distances in metres, speeds in metres per second.
///
/// ```swift
/// let fix = Coordinate(latitude: 47.3769, longitude: 8.5417, horizontalAccuracy: 10, timestamp: Date())
/// let shaken = Jitter(metres: 50, seed: 7).apply(to: fix, callIndex: 0)
/// ```
public struct Coordinate: Hashable, Sendable, Codable {
    /// Latitude in degrees, −90…90, positive north.
    public var latitude: Double
    /// Longitude in degrees, −180…180, positive east.
    public var longitude: Double
    /// Altitude above sea level in metres, when known.
    public var altitude: Double?
    /// Radius of uncertainty around the position, in metres.
    public var horizontalAccuracy: Double
    /// Direction of travel in degrees clockwise from true north (0..<360), when moving.
    public var course: Double?
    /// Ground speed in metres per second, when known.
    public var speed: Double?
    /// When the fix was taken.
    public var timestamp: Date

    /// Creates a fix; only the position and the timestamp are required.
    public init(
        latitude: Double,
        longitude: Double,
        altitude: Double? = nil,
        horizontalAccuracy: Double = 5,
        course: Double? = nil,
        speed: Double? = nil,
        timestamp: Date
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
    }
}
