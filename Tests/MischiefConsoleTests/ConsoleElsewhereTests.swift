import Mischief
import MischiefConsole
import Testing

/// When something other than this console changes the target, the status line says so in one line, instead of
/// keeping a message the target no longer bears out; this console's own changes are not reported as others'.
@Suite struct ConsoleElsewhereTests {
    typealias F = ConsoleFixtures

    /// The fixture as everything at generation 1, with "profile Tomorrow switched on" on the status line.
    static func state() -> ConsoleState {
        var state = ConsoleState(size: ScreenSize(rows: 30, columns: 120), timeZone: F.utc)
        state.source = "console"
        _ = Console.update(&state, .update(.reset(F.delta(F.data(), generation: 1))))
        _ = Console.update(&state, .commandFinished(.toggleProfile("Tokyo"), .success("profile Tokyo switched on")))
        #expect(state.message?.text == "profile Tokyo switched on")
        return state
    }

    /// A delta after `generation - 1` that brings only these events.
    static func events(_ events: [Event], generation: UInt64) -> ConsoleUpdate {
        let data = F.data()
        return .delta(
            StreamDelta(
                target: data.target,
                registry: RegistryDelta(
                    generation: generation, since: generation - 1, uptime: data.target.uptime,
                    sessionSeed: data.target.sessionSeed, isCounting: true, seams: [], events: events,
                    lastEventID: events.last?.id ?? 0)))
    }

    static func event(_ id: Int, _ kind: Event.Kind, _ seam: SeamID?, _ source: String, _ message: String) -> Event {
        Event(id: 100 + id, time: .seconds(3_700 + id), kind: kind, seam: seam, source: source, message: message)
    }

    @Test func aTimeToLiveRunningOutOnThisConsolesChangeIsSaid() {
        var state = Self.state()
        let expired = Self.event(1, .reverted, "clock.now", "console", "shift(1d): expired after its ttl of 30s")
        _ = Console.update(&state, .update(Self.events([expired], generation: 2)))
        #expect(state.message?.text == "clock.now reverted: shift(1d): expired after its ttl of 30s")
    }

    @Test func anotherClientsApplyAndRevertAreSaidWithWhoAsked() {
        var state = Self.state()
        let applied = Self.event(1, .applied, "net.request", "mischief-cli", "offline")
        _ = Console.update(&state, .update(Self.events([applied], generation: 2)))
        #expect(state.message?.text == "net.request changed by mischief-cli: offline")
        let reverted = Self.event(
            2, .reverted, "clock.now", "console bob pid 9", "shift(1d) (applied by profile Tokyo)")
        _ = Console.update(&state, .update(Self.events([reverted], generation: 3)))
        #expect(state.message?.text == "clock.now reverted by console bob pid 9: shift(1d) (applied by profile Tokyo)")
    }

    @Test func aGuardsTripIsSaidOnceForEverythingItReverted() {
        var state = Self.state()
        let trip = Self.event(
            1, .guardTripped, "net.request", "api",
            "guard 1 tripped (errors(net.request) > 50% over 10s): 9 of 10 calls threw; reverted everything (2 layers)"
        )
        let first = Self.event(2, .reverted, "clock.now", "guard 1", "shift(1d) (applied by console): guard 1 tripped")
        let second = Self.event(3, .reverted, "net.request", "guard 1", "offline (applied by api): guard 1 tripped")
        _ = Console.update(&state, .update(Self.events([trip, first, second], generation: 2)))
        #expect(
            state.message?.text
                == "guard 1 tripped (errors(net.request) > 50% over 10s): 9 of 10 calls threw; reverted everything "
                + "(2 layers) (and 2 more in the log, e)")
    }

    @Test func thisConsolesOwnChangesAreNotSaidToComeFromElsewhere() {
        var state = Self.state()
        // `2` switches Offline on: while it is in flight, the profile's apply (under the profile's name) is its own.
        #expect(F.press([.character("2")], &state) == [.toggleProfile("Offline")])
        #expect(state.commandsInFlight == 1)
        let applied = Self.event(1, .applied, "net.reachable", "profile Offline", "off")
        _ = Console.update(&state, .update(Self.events([applied], generation: 2)))
        #expect(state.message?.text == "profile Tokyo switched on")
        _ = Console.update(&state, .commandFinished(.toggleProfile("Offline"), .success("profile Offline switched on")))
        #expect(state.commandsInFlight == 0)
        // Its revert names it as the one who asked.
        let reverted = Self.event(2, .reverted, "clock.now", "console", "shift(1d)")
        _ = Console.update(&state, .update(Self.events([reverted], generation: 3)))
        #expect(state.message?.text == "profile Offline switched on")
    }
}
