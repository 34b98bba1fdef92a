import Foundation
import Mischief
import MischiefConsole
@testable import MischiefControl
import Testing

/// What curl users read: durations in seconds, dates in ISO 8601; and the client reads it back unchanged.
@Suite struct WireFormatTests {
    @Test func consoleDataReadsWellAndRoundTrips() throws {
        let wall = Date(timeIntervalSince1970: 1_800_000_000)
        let data = ConsoleData(
            target: TargetHeader(
                name: "demo", pid: 42, uptime: .milliseconds(1500), sessionSeed: 7, wallTime: wall,
                targetTime: wall.addingTimeInterval(86_400)),
            seams: [SeamRow(id: "clock.now", title: "Current time", category: "Clock", behaviour: "shift(1d)")],
            events: [EventRow(id: 3, time: .seconds(2.25), kind: "applied", seam: "clock.now", source: "api", message: "shift(1d)")])
        let json = try JSONEncoder.control.encode(data)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""uptime":1.5"#))
        #expect(text.contains(#""time":2.25"#))
        #expect(text.contains(#""wallTime":"2027-01-15T08:00:00Z""#))
        #expect(try JSONDecoder.control.decode(ConsoleData.self, from: json) == data)
    }
}
