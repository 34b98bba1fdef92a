import Foundation
import Testing

@testable import MischiefCatalog

@Suite("Geodesy")
struct GeodesyTests {
    let london = (51.5074, -0.1278)
    let paris = (48.8566, 2.3522)

    @Test func londonToParis() {
        #expect(abs(Geodesy.distance(london, paris) - 343_500) < 1_000)
        #expect(abs(Geodesy.distance(paris, london) - Geodesy.distance(london, paris)) < 1e-6)
        #expect(Geodesy.distance(london, london) == 0)
    }

    @Test func longDistances() {
        // A quarter of the equator, and pole to pole.
        let quarter = Geodesy.earthRadius * .pi / 2
        #expect(abs(Geodesy.distance((0, 0), (0, 90)) - quarter) < 1)
        #expect(abs(Geodesy.distance((90, 0), (-90, 0)) - 2 * quarter) < 1)
        // Across the antimeridian is short.
        #expect(Geodesy.distance((0, 179.5), (0, -179.5)) < 112_000)
    }

    @Test func bearings() {
        #expect(abs(Geodesy.bearing(from: (0, 0), to: (1, 0)) - 0) < 1e-9)
        #expect(abs(Geodesy.bearing(from: (0, 0), to: (0, 1)) - 90) < 1e-9)
        #expect(abs(Geodesy.bearing(from: (0, 0), to: (-1, 0)) - 180) < 1e-9)
        #expect(abs(Geodesy.bearing(from: (0, 0), to: (0, -1)) - 270) < 1e-9)
        #expect(abs(Geodesy.bearing(from: london, to: paris) - 148.1) < 0.5)
        #expect(Geodesy.bearing(from: london, to: london) == 0)
    }

    @Test(arguments: [0.0, 45, 90, 135, 200, 315])
    func offsetTravelsTheRequestedDistanceAndBearing(bearing: Double) {
        let start = (47.3769, 8.5417)
        let end = Geodesy.offset(start, metres: 2_500, bearing: bearing)
        #expect(abs(Geodesy.distance(start, end) - 2_500) < 0.01)
        let measured = Geodesy.bearing(from: start, to: end)
        let difference = abs(measured - bearing)
        #expect(min(difference, 360 - difference) < 0.05)
    }

    @Test func offsetWrapsLongitude() {
        let end = Geodesy.offset((0, 179.9), metres: 50_000, bearing: 90)
        #expect(end.longitude < -179)
        #expect(Geodesy.normalizedLongitude(180) == -180)
        #expect(Geodesy.normalizedLongitude(-190) == 170)
    }
}
