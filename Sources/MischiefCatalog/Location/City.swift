import Foundation

/// A named place a `location.*` seam can pretend to be at.
///
/// ```swift
/// let zurich = Cities.named("zurich")!
/// let fix = zurich.coordinate(at: Date())   // Coordinate at the city centre
/// print(zurich.timeZone)                   // "Europe/Zurich"
/// ```
public struct City: Hashable, Sendable {
    /// The city's display name, with its accents ("São Paulo").
    public let name: String
    /// The country (or territory) the city is in.
    public let country: String
    /// Latitude of the city centre in degrees, positive north.
    public let latitude: Double
    /// Longitude of the city centre in degrees, positive east.
    public let longitude: Double
    /// The IANA time zone identifier ("America/St_Johns").
    public let timeZone: String

    /// Creates a city.
    public init(name: String, country: String, latitude: Double, longitude: Double, timeZone: String) {
        self.name = name
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
    }

    /// The city centre as a labelled pair, ready for ``Geodesy``.
    public var position: (latitude: Double, longitude: Double) {
        (latitude, longitude)
    }

    /// A fix at the city centre, taken at `timestamp`.
    public func coordinate(at timestamp: Date, horizontalAccuracy: Double = 5) -> Coordinate {
        Coordinate(
            latitude: latitude,
            longitude: longitude,
            horizontalAccuracy: horizontalAccuracy,
            timestamp: timestamp
        )
    }
}
