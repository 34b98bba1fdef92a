import Foundation
import Mischief
import Testing

@testable import MischiefCatalog

@Suite("Route")
struct RouteTests {
    let start = Date(timeIntervalSince1970: 1_714_554_000)
    let now = Date(timeIntervalSince1970: 2_000_000_000)

    var timedTrack: GPXTrack {
        GPXTrack(
            name: "timed",
            points: [
                .init(latitude: 47.0, longitude: 8.0, elevation: 400, time: start),
                .init(latitude: 47.01, longitude: 8.0, elevation: 500, time: start.addingTimeInterval(100)),
                .init(latitude: 47.01, longitude: 8.02, time: start.addingTimeInterval(300)),
            ])
    }

    var untimedTrack: GPXTrack {
        GPXTrack(
            name: "untimed",
            points: [
                .init(latitude: 51.5000, longitude: -0.1200),
                .init(latitude: 51.5030, longitude: -0.1200),
                .init(latitude: 51.5030, longitude: -0.1150),
                .init(latitude: 51.5000, longitude: -0.1100),
            ])
    }

    @Test func followsTimestamps() throws {
        let route = try Route(track: timedTrack, speed: nil, loop: false)
        #expect(route.duration == .seconds(300))

        let first = route.position(at: .zero, now: now)
        #expect(first.latitude == 47.0 && first.longitude == 8.0 && first.altitude == 400)
        #expect(first.timestamp == now)
        let firstLeg = Geodesy.distance((47.0, 8.0), (47.01, 8.0))
        #expect(abs((first.speed ?? 0) - firstLeg / 100) < 1e-9)
        #expect(abs(first.course ?? -1) < 1e-9)

        let middle = route.position(at: .seconds(50), now: now)
        #expect(abs(middle.latitude - 47.005) < 1e-12)
        #expect(middle.longitude == 8.0)
        #expect(middle.altitude == 450)

        let secondLeg = route.position(at: .seconds(200), now: now)
        #expect(abs(secondLeg.latitude - 47.01) < 1e-12)
        #expect(abs(secondLeg.longitude - 8.01) < 1e-12)
        #expect(secondLeg.altitude == nil)  // the leg's end has no elevation
        #expect(abs((secondLeg.course ?? 0) - 90) < 0.1)
        let legTwo = Geodesy.distance((47.01, 8.0), (47.01, 8.02))
        #expect(abs((secondLeg.speed ?? 0) - legTwo / 200) < 1e-9)
    }

    @Test func clampsBeforeStartAndAfterEnd() throws {
        let route = try Route(track: timedTrack, speed: nil, loop: false)
        let before = route.position(at: .seconds(-5), now: now)
        #expect(before == Coordinate(latitude: 47.0, longitude: 8.0, altitude: 400, speed: 0, timestamp: now))
        for elapsed in [Duration.seconds(300), .seconds(301), .seconds(86_400)] {
            let after = route.position(at: elapsed, now: now)
            #expect(after == Coordinate(latitude: 47.01, longitude: 8.02, speed: 0, timestamp: now))
        }
    }

    @Test func loopsAround() throws {
        let route = try Route(track: timedTrack, speed: nil, loop: true)
        let once = route.position(at: .seconds(50), now: now)
        for lap in 1...3 {
            let again = route.position(at: .seconds(300 * lap + 50), now: now)
            #expect(abs(again.latitude - once.latitude) < 1e-9)
            #expect(abs(again.longitude - once.longitude) < 1e-9)
        }
        let wrapped = route.position(at: .seconds(300), now: now)
        #expect(wrapped.latitude == 47.0 && wrapped.longitude == 8.0)
        #expect(route.position(at: .milliseconds(299_999), now: now).longitude > 8.0199)
    }

    @Test func steadySpeedWithoutTimestamps() throws {
        let speed = 10.0
        let route = try Route(track: untimedTrack, speed: speed, loop: false)
        let legs = zip(untimedTrack.points, untimedTrack.points.dropFirst()).map {
            Geodesy.distance(($0.latitude, $0.longitude), ($1.latitude, $1.longitude))
        }
        let total = legs.reduce(0, +)
        #expect(abs(route.duration.seconds - total / speed) < 1e-6)

        // Distance along the path to the position at time t, leg by leg.
        func travelled(at seconds: Double) -> Double {
            let fix = route.position(at: .seconds(seconds), now: now)
            var covered = 0.0
            for (index, leg) in legs.enumerated() {
                let a = untimedTrack.points[index]
                if covered + leg >= speed * seconds {
                    return covered + Geodesy.distance((a.latitude, a.longitude), (fix.latitude, fix.longitude))
                }
                covered += leg
            }
            return covered
        }
        for seconds in [5.0, 20, 33.3, 50, 70] where seconds < total / speed {
            let expected = speed * seconds
            #expect(abs(travelled(at: seconds) - expected) / expected < 0.01, "at \(seconds) s")
            #expect(abs((route.position(at: .seconds(seconds), now: now).speed ?? 0) - speed) < 1e-6)
        }
    }

    @Test func timestampsWinOverSpeedWhenComplete() throws {
        let route = try Route(track: timedTrack, speed: 1_000, loop: false)
        #expect(route.duration == .seconds(300))
    }

    @Test func requiresSpeedWhenTimestampsAreMissing() {
        var partly = timedTrack
        partly.points[1].time = nil
        for track in [untimedTrack, partly] {
            #expect {
                try Route(track: track, speed: nil, loop: false)
            } throws: { error in
                (error as? GPXError)?.message.contains("speed") == true
            }
        }
        #expect(throws: GPXError.self) { try Route(track: untimedTrack, speed: 0, loop: false) }
        #expect(throws: GPXError.self) { try Route(track: untimedTrack, speed: -.infinity, loop: false) }
    }

    @Test func rejectsEmptyTracksAndBackwardTime() {
        #expect(throws: GPXError(file: "track", line: 0, message: "no track or route points")) {
            try Route(track: GPXTrack(points: []), speed: 1, loop: false)
        }
        var backwards = timedTrack
        backwards.points[2].time = start.addingTimeInterval(50)
        #expect {
            try Route(track: backwards, speed: nil, loop: false)
        } throws: { error in
            (error as? GPXError)?.message == "timestamps go backwards at point 3 of 3"
        }
    }

    @Test func singlePointStandsStill() throws {
        let track = GPXTrack(points: [.init(latitude: -77.8419, longitude: 166.6863)])
        let route = try Route(track: track, speed: 3, loop: true)
        #expect(route.duration == .zero)
        let fix = route.position(at: .seconds(42), now: now)
        #expect(fix.latitude == -77.8419 && fix.longitude == 166.6863 && fix.speed == 0)
    }

    @Test func crossesTheAntimeridianTheShortWay() throws {
        let track = GPXTrack(points: [.init(latitude: 0, longitude: 179.9), .init(latitude: 0, longitude: -179.9)])
        let route = try Route(track: track, speed: 100, loop: false)
        let middle = route.position(at: route.duration / 2, now: now)
        #expect(abs(abs(middle.longitude) - 180) < 1e-6)
        #expect(abs((middle.course ?? 0) - 90) < 1e-6)
        #expect(route.duration < .seconds(250))
    }
}
