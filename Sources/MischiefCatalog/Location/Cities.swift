import Foundation
import Mischief

/// A built-in catalogue of world cities, for `location.*` seams that move the target somewhere else.
///
/// Lookups forgive case, accents, punctuation and stray spaces, so a chaos script can say `"sao paulo"`
/// or `"ZURICH"`. The list deliberately includes awkward places: half-hour and quarter-hour time zones
/// (Kathmandu, St. John's, Adelaide, Chatham Islands), the date line (Apia, Kiritimati, Suva), the far
/// north and south (Longyearbyen, Ushuaia, McMurdo Station) and the equator and prime meridian.
///
/// ```swift
/// let city = Cities.named("reykjavik") ?? Cities.random(seed: 42)
/// if Cities.named("Zurik") == nil, let hint = Cities.suggestion(for: "Zurik") {
///     print("unknown city; did you mean \(hint)?")   // "did you mean Zürich?"
/// }
/// ```
public enum Cities {
    /// Every city in the catalogue, grouped by continent; names are unique even after normalisation.
    public static let all: [City] = [
        // Europe
        City(
            name: "London", country: "United Kingdom", latitude: 51.5074, longitude: -0.1278,
            timeZone: "Europe/London"),
        City(name: "Paris", country: "France", latitude: 48.8566, longitude: 2.3522, timeZone: "Europe/Paris"),
        City(name: "Berlin", country: "Germany", latitude: 52.5200, longitude: 13.4050, timeZone: "Europe/Berlin"),
        City(name: "Madrid", country: "Spain", latitude: 40.4168, longitude: -3.7038, timeZone: "Europe/Madrid"),
        City(name: "Rome", country: "Italy", latitude: 41.9028, longitude: 12.4964, timeZone: "Europe/Rome"),
        City(
            name: "Zürich", country: "Switzerland", latitude: 47.3769, longitude: 8.5417,
            timeZone: "Europe/Zurich"),
        City(
            name: "Reykjavík", country: "Iceland", latitude: 64.1466, longitude: -21.9426,
            timeZone: "Atlantic/Reykjavik"),
        City(
            name: "Longyearbyen", country: "Norway (Svalbard)", latitude: 78.2232, longitude: 15.6267,
            timeZone: "Arctic/Longyearbyen"),
        City(name: "Moscow", country: "Russia", latitude: 55.7558, longitude: 37.6173, timeZone: "Europe/Moscow"),
        City(
            name: "Istanbul", country: "Türkiye", latitude: 41.0082, longitude: 28.9784,
            timeZone: "Europe/Istanbul"),
        City(name: "Lisbon", country: "Portugal", latitude: 38.7223, longitude: -9.1393, timeZone: "Europe/Lisbon"),
        City(name: "Kraków", country: "Poland", latitude: 50.0647, longitude: 19.9450, timeZone: "Europe/Warsaw"),
        City(name: "Athens", country: "Greece", latitude: 37.9838, longitude: 23.7275, timeZone: "Europe/Athens"),
        City(
            name: "Amsterdam", country: "Netherlands", latitude: 52.3676, longitude: 4.9041,
            timeZone: "Europe/Amsterdam"),
        City(
            name: "Stockholm", country: "Sweden", latitude: 59.3293, longitude: 18.0686,
            timeZone: "Europe/Stockholm"),
        // North America
        City(
            name: "New York", country: "United States", latitude: 40.7128, longitude: -74.0060,
            timeZone: "America/New_York"),
        City(
            name: "Los Angeles", country: "United States", latitude: 34.0522, longitude: -118.2437,
            timeZone: "America/Los_Angeles"),
        City(
            name: "Chicago", country: "United States", latitude: 41.8781, longitude: -87.6298,
            timeZone: "America/Chicago"),
        City(
            name: "Anchorage", country: "United States", latitude: 61.2181, longitude: -149.9003,
            timeZone: "America/Anchorage"),
        City(
            name: "Honolulu", country: "United States", latitude: 21.3069, longitude: -157.8583,
            timeZone: "Pacific/Honolulu"),
        City(
            name: "Mexico City", country: "Mexico", latitude: 19.4326, longitude: -99.1332,
            timeZone: "America/Mexico_City"),
        City(
            name: "Toronto", country: "Canada", latitude: 43.6532, longitude: -79.3832,
            timeZone: "America/Toronto"),
        City(
            name: "Vancouver", country: "Canada", latitude: 49.2827, longitude: -123.1207,
            timeZone: "America/Vancouver"),
        City(
            name: "St. John's", country: "Canada", latitude: 47.5615, longitude: -52.7126,
            timeZone: "America/St_Johns"),
        City(name: "Havana", country: "Cuba", latitude: 23.1136, longitude: -82.3666, timeZone: "America/Havana"),
        City(
            name: "Panama City", country: "Panama", latitude: 8.9824, longitude: -79.5199,
            timeZone: "America/Panama"),
        City(name: "Nuuk", country: "Greenland", latitude: 64.1814, longitude: -51.6941, timeZone: "America/Nuuk"),
        // South America
        City(
            name: "São Paulo", country: "Brazil", latitude: -23.5505, longitude: -46.6333,
            timeZone: "America/Sao_Paulo"),
        City(
            name: "Rio de Janeiro", country: "Brazil", latitude: -22.9068, longitude: -43.1729,
            timeZone: "America/Sao_Paulo"),
        City(
            name: "Buenos Aires", country: "Argentina", latitude: -34.6037, longitude: -58.3816,
            timeZone: "America/Argentina/Buenos_Aires"),
        City(
            name: "Ushuaia", country: "Argentina", latitude: -54.8019, longitude: -68.3030,
            timeZone: "America/Argentina/Ushuaia"),
        City(name: "Lima", country: "Peru", latitude: -12.0464, longitude: -77.0428, timeZone: "America/Lima"),
        City(
            name: "Bogotá", country: "Colombia", latitude: 4.7110, longitude: -74.0721,
            timeZone: "America/Bogota"),
        City(
            name: "Santiago", country: "Chile", latitude: -33.4489, longitude: -70.6693,
            timeZone: "America/Santiago"),
        City(
            name: "Quito", country: "Ecuador", latitude: -0.1807, longitude: -78.4678,
            timeZone: "America/Guayaquil"),
        City(
            name: "Caracas", country: "Venezuela", latitude: 10.4806, longitude: -66.9036,
            timeZone: "America/Caracas"),
        City(
            name: "La Paz", country: "Bolivia", latitude: -16.4897, longitude: -68.1193,
            timeZone: "America/La_Paz"),
        // Africa
        City(name: "Nairobi", country: "Kenya", latitude: -1.2921, longitude: 36.8219, timeZone: "Africa/Nairobi"),
        City(name: "Cairo", country: "Egypt", latitude: 30.0444, longitude: 31.2357, timeZone: "Africa/Cairo"),
        City(name: "Lagos", country: "Nigeria", latitude: 6.5244, longitude: 3.3792, timeZone: "Africa/Lagos"),
        City(
            name: "Cape Town", country: "South Africa", latitude: -33.9249, longitude: 18.4241,
            timeZone: "Africa/Johannesburg"),
        City(
            name: "Johannesburg", country: "South Africa", latitude: -26.2041, longitude: 28.0473,
            timeZone: "Africa/Johannesburg"),
        City(
            name: "Casablanca", country: "Morocco", latitude: 33.5731, longitude: -7.5898,
            timeZone: "Africa/Casablanca"),
        City(
            name: "Addis Ababa", country: "Ethiopia", latitude: 9.0300, longitude: 38.7400,
            timeZone: "Africa/Addis_Ababa"),
        City(name: "Dakar", country: "Senegal", latitude: 14.7167, longitude: -17.4677, timeZone: "Africa/Dakar"),
        City(
            name: "Kinshasa", country: "DR Congo", latitude: -4.4419, longitude: 15.2663,
            timeZone: "Africa/Kinshasa"),
        City(name: "Accra", country: "Ghana", latitude: 5.6037, longitude: -0.1870, timeZone: "Africa/Accra"),
        // Asia
        City(name: "Tokyo", country: "Japan", latitude: 35.6762, longitude: 139.6503, timeZone: "Asia/Tokyo"),
        City(name: "Beijing", country: "China", latitude: 39.9042, longitude: 116.4074, timeZone: "Asia/Shanghai"),
        City(name: "Shanghai", country: "China", latitude: 31.2304, longitude: 121.4737, timeZone: "Asia/Shanghai"),
        City(
            name: "Hong Kong", country: "China", latitude: 22.3193, longitude: 114.1694,
            timeZone: "Asia/Hong_Kong"),
        City(name: "Seoul", country: "South Korea", latitude: 37.5665, longitude: 126.9780, timeZone: "Asia/Seoul"),
        City(name: "Mumbai", country: "India", latitude: 19.0760, longitude: 72.8777, timeZone: "Asia/Kolkata"),
        City(name: "New Delhi", country: "India", latitude: 28.6139, longitude: 77.2090, timeZone: "Asia/Kolkata"),
        City(
            name: "Kathmandu", country: "Nepal", latitude: 27.7172, longitude: 85.3240,
            timeZone: "Asia/Kathmandu"),
        City(name: "Tehran", country: "Iran", latitude: 35.6892, longitude: 51.3890, timeZone: "Asia/Tehran"),
        City(
            name: "Dubai", country: "United Arab Emirates", latitude: 25.2048, longitude: 55.2708,
            timeZone: "Asia/Dubai"),
        City(
            name: "Singapore", country: "Singapore", latitude: 1.3521, longitude: 103.8198,
            timeZone: "Asia/Singapore"),
        City(name: "Bangkok", country: "Thailand", latitude: 13.7563, longitude: 100.5018, timeZone: "Asia/Bangkok"),
        City(
            name: "Jakarta", country: "Indonesia", latitude: -6.2088, longitude: 106.8456,
            timeZone: "Asia/Jakarta"),
        City(
            name: "Manila", country: "Philippines", latitude: 14.5995, longitude: 120.9842,
            timeZone: "Asia/Manila"),
        City(
            name: "Ho Chi Minh City", country: "Vietnam", latitude: 10.8231, longitude: 106.6297,
            timeZone: "Asia/Ho_Chi_Minh"),
        City(
            name: "Ulaanbaatar", country: "Mongolia", latitude: 47.8864, longitude: 106.9057,
            timeZone: "Asia/Ulaanbaatar"),
        // Oceania
        City(
            name: "Sydney", country: "Australia", latitude: -33.8688, longitude: 151.2093,
            timeZone: "Australia/Sydney"),
        City(
            name: "Melbourne", country: "Australia", latitude: -37.8136, longitude: 144.9631,
            timeZone: "Australia/Melbourne"),
        City(
            name: "Perth", country: "Australia", latitude: -31.9505, longitude: 115.8605,
            timeZone: "Australia/Perth"),
        City(
            name: "Adelaide", country: "Australia", latitude: -34.9285, longitude: 138.6007,
            timeZone: "Australia/Adelaide"),
        City(
            name: "Auckland", country: "New Zealand", latitude: -36.8485, longitude: 174.7633,
            timeZone: "Pacific/Auckland"),
        City(
            name: "Waitangi", country: "New Zealand (Chatham Islands)", latitude: -43.9535, longitude: -176.5597,
            timeZone: "Pacific/Chatham"),
        City(name: "Suva", country: "Fiji", latitude: -18.1248, longitude: 178.4501, timeZone: "Pacific/Fiji"),
        City(name: "Apia", country: "Samoa", latitude: -13.8333, longitude: -171.7500, timeZone: "Pacific/Apia"),
        City(
            name: "Kiritimati", country: "Kiribati", latitude: 1.8721, longitude: -157.4278,
            timeZone: "Pacific/Kiritimati"),
        // Antarctica
        City(
            name: "McMurdo Station", country: "Antarctica", latitude: -77.8419, longitude: 166.6863,
            timeZone: "Antarctica/McMurdo"),
    ]

