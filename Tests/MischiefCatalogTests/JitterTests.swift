import Foundation
import Testing

@testable import MischiefCatalog

@Suite("Jitter")
struct JitterTests {
    let fix = Coordinate(
        latitude: 64.1466, longitude: -21.9426, altitude: 30, horizontalAccuracy: 8, course: 90, speed: 1.5,
        timestamp: Date(timeIntervalSince1970: 1_000)
    )

    @Test func staysWithinBoundAndGrowsAccuracy() {
        let jitter = Jitter(metres: 40, seed: 7)
        var largest = 0.0
        for index in 0..<500 {
            let moved = jitter.apply(to: fix, callIndex: index)
            let displacement = Geodesy.distance((fix.latitude, fix.longitude), (moved.latitude, moved.longitude))
            #expect(displacement <= 40 + 1e-6)
            #expect(moved.horizontalAccuracy == 48)
            #expect(moved.altitude == 30 && moved.course == 90 && moved.speed == 1.5)
            #expect(moved.timestamp == fix.timestamp)
            largest = max(largest, displacement)
        }
        #expect(largest > 30)  // spread over the whole disc, not stuck near the centre
    }

    @Test func isDeterministicPerSeedAndCallIndex() {
        let a = Jitter(metres: 25, seed: 99), b = Jitter(metres: 25, seed: 99), c = Jitter(metres: 25, seed: 100)
        for index in [0, 1, 2, 1_000, -3] {
            #expect(a.apply(to: fix, callIndex: index) == b.apply(to: fix, callIndex: index))
            #expect(a.apply(to: fix, callIndex: index) != c.apply(to: fix, callIndex: index))
        }
        let distinct = Set((0..<100).map { a.apply(to: fix, callIndex: $0) })
        #expect(distinct.count == 100)
    }

    @Test func zeroOrInvalidMetresLeavesTheFixAlone() {
        #expect(Jitter(metres: 0, seed: 1).apply(to: fix, callIndex: 3) == fix)
        #expect(Jitter(metres: -5, seed: 1).apply(to: fix, callIndex: 3) == fix)
        #expect(Jitter(metres: .nan, seed: 1).metres == 0)
    }
}
