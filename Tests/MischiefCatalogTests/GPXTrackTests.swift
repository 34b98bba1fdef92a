import Foundation
import Testing

@testable import MischiefCatalog

@Suite("GPXTrack")
struct GPXTrackTests {
    private func parse(_ text: String, file: String = "test.gpx") throws(GPXError) -> GPXTrack {
        try GPXTrack.parse(Data(text.utf8), file: file)
    }

    private func error(parsing text: String) -> GPXError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesTrackWithTimesAndSegments() throws {
        let track = try parse(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><name>Metadata name</name></metadata>
              <trk>
                <name>Morning walk</name>
                <trkseg>
                  <trkpt lat="47.0" lon="8.0"><ele>400</ele><time>2024-05-01T09:00:00Z</time></trkpt>
                  <trkpt lat="47.001" lon="8.0"><ele>410.5</ele><time>2024-05-01T09:01:40Z</time></trkpt>
                </trkseg>
                <trkseg>
                  <trkpt lat="47.001" lon="8.001">
                    <time>2024-05-01T11:03:20.5+02:00</time>
                  </trkpt>
                </trkseg>
              </trk>
            </gpx>
            """)
        #expect(track.name == "Morning walk")
        #expect(track.points.count == 3)
        let start = Date(timeIntervalSince1970: 1_714_554_000)  // 2024-05-01T09:00:00Z
        #expect(track.points[0] == GPXTrack.Point(latitude: 47, longitude: 8, elevation: 400, time: start))
        #expect(track.points[1].elevation == 410.5)
        #expect(track.points[1].time == start.addingTimeInterval(100))
        #expect(track.points[2].elevation == nil)
        #expect(track.points[2].time == start.addingTimeInterval(200.5))
        #expect(track.points[2].longitude == 8.001)
    }

    @Test func parsesRouteWithoutTimes() throws {
        let track = try parse(
            """
            <gpx version="1.1" creator="test">
              <wpt lat="1" lon="1"><name>Ignored waypoint</name></wpt>
              <rte>
                <name>Planned</name>
                <rtept lat="-33.8688" lon="151.2093"/>
                <rtept lat="-33.87" lon="151.21"><ele>12</ele></rtept>
              </rte>
            </gpx>
            """)
        #expect(track.name == "Planned")
        #expect(
            track.points == [
                GPXTrack.Point(latitude: -33.8688, longitude: 151.2093),
                GPXTrack.Point(latitude: -33.87, longitude: 151.21, elevation: 12),
            ])
    }

    @Test func prefersTrackPointsOverRoutePointsAndIgnoresPrefixes() throws {
        let track = try parse(
            """
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1">
              <g:rte><g:rtept lat="5" lon="5"/></g:rte>
              <g:trk><g:trkseg><g:trkpt lat="1" lon="2"/></g:trkseg></g:trk>
              <g:trk><g:trkseg><g:trkpt lat="3" lon="4"/></g:trkseg></g:trk>
            </g:gpx>
            """)
        #expect(track.name == nil)
        #expect(track.points.map(\.latitude) == [1, 3])
    }

    @Test func malformedXMLReportsParserLine() {
        let error = error(
            parsing: """
                <gpx version="1.1">
                  <trk>
                    <trkseg>
                      <trkpt lat="1" lon="2"></trkpt>
                      <trkpt lat="1" lon="2"></trk>
                    </trkseg>
                  </trk>
                </gpx>
                """)
        #expect(error?.file == "test.gpx")
        #expect(error?.line == 5)
        #expect(error?.message.hasPrefix("malformed XML") == true)
        #expect(error?.description.hasPrefix("test.gpx:5") == true)
        #expect(error?.message == "malformed XML: a closing tag does not match the open element")
    }

    @Test func unclosedDocumentIsMalformed() {
        let error = error(parsing: "<gpx version=\"1.1\">\n  <trk>\n    <trkseg>\n")
        #expect(error?.message.hasPrefix("malformed XML") == true)
        #expect((error?.line ?? 0) >= 3)
        #expect(self.error(parsing: " \n")?.message == "the file is empty")
        #expect(self.error(parsing: "not xml at all")?.message.hasPrefix("malformed XML") == true)
    }

    @Test func missingLatitudeReportsItsLine() {
        let error = error(
            parsing: """
                <gpx version="1.1">
                  <trk>
                    <trkseg>
                      <trkpt lat="1" lon="2"></trkpt>
                      <trkpt lon="2"></trkpt>
                    </trkseg>
                  </trk>
                </gpx>
                """)
        #expect(error == GPXError(file: "test.gpx", line: 5, message: "<trkpt> has no lat attribute"))
        #expect(error?.description == "test.gpx:5: <trkpt> has no lat attribute")
    }

    @Test func invalidCoordinatesAndElevationReportTheirLines() {
        let notANumber = error(parsing: "<gpx>\n<rte>\n<rtept lat=\"north\" lon=\"2\"/>\n</rte>\n</gpx>")
        #expect(notANumber?.line == 3)
        #expect(notANumber?.message.contains("lat is not a number") == true)
        let outOfRange = error(parsing: "<gpx>\n<rte>\n<rtept lat=\"1\" lon=\"200\"/>\n</rte>\n</gpx>")
        #expect(outOfRange?.line == 3)
        #expect(outOfRange?.message.contains("lon") == true)
        let badElevation = error(
            parsing: "<gpx><rte>\n<rtept lat=\"1\" lon=\"2\">\n<ele>high</ele></rtept></rte></gpx>"
        )
        #expect(badElevation?.line == 3)
    }

    @Test func badTimeReportsItsLine() {
        let error = error(
            parsing: """
                <gpx version="1.1">
                  <trk><trkseg>
                    <trkpt lat="1" lon="2"><time>2024-05-01T09:00:00Z</time></trkpt>
                    <trkpt lat="1" lon="2">
                      <time>yesterday at noon</time>
                    </trkpt>
                  </trkseg></trk>
                </gpx>
                """)
        #expect(error?.line == 5)
        #expect(error?.message.contains("yesterday at noon") == true)
    }

    @Test func emptyTrackIsAnError() {
        let error = error(
            parsing: """
                <gpx version="1.1">
                  <trk><name>Nothing</name><trkseg></trkseg></trk>
                </gpx>
                """)
        #expect(error?.message == "no track or route points")
        #expect(error?.file == "test.gpx")
    }

    @Test func loadsFromFileAndReportsUnreadableFiles() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mischief-gpx-\(UUID().uuidString).gpx")
        try Data("<gpx><rte><rtept lat=\"1\" lon=\"2\"/></rte></gpx>".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try GPXTrack.load(contentsOf: url).points.count == 1)

        let missing = url.appendingPathExtension("missing")
        #expect {
            try GPXTrack.load(contentsOf: missing)
        } throws: { error in
            (error as? GPXError)?.file == missing.path && (error as? GPXError)?.line == 0
        }
    }

    // MARK: Inputs that crashed Foundation's XMLParser (issue 13, defect 6)

    private func error(parsing bytes: [UInt8]) -> GPXError? {
        do {
            _ = try GPXTrack.parse(Data(bytes), file: "test.gpx")
            return nil
        } catch {
            return error
        }
    }

    @Test func aProcessingInstructionBeforeTheRootIsSkipped() {
        // Segfaulted in _NSXMLParserProcessingInstruction (NULL strlen).
        let error = error(parsing: Array("<?g?><a/>".utf8))
        #expect(error == GPXError(file: "test.gpx", line: 1, message: "no track or route points"))
        let track = try? parse("<?g?><gpx><?pi data?><rte><rtept lat=\"1\" lon=\"2\"/></rte></gpx>")
        #expect(track?.points.count == 1)
    }

    @Test func invalidUTF8IsAnErrorAtItsLineAndColumn() {
        // Trapped in _NSXMLParserStartElementNs.
        let error = error(parsing: Array("<a".utf8) + [0xFE] + Array("b/>".utf8))
        #expect(error?.description == "test.gpx:1:3: malformed XML: invalid UTF-8 (byte 0xFE); save the file as UTF-8")
        let later = self.error(parsing: Array("<gpx>\n  <trk>é".utf8) + [0xC3, 0x28])
        #expect(later?.line == 2)
        #expect(later?.column == 9)
    }

    @Test func xmlErrorsCarryLineAndColumn() {
        #expect(
            error(parsing: "<gpx>\n  <trk></rte>")?.description
                == "test.gpx:2:8: malformed XML: a closing tag does not match the open element")
        #expect(
            error(parsing: "<!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx/>")?.description
                == "test.gpx:1:1: malformed XML: a DOCTYPE is not allowed in a GPX file (entities are not read)")
        #expect(
            error(parsing: "<gpx>&bogus;</gpx>")?.description
                == "test.gpx:1:6: malformed XML: a bad entity reference (escape '&' as '&amp;')")
        #expect(error(parsing: "<gpx a='1' a='2'/>")?.column == 12)
        #expect(error(parsing: "<gpx/><gpx/>")?.message == "malformed XML: content after the root element")
    }

    @Test func aFileOverTheLimitIsRefused() {
        let big = Array("<gpx>".utf8) + [UInt8](repeating: 0x20, count: GPXTrack.maxBytes) + Array("</gpx>".utf8)
        #expect(error(parsing: big)?.message == "the file holds more than 8 MiB, the limit")
    }
}
