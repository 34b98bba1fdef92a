import Foundation
import MischiefCatalog
import Testing

@Suite("Coordinate")
struct CoordinateTests {
    @Test func roundTripsThroughJSON() throws {
        let fix = Coordinate(
            latitude: -54.8019, longitude: -68.3030, altitude: 12.5, horizontalAccuracy: 3, course: 270, speed: 4,
            timestamp: Date(timeIntervalSince1970: 1_714_554_000)
        )
        let decoded = try JSONDecoder().decode(Coordinate.self, from: JSONEncoder().encode(fix))
        #expect(decoded == fix)
    }

    @Test func defaultsLeaveOptionalFieldsEmpty() {
        let fix = Coordinate(latitude: 1, longitude: 2, timestamp: Date(timeIntervalSince1970: 0))
        #expect(fix.altitude == nil && fix.course == nil && fix.speed == nil)
        #expect(fix.horizontalAccuracy == 5)
    }
}
