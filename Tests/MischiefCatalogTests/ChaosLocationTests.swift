import Foundation
import Mischief
import Synchronization
import Testing

@testable import MischiefCatalog

@Suite("ChaosLocation")
struct ChaosLocationTests {
    /// A location family on its own registry, with a hand-moved clock.
    final class ManualTime: Sendable {
        private let value = Mutex(Date(timeIntervalSince1970: 1_700_000_000))
        var now: Date { value.withLock { $0 } }
        func advance(seconds: Double) { value.withLock { $0 += seconds } }
    }

    struct Fixture {
        let registry = Registry(sessionSeed: 42)
        let time = ManualTime()
        let location: ChaosLocation

        init(original: Coordinate? = nil) throws {
            let time = self.time
            location = ChaosLocation(id: "location.test", now: { time.now }) { () throws(LocationError) in
                guard let original else { throw .unavailable }
                return original
            }
            try registry.register(location.seam)
        }

        func apply(_ spec: String) throws(MischiefError) {
            try registry.apply(spec: spec, to: "location.test")
        }

        func advance(seconds: Double) { time.advance(seconds: seconds) }

        func error(applying spec: String) -> SpecError? {
            do throws(MischiefError) {
                try apply(spec)
                return nil
            } catch {
                guard case .invalidSpec(_, let specError) = error else { return nil }
                return specError
            }
        }
    }

    /// The README's shape: before `original` lost its default, this trailing closure bound to `now:` and did not
    /// compile (a `Coordinate` is not a `Date`).
    @Test func aTrailingClosureIsTheOriginal() throws {
        let lisbon = Cities.named("Lisbon")!
        let location = ChaosLocation(id: "location.trailing") { lisbon.coordinate(at: Date(timeIntervalSince1970: 0)) }
        let here = try location.current()
        #expect(here.latitude == lisbon.latitude && here.longitude == lisbon.longitude)
    }

    @Test func theOriginalAnswersUntilAnActionIsApplied() throws {
        let home = Cities.named("Lisbon")!.coordinate(at: Date(timeIntervalSince1970: 0))
        let f = try Fixture(original: home)
        #expect(try f.location.current() == home)
        try f.apply("coordinate(35.5, 139.25)")
        let fix = try f.location.current()
        #expect(fix.latitude == 35.5 && fix.longitude == 139.25)
        #expect(fix.timestamp == f.time.now)
        f.registry.revertAll()
        #expect(try f.location.current() == home)
    }

