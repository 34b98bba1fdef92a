import Mischief
import Testing

/// The event log bounds bytes, not only events: a long spec applied, refused or reverted leaves at most
/// ``Event/maximumMessageLength`` bytes of text in each event (issue #28).
struct EventBoundTests {
    @Test func longSpecsLeaveBoundedEvents() throws {
        let f = try Fixture()
        let long = "log(\"" + String(repeating: "a", count: 60_000) + "\")"
        for _ in 0..<3 {
            let applied = try f.registry.apply(
                spec: long, to: "test.double", source: String(repeating: "s", count: 5_000))
            f.registry.revert(applied)
        }
        #expect(throws: MischiefError.self) { try f.registry.apply(spec: long + " + nope", to: "test.double") }
        let events = f.registry.events()
        #expect(events.count >= 7)
        for event in events {
            #expect(event.message.utf8.count <= Event.maximumMessageLength, "\(event.kind)")
            #expect((event.source?.utf8.count ?? 0) <= Event.maximumMessageLength, "\(event.kind)")
        }
        #expect(events.contains { $0.message.hasSuffix("…") })
    }
}
