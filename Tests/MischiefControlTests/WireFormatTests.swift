import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// What curl users read: durations in seconds, dates in ISO 8601, the field names every /v1 route has always
/// sent; and the client reads the core's values back unchanged.
@Suite struct WireFormatTests {
    static let wall = Date(timeIntervalSince1970: 1_800_000_000)
    static let shift = ActionSignature(
        "shift", summary: "Moves the clock",
        parameters: [
            .init("by", .duration, default: .init(text: "1d"), step: .init(text: "1h"), summary: "Offset"),
            .init("mode", .word(["fast", "slow"]), summary: "How"),
        ], composes: true)
    static let layer = LayerSnapshot(
        id: LayerID(rawValue: 4), seam: "clock.now", behaviour: "shift(1d)", spec: "shift(1d)", source: "alice",
        appliedAt: .seconds(2.5), status: .active, session: "s1")
    static let state = TargetState(
        target: TargetHeader(
            name: "demo", pid: 42, uptime: .milliseconds(1500), sessionSeed: 7, wallTime: wall,
            targetTime: wall.addingTimeInterval(86_400)),
        seams: [
            SeamSnapshot(
                id: "clock.now", title: "Current time", category: "Clock", summary: "Now", signature: "() -> Date",
                behaviour: "shift(1d)", spec: "shift(1d)", calls: 5, chaosCalls: 3, errors: 1, inFlight: 1, held: 1,
                status: .active, actions: [shift], layers: [layer])
        ],
        profiles: [
            ProfileStatus(
                Profile(
                    name: "Tokyo", description: "Far east", key: 2,
                    entries: [.init(seam: "clock.now", spec: "shift(9h)"), .init(seam: "clock.now", spec: "off")]),
                isActive: true)
        ],
        events: [
            Event(id: 3, time: .seconds(2.25), kind: .revertCompleted, seam: "clock.now", source: "api", message: "x")
        ])

    static func object(_ value: some Encodable) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: try JSONEncoder.control.encode(value)) as? [String: Any])
    }

    @Test func consoleStateReadsWellAndRoundTrips() throws {
        let json = try JSONEncoder.control.encode(Self.state)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""uptime":1.5"#))
        #expect(text.contains(#""time":2.25"#))
        #expect(text.contains(#""kind":"revert-completed""#))
        #expect(text.contains(#""wallTime":"2027-01-15T08:00:00Z""#))
        #expect(try JSONDecoder.control.decode(TargetState.self, from: json) == Self.state)
    }

    @Test func seamKeepsTheFlatFieldNamesOfAPIVersion1() throws {
        let seam = try Self.object(Self.state.seams[0])
        for key in [
            "id", "title", "category", "summary", "signature", "behaviour", "spec", "calls", "chaosCalls",
            "errors", "inFlight", "held", "status", "actions",
        ] {
            #expect(seam[key] != nil, "seam field \(key)")
        }
        #expect(seam["calls"] as? Int == 5 && seam["status"] as? String == "active")
        #expect(seam["held"] as? Int == 1)
        let action = try #require((seam["actions"] as? [[String: Any]])?.first)
        #expect(action["name"] as? String == "shift" && action["composes"] as? Bool == true)
        let parameters = try #require(action["parameters"] as? [[String: Any]])
        #expect(parameters[0]["kind"] as? String == "duration")
        #expect(parameters[0]["defaultValue"] as? String == "1d" && parameters[0]["step"] as? String == "1h")
        #expect(
            parameters[1]["kind"] as? String == "word" && parameters[1]["choices"] as? [String] == ["fast", "slow"])
    }

    /// `held` came after API version 1: a seam or an update from a target that does not send it reads as 0 held.
    @Test func aSeamWithoutHeldDecodesWithNoneHeld() throws {
        var seam = try Self.object(Self.state.seams[0])
        seam["held"] = nil
        let decoded = try JSONDecoder.control.decode(
            SeamSnapshot.self, from: try JSONSerialization.data(withJSONObject: seam))
        #expect(decoded.held == 0 && decoded.inFlight == 1)
        var update = try Self.object(SeamUpdate(Self.state.seams[0]))
        update["held"] = nil
        let counters = try JSONDecoder.control.decode(
            SeamUpdate.self, from: try JSONSerialization.data(withJSONObject: update))
        #expect(counters.counters.held == 0 && counters.counters.calls == 5)
    }

    /// `guards` came after API version 1: a console state from a target that does not send it has none.
    @Test func aConsoleStateCarriesGuardsAndReadsOneWithout() throws {
        var state = Self.state
        state.guards = [
            GuardStatus(
                id: 1, definition: try Guard(parsing: "errors(clock.now) > 50% over 10s"), source: "api",
                state: .armed, isWatching: true)
        ]
        let json = try JSONEncoder.control.encode(state)
        #expect(String(decoding: json, as: UTF8.self).contains(#""state":"armed","watching":true"#))
        #expect(try JSONDecoder.control.decode(TargetState.self, from: json) == state)
        var object = try Self.object(state)
        object["guards"] = nil
        let old = try JSONDecoder.control.decode(
            TargetState.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(old.guards.isEmpty && old.seams == state.seams)
    }

    @Test func layerProfileAndCountersKeepTheirFieldNames() throws {
        let layer = try Self.object(Self.layer)
        #expect(layer["entry"] as? Int == 4 && layer["behaviour"] as? String == "shift(1d)")
        #expect(layer["source"] as? String == "alice" && layer["status"] as? String == "active")
        #expect(layer["session"] as? String == "s1" && layer["appliedAt"] as? Double == 2.5)
        let profile = try Self.object(Self.state.profiles[0])
        #expect(profile["name"] as? String == "Tokyo" && profile["summary"] as? String == "Far east")
        #expect(profile["key"] as? Int == 2 && profile["isOn"] as? Bool == true)
        #expect(profile["entryCount"] as? Int == 2 && profile["seams"] as? [String] == ["clock.now"])
        let counters = try Self.object(SeamUpdate(Self.state.seams[0]))
        #expect(counters["seam"] as? String == "clock.now" && counters["calls"] as? Int == 5)
        #expect(counters["chaosCalls"] as? Int == 3 && counters["errors"] as? Int == 1)
        #expect(counters["inFlight"] as? Int == 1 && counters["behaviour"] as? String == "shift(1d)")
        #expect(counters["held"] as? Int == 1)
        let detail = SeamDetail(seam: Self.state.seams[0], layers: [Self.layer])
        let json = try JSONEncoder.control.encode(detail)
        #expect(try JSONDecoder.control.decode(SeamDetail.self, from: json) == detail)
    }
}
