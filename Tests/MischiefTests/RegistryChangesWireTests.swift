import Foundation
import Mischief
import Testing

/// `RegistryDelta` travels as JSON with the wire types' own field names, so a stream can send it as it is.
@Suite struct RegistryChangesWireTests {
    func json(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func fieldNamesAreTheSwiftNamesAndTheSeamsAreTheWireSeams() throws {
        let f = try Fixture()
        try f.registry.apply(spec: "return(3)", to: "test.double", source: "console")
        f.registry.publish(TargetView(title: "T"))
        let changes = f.registry.delta(since: 0, includingActions: true)
        let object = try json(changes)
        #expect(
            Set(object.keys) == [
                "generation", "since", "uptime", "sessionSeed", "isCounting", "seams", "removed", "entries", "profiles",
                "guards",
                "events", "view", "lastEventID",
            ])
        #expect(object["uptime"] is Double, "seconds, as TargetHeader sends them")
        let seams = try #require(object["seams"] as? [[String: Any]])
        let double = try #require(changes.seams.first { $0.id == "test.double" })
        #expect(NSDictionary(dictionary: seams[0]) == NSDictionary(dictionary: try json(double)))
        #expect(!double.actions.isEmpty, "includingActions fills them, as snapshot(includingActions:) does")
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(NSDictionary(dictionary: entries[0]) == NSDictionary(dictionary: try json(changes.layers[0])))
    }

    @Test func anAnswerRoundTrips() throws {
        let f = try Fixture()
        let start = f.registry.snapshot().generation
        try f.registry.apply(spec: "return(3)", to: "test.double")
        f.registry.unregister("test.parse")
        let changes = f.registry.delta(since: start)
        let decoded = try JSONDecoder().decode(RegistryDelta.self, from: JSONEncoder().encode(changes))
        #expect(decoded.seams == changes.seams && decoded.removed == ["test.parse"])
        #expect(decoded.layers == changes.layers && decoded.events == changes.events)
        #expect(decoded.profiles == nil && decoded.view == nil, "unchanged: absent")
        #expect(decoded.generation == changes.generation && decoded.since == start)
        #expect(decoded.lastEventID == changes.lastEventID && decoded.sessionSeed == 42)
        #expect(try json(changes)["profiles"] == nil)
    }

    /// Times travel as seconds; read back they are whole nanoseconds again, as the registry took them, so an event
    /// compares equal after a round trip (`anAnswerRoundTrips` failed now and then: `.seconds(Double)` kept the
    /// Double's error in attoseconds).
    @Test func anEventsTimeRoundTripsToTheNanosecond() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let time = Duration.nanoseconds(Int64.random(in: 0..<4_000_000_000_000_000, using: &generator))
            let event = Event(id: 1, time: time, kind: .applied, seam: "test.double", message: "x")
            let decoded = try JSONDecoder().decode(Event.self, from: JSONEncoder().encode(event))
            #expect(decoded == event, "\(time)")
            if decoded != event { break }
        }
    }

    @Test func brokenJSONSaysWhichFieldIsMissing() throws {
        let text = #"{"generation": 3, "since": 0, "uptime": 1.5}"#
        #expect {
            try JSONDecoder().decode(RegistryDelta.self, from: Data(text.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "sessionSeed"
        }
    }
}
