import Foundation
import Mischief
import Testing

@testable import MischiefConsole

/// Guards on screen: the guard bar above the profile bar (tripped first, with the figures), the guards on the
/// selected seam in its detail, and a trip in the event log. Without guards the screen is as before (the other
/// snapshots).
@Suite struct GuardRenderTests {
    typealias F = ConsoleFixtures

    static let trip = Event(
        id: 11, time: .seconds(3_710), kind: .guardTripped, seam: "clock.now", source: "profile Tokyo",
        message: "guard 2 tripped (no-success(clock.now) for 30s): no call returned without an error for 30s "
            + "(12 calls, 12 errors); reverted profile Tokyo (2 layers)")

    static func guards() throws -> [GuardStatus] {
        [
            GuardStatus(
                id: 1, definition: try Guard(parsing: "errors(net.response) > 50% over 10s"), source: "api",
                state: .armed, isWatching: true),
            GuardStatus(
                id: 2, definition: try Guard(parsing: "no-success(clock.now) for 30s", reverts: .profile("Tokyo")),
                source: "profile Tokyo",
                state: .tripped(
                    at: .seconds(3_710),
                    reason: "no call returned without an error for 30s (12 calls, 12 errors); "
                        + "reverted profile Tokyo (2 layers)")),
            GuardStatus(
                id: 3,
                definition: try Guard(
                    parsing: "errors(location.current) > 20% over 1m min 50", reverts: .profile("Offline")),
                source: "console (s1)", state: .armed),
        ]
    }

    /// The fixtures' state after a frame that carries the guards and the trip.
    static func state(rows: Int, columns: Int) throws -> ConsoleState {
        var state = F.state(rows: rows, columns: columns)
        var data = F.data(seconds: 3_724, calls: 90)
        data.guards = try guards()
        data.events.append(trip)
        state.show(data)
        return state
    }

    func render(_ state: ConsoleState) -> CellGrid {
        Console.render(state, size: state.size, theme: .standard)
    }

    @Test(arguments: ConsoleRenderTests.sizes) func theGuardBarAndTheDetailShowEachGuardsState(
        size: ScreenSize
    ) throws {
        let state = try Self.state(rows: size.rows, columns: size.columns)
        let grid = render(state)
        assertSnapshot(grid, named: "guards-\(size.columns)x\(size.rows)")
        let lines = grid.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The guard bar sits right above the profile bar, the tripped guard first.
        let bar = try #require(lines.firstIndex { $0.hasPrefix(" Guards ") })
        #expect(lines[bar + 1].hasPrefix(" Profiles "))
        #expect(lines[bar].hasPrefix(" Guards  ✕ 2 no-success(clock.now) for 30s tripped: no call returned"))
        // The selected seam (clock.now) lists its guard with the figures, where its detail has the room.
        if size.rows >= 40 {
            #expect(lines.contains { $0.contains("│  ✕ 2 no-success(clock.now) for 30s  tripped") })
            #expect(lines.contains { $0.contains("01:01:50  no call returned without an ") })
        }
        #expect(ConsoleLayout(state).guards?.y == bar)
        #expect(ConsoleLayout(F.state(rows: size.rows, columns: size.columns)).guards == nil)
    }

    @Test func aNarrowBarSaysHowManyMoreThereAre() throws {
        let state = try Self.state(rows: 24, columns: 80)
        let line = render(state).text.split(separator: "\n").first { $0.hasPrefix(" Guards ") }.map(String.init)
        // The tripped guard's figures take the row: the other two are counted.
        #expect(line?.hasSuffix(" +2 more") == true, "\(line ?? "no guard bar")")
    }

    @Test func aTripIsInTheEventLogInTheErrorRole() throws {
        var state = try Self.state(rows: 40, columns: 120)
        _ = F.press([.character("e")], &state)
        let grid = render(state)
        assertSnapshot(grid, named: "guards-events-120x40")
        let lines = grid.text.split(separator: "\n").map(String.init)
        let row = try #require(lines.lastIndex { $0.contains("guard-tripped") })
        #expect(lines[row].contains("clock.now") && lines[row].contains("guard 2 tripped (no-success(clock.now)"))
    }

    @Test func anInProcessConsoleReadsTheRegistrysGuards() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = Seam<Void, Int, any Error>("t.count", title: "Count", category: "T", summary: "") { 0 }
        try registry.register(seam)
        let controller = LocalController(
            registry: registry, name: "test", saveDirectory: URL(fileURLWithPath: "/nonexistent"))
        try registry.addGuard(Guard(parsing: "errors(t.count) > 50% over 10s"))
        #expect(await controller.shown().guards.map(\.stateName) == ["armed"])
        try registry.apply(spec: "return(1)", to: "t.count")
        #expect(await controller.shown().guards.map(\.stateName) == ["watching"])
    }
}