    /// The city whose name matches, ignoring case, accents, punctuation and surrounding or doubled spaces.
    ///
    /// `"sao paulo"`, `"ZURICH"`, `" st johns "` and `"St. John’s"` all find their city.
    public static func named(_ name: String) -> City? {
        byKey[normalize(name)]
    }

    /// The catalogue name closest to `name` (by edit distance after normalisation), for "did you mean" hints.
    ///
    /// Returns the canonical spelling when `name` already matches, and `nil` when nothing is plausibly close
    /// (more than a third of the letters would have to change, with a minimum allowance of two edits).
    public static func suggestion(for name: String) -> String? {
        let key = normalize(name)
        guard !key.isEmpty else { return nil }
        if let exact = byKey[key] { return exact.name }
        let typed = Array(key)
        var best: (distance: Int, name: String)?
        for (candidateKey, city) in keyed {
            let distance = editDistance(typed, Array(candidateKey))
            if best == nil || distance < best!.distance {
                best = (distance, city.name)
            }
        }
        guard let best, best.distance <= max(2, typed.count / 3) else { return nil }
        return best.name
    }

    /// The city nearest to `coordinate` (great-circle distance), with the distance in metres.
    public static func nearest(to coordinate: Coordinate) -> (city: City, metres: Double) {
        var best = (city: all[0], metres: Double.infinity)
        for city in all {
            let metres = Geodesy.distance((coordinate.latitude, coordinate.longitude), city.position)
            if metres < best.metres { best = (city, metres) }
        }
        return best
    }

