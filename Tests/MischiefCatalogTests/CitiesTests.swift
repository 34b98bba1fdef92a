import Foundation
import Testing

@testable import MischiefCatalog

@Suite("Cities")
struct CitiesTests {
    @Test func hasAtLeastFiftyCitiesWithUniqueNames() {
        #expect(Cities.all.count >= 50)
        #expect(Set(Cities.all.map(\.name)).count == Cities.all.count)
        #expect(Set(Cities.all.map { Cities.normalize($0.name) }).count == Cities.all.count)
    }

    /// Every count of the cities in the docs is the count there is (the README once said 74 of 73): the README, the
    /// location article's `city("Name")` row and the catalogue's getting-started article.
    @Test func theDocsCountTheCitiesThereAre() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let docs = "Sources/MischiefCatalog/MischiefCatalog.docc"
        for (path, pattern) in [
            ("README.md", /one of (\d+) world cities/), ("\(docs)/CurrentLocation.md", /one of (\d+) world cities/),
            ("\(docs)/GettingStarted.md", /holds (\d+) world cities/),
        ] {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let counts = text.matches(of: pattern).map { Int($0.output.1) }
            #expect(counts == [Cities.all.count], "\(path)")
        }
    }

    @Test func coversEveryContinent() {
        let regions = Set(Cities.all.map { $0.timeZone.split(separator: "/").first.map(String.init) ?? "" })
        for region in ["Europe", "America", "Africa", "Asia", "Australia", "Pacific", "Antarctica"] {
            #expect(regions.contains(region), "no city in \(region)")
        }
        #expect(Cities.all.contains { $0.latitude < -10 && $0.timeZone.hasPrefix("America/") })  // South America
    }

    @Test func coordinatesAreInRange() {
        for city in Cities.all {
            #expect((-90...90).contains(city.latitude), "\(city.name)")
            #expect((-180...180).contains(city.longitude), "\(city.name)")
            #expect(!(city.latitude == 0 && city.longitude == 0), "\(city.name)")
        }
    }

    @Test func timeZonesAreKnownIANAIdentifiers() {
        for city in Cities.all {
            #expect(TimeZone(identifier: city.timeZone) != nil, "\(city.name): \(city.timeZone)")
        }
        // Fixed offsets without daylight saving time, checked on a fixed date.
        let date = Date(timeIntervalSince1970: 1_714_554_000)
        #expect(TimeZone(identifier: Cities.named("Kathmandu")!.timeZone)?.secondsFromGMT(for: date) == 20_700)
        #expect(TimeZone(identifier: Cities.named("Kiritimati")!.timeZone)?.secondsFromGMT(for: date) == 50_400)
    }

    @Test(arguments: [
        ("sao paulo", "São Paulo"), ("ZURICH", "Zürich"), ("  reykjavik ", "Reykjavík"), ("new  york", "New York"),
        ("Mexico City", "Mexico City"), ("st johns", "St. John's"), ("St. John’s", "St. John's"),
        ("BOGOTA", "Bogotá"), ("krakow", "Kraków"), ("TOKYO", "Tokyo"),
    ])
    func lookupIgnoresCaseAccentsAndSpaces(query: String, expected: String) {
        #expect(Cities.named(query)?.name == expected)
    }

    @Test func lookupFailsForUnknownNames() {
        #expect(Cities.named("Atlantis") == nil)
        #expect(Cities.named("") == nil)
        #expect(Cities.named("Zurik") == nil)
    }

    @Test(arguments: [
        ("Zurik", "Zürich"), ("Nairob", "Nairobi"), ("sao paolo", "São Paulo"),
        ("Sydny", "Sydney"), ("Longyerbyen", "Longyearbyen"), ("tokyo", "Tokyo"),
    ])
    func suggestsTheClosestName(typo: String, expected: String) {
        #expect(Cities.suggestion(for: typo) == expected)
    }

    @Test func suggestsNothingForNonsense() {
        #expect(Cities.suggestion(for: "qqqqqqqqqqqq") == nil)
        #expect(Cities.suggestion(for: "   ") == nil)
    }

    @Test func randomIsDeterministicPerSeedAndVariedAcrossSeeds() {
        for seed: UInt64 in [0, 1, 42, .max] {
            #expect(Cities.random(seed: seed) == Cities.random(seed: seed))
        }
        let picks = Set((0..<200).map { Cities.random(seed: UInt64($0)).name })
        #expect(picks.count > Cities.all.count / 2)
    }

    @Test func coordinateAtCityCentre() {
        let now = Date(timeIntervalSince1970: 0)
        let fix = Cities.named("Nairobi")!.coordinate(at: now, horizontalAccuracy: 20)
        #expect(fix == Coordinate(latitude: -1.2921, longitude: 36.8219, horizontalAccuracy: 20, timestamp: now))
    }
}
