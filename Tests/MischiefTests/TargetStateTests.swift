import Foundation
import Mischief
import Testing

/// ``TargetState``: the one picture of a target every reader keeps, brought forward delta by delta.
@Suite struct TargetStateTests {
    static let header = TargetHeader(
        name: "test", pid: 7, uptime: .seconds(3), sessionSeed: 1, wallTime: Date(timeIntervalSince1970: 0))

    func state(_ f: Fixture, since generation: UInt64 = 0) -> StreamDelta {
        StreamDelta(
            target: Self.header, registry: f.registry.delta(since: generation, includingActions: generation == 0))
    }

    /// Applies `delta` to `state` (outside `#expect`, which cannot take a mutating call).
    func follow(_ state: inout TargetState, _ delta: StreamDelta) -> Bool {
        state.applying(delta, eventLimit: 100)
    }

    /// Following every delta gives what reading everything afresh gives: the seams with their actions, the events.
    @Test func followingDeltasEndsWhereReadingEverythingDoes() throws {
        let f = try Fixture()
        var followed = TargetState(everything: state(f), eventLimit: 100)
        try f.registry.apply(spec: "return(3)", to: "test.double")
        #expect(follow(&followed, state(f, since: followed.generation)))
        f.registry.revert(seam: "test.double")
        #expect(follow(&followed, state(f, since: followed.generation)))
        let fresh = TargetState(everything: state(f), eventLimit: 100)
        #expect(followed == fresh)
        #expect(followed.seams.allSatisfy { !$0.actions.isEmpty }, "actions kept from the first delta")
    }

    /// A delta that is older than the state, or starts after it, changes nothing.
    @Test func aDeltaThatDoesNotFollowIsRefused() throws {
        let f = try Fixture()
        let start = f.registry.snapshot().generation
        var followed = TargetState(everything: state(f), eventLimit: 100)
        try f.registry.apply(spec: "return(3)", to: "test.double")
        let middle = f.registry.snapshot().generation
        f.registry.revert(seam: "test.double")
        let gap = state(f, since: middle)
        #expect(!follow(&followed, gap), "starts after the state: a gap")
        #expect(follow(&followed, state(f, since: start)))
        let before = followed
        #expect(!follow(&followed, state(f, since: start)), "nothing new")
        #expect(followed == before)
    }

    /// Only the newest `eventLimit` events are kept.
    @Test func eventsAreBoundedByTheLimit() throws {
        let f = try Fixture()
        for _ in 0..<5 {
            try f.registry.apply(spec: "return(3)", to: "test.double")
            f.registry.revert(seam: "test.double")
        }
        let kept = TargetState(everything: state(f), eventLimit: 3)
        #expect(
            kept.events.map(\.id) == Array((f.registry.snapshot().lastEventID - 2)...f.registry.snapshot().lastEventID))
    }

    /// The JSON of `GET /v1/console` is as it always was: no generation unless the state has one.
    @Test func theJSONCarriesAGenerationOnlyWhenThereIsOne() throws {
        var state = TargetState(target: Self.header)
        let plain = try JSONSerialization.jsonObject(with: JSONEncoder().encode(state)) as? [String: Any]
        #expect(plain.map { Set($0.keys) } == ["target", "seams", "profiles", "events", "view", "guards"])
        state.generation = 42
        let decoded = try JSONDecoder().decode(TargetState.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
    }
}