    /// A city chosen by `seed`: the same seed always gives the same city; different seeds spread evenly.
    public static func random(seed: UInt64) -> City {
        var generator = SeededGenerator(seed: seed)
        return all[Int(generator.next() % UInt64(all.count))]
    }

    // MARK: - Lookup internals

    /// The catalogue in order, each city paired with its lookup key.
    private static let keyed: [(key: String, city: City)] = all.map { (normalize($0.name), $0) }

    /// The catalogue indexed by lookup key.
    private static let byKey: [String: City] = Dictionary(keyed.map { ($0.key, $0.city) }) { first, _ in first }

    /// The lookup key for a name: case and diacritics folded, apostrophes and dots dropped, every other run
    /// of non-alphanumerics collapsed into one space, and the ends trimmed.
    static func normalize(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        var key = ""
        var pendingSpace = false
        for character in folded {
            if character == "'" || character == "’" || character == "." { continue }
            if character.isLetter || character.isNumber {
                if pendingSpace && !key.isEmpty { key.append(" ") }
                pendingSpace = false
                key.append(character)
            } else {
                pendingSpace = true
            }
        }
        return key
    }

    /// The Levenshtein distance between two character sequences.
    static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for (i, left) in lhs.enumerated() {
            current[0] = i + 1
            for (j, right) in rhs.enumerated() {
                let substitution = previous[j] + (left == right ? 0 : 1)
                current[j + 1] = min(substitution, previous[j + 1] + 1, current[j] + 1)
            }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }
}