    @Test func aCityIsFoundIgnoringCaseAndAccents() throws {
        let f = try Fixture()
        try f.apply(#"city("sao paulo")"#)
        let fix = try f.location.current()
        #expect(Cities.nearest(to: fix).city.name == "São Paulo")
        #expect(Cities.nearest(to: fix).metres < 1)
    }

    @Test func anUnknownCityPointsAtItsNameAndSuggestsOne() throws {
        let f = try Fixture()
        let error = try #require(f.error(applying: #"city("Tokio")"#))
        #expect(error.column == 6)
        #expect(error.message == #"no city named "Tokio" in the list; did you mean "Tokyo"?"#)
    }

    @Test func coordinatesOutOfRangeAreRefusedWithTheirColumn() throws {
        let f = try Fixture()
        let error = try #require(f.error(applying: "coordinate(12, 200)"))
        #expect(error.column == 16)
        #expect(error.message.contains("longitude"))
    }

    @Test func theSameSeedGivesTheSameRandomCity() throws {
        let f = try Fixture()
        try f.apply("random-city(seed: 7)")
        let first = try f.location.current()
        f.registry.revertAll()
        try f.apply("random-city(seed: 7)")
        #expect(try f.location.current().latitude == first.latitude)
        #expect(Cities.nearest(to: first).city == Cities.random(seed: 7))
    }

    @Test func jitterComposesAndStaysWithinItsRadius() throws {
        let f = try Fixture()
        try f.apply(#"city("Tokyo") + jitter(50, seed: 3)"#)
        let oslo = Cities.named("Tokyo")!
        var fixes: [Coordinate] = []
        for _ in 0..<20 { fixes.append(try f.location.current()) }
        for fix in fixes {
            #expect(Geodesy.distance((fix.latitude, fix.longitude), oslo.position) <= 50.001)
            #expect(fix.horizontalAccuracy == 55)
        }
        #expect(Set(fixes.map(\.latitude)).count > 1)
        // The same seed replays the same noise.
        f.registry.revertAll()
        try f.apply(#"city("Tokyo") + jitter(50, seed: 3)"#)
        #expect(try f.location.current().latitude == fixes[0].latitude)
    }

    @Test func unavailableThrowsTheLocationError() throws {
        let f = try Fixture(original: Cities.named("Lima")!.coordinate(at: Date()))
        try f.apply("unavailable")
        #expect(throws: LocationError.unavailable) { try f.location.current() }
    }

    @Test func aRoutePlaysBackOnTheClockItIsGiven() throws {
        let f = try Fixture()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("route-\(UUID()).gpx")
        try """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
          <trkpt lat="10.0" lon="20.0"><time>2024-05-01T09:00:00Z</time></trkpt>
          <trkpt lat="10.1" lon="20.0"><time>2024-05-01T09:10:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try f.apply(#"route(path: "\#(file.path)", loop)"#)
        #expect(try f.location.current().latitude == 10.0)
        f.advance(seconds: 300)  // halfway along the first leg
        #expect(abs(try f.location.current().latitude - 10.05) < 1e-9)
        f.advance(seconds: 600)  // 15 minutes in: looped back to the middle
        #expect(abs(try f.location.current().latitude - 10.05) < 1e-9)
    }

    @Test func aMalformedGPXFileIsAnErrorNamingItsLine() throws {
        let f = try Fixture()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).gpx")
        try "<gpx version=\"1.1\">\n<trk>\n<trkseg>\n<trkpt lat=\"1\" lon=\"2\">\n</gpx>\n"
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(f.error(applying: #"route(path: "\#(file.path)", speed: 2)"#))
        #expect(error.message.hasPrefix("\(file.path):"))
        #expect(error.column == 7)  // the path argument
        #expect(f.registry.snapshot().seam("location.test")?.behaviourText == nil)
    }

    @Test func aRouteFromOutsideReadsOnlyAllowedFilesAndNeverCrashesTheTarget() throws {
        let f = try Fixture()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("<gpx><rte><rtept lat=\"1\" lon=\"2\"/></rte></gpx>".utf8)
            .write(to: directory.appendingPathComponent("ok.gpx"))
        try Data("<?g?><a/>".utf8).write(to: directory.appendingPathComponent("pi.gpx"))
        try Data([0x3C, 0x61, 0xFE, 0x62, 0x2F, 0x3E]).write(to: directory.appendingPathComponent("utf8.gpx"))
        let access = FileAccess.confined(to: [directory.path])
        func error(_ spec: String, _ access: FileAccess) -> String? {
            do throws(MischiefError) {
                try f.registry.apply(spec: spec, to: "location.test", fileAccess: access)
                return nil
            } catch {
                guard case .invalidSpec(_, let specError) = error else { return error.description }
                return specError.message
            }
        }
        #expect(error(#"route(path: "ok.gpx", speed: 1)"#, access) == nil)
        #expect(try f.location.current().latitude == 1)
        #expect(error(#"route(path: "pi.gpx")"#, access) == "pi.gpx:1: no track or route points")
        let utf8 = error(#"route(path: "utf8.gpx")"#, access)
        #expect(utf8?.hasPrefix("utf8.gpx:1:3: malformed XML: invalid UTF-8") == true)
        #expect(error(#"route(path: "/etc/passwd")"#, access) == "not readable within the allowed directories")
        #expect(error(#"route(path: "ok.gpx")"#, .none)?.hasPrefix("files are not allowed") == true)
    }
}
