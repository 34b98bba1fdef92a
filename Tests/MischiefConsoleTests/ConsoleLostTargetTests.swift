import Mischief
import MischiefConsole
import Testing

/// A target the console lost is shown as lost: its last data dimmed, without rates, as last seen; a restarted one
/// is said to have restarted, and `a` applies again what this console had applied on the old process.
@Suite struct ConsoleLostTargetTests {
    typealias F = ConsoleFixtures

    static func render(_ state: ConsoleState) -> CellGrid {
        Console.render(state, size: state.size, theme: .standard)
    }

    /// The roles of the seam list's cells on the row whose title is `title` (up to the list's right border).
    static func listRow(_ title: String, in grid: CellGrid) -> String {
        for y in 0..<grid.height {
            let cells = Array(grid.row(y))
            let text = cells.map(\.text).joined()
            guard text.contains(title) else { continue }
            let border = cells.dropFirst().firstIndex { $0.text == "│" } ?? cells.count
            return String(cells[1..<border].map(\.style.role.snapshotCharacter))
        }
        return ""
    }

    @Test func aLostTargetsRowsAreDimmedWithoutRatesAndItsClocksAreLastSeen() {
        var state = F.state(rows: 30, columns: 120)
        let alive = Self.render(state)
        #expect(alive.text.contains(" wall "))

        _ = Console.update(&state, .update(.lost("target gone (weather-demo pid 4242); no live targets")))
        #expect(state.isStale)
        let grid = Self.render(state)
        #expect(grid.text.contains("✕ lost: target gone"))
        #expect(!grid.text.contains("● connected"))
        #expect(grid.text.contains(" last seen 2025-05-01"), "\(grid.text)")
        #expect(!grid.text.contains(" wall "))
        let live = Self.listRow("Current location", in: alive)
        let row = Self.listRow("Current location", in: grid)
        #expect(live.contains("t") && live.contains("A"), "a live row: text, and its sparkline as accent: \(live)")
        #expect(!row.contains("t") && !row.contains("A"), "every cell of a lost row is muted: \(row)")
        // No sparkline: the rate of a target that is gone is not known.
        let list = grid.text.split(separator: "\n").filter { $0.contains("Current location") }
        #expect(list.allSatisfy { !$0.contains(where: { "▁▂▃▄▅▆▇█".contains($0) }) }, "\(list)")
        let counts = grid.text.split(separator: "\n").filter { $0.contains("calls 1384") }
        #expect(!counts.isEmpty && counts.allSatisfy { !$0.contains("rate ") }, "\(counts)")
    }

    /// The fixture's data as a reset delta, with clock.now carrying `layers` and the target at `pid`.
    static func reset(pid: Int32, layers: [LayerSnapshot] = []) -> ConsoleUpdate {
        var data = F.data(seconds: 3_724, calls: 60)
        data.target.pid = pid
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        data.seams[index].layers = layers
        return .reset(
            StreamDelta(
                target: data.target,
                registry: RegistryDelta(
                    generation: 5, since: 0, uptime: data.target.uptime, sessionSeed: data.target.sessionSeed,
                    isCounting: true, seams: data.seams, layers: layers, profiles: data.profiles, guards: [],
                    view: data.view)))
    }

    static func layer(_ id: Int, _ spec: String, source: String) -> LayerSnapshot {
        LayerSnapshot(
            id: LayerID(rawValue: id), seam: "clock.now", behaviour: spec, spec: spec, source: source, status: .active)
    }

    @Test func aRestartedTargetIsSaidSoAndAAppliesThisConsolesChangesAgain() {
        var state = ConsoleState(size: ScreenSize(rows: 30, columns: 120), timeZone: F.utc)
        state.source = "console alice pid 7"
        let mine = Self.layer(1, "shift(1d)", source: "console alice pid 7")
        let theirs = Self.layer(2, "freeze(2038-01-19T03:14:08Z)", source: "console bob pid 9")
        _ = Console.update(&state, .update(Self.reset(pid: 4242, layers: [mine, theirs])))
        _ = Console.update(&state, .update(.lost("target gone")))
        _ = Console.update(&state, .update(Self.reset(pid: 5151)))
        #expect(
            state.message?.text
                == "weather-demo restarted: pid 4242 → 5151, without this console's 1 change (a applies again)")
        #expect(Self.render(state).text.contains("a apply again"))
        #expect(F.press([.character("a")], &state) == [.apply(seam: "clock.now", spec: "shift(1d)")])
        #expect(F.press([.character("a")], &state).isEmpty)
        #expect(state.message?.text == "nothing to apply again: a is for a target that restarted")
    }

    @Test func theSameProcessFoundAgainIsNotARestart() {
        var state = ConsoleState(size: ScreenSize(rows: 30, columns: 120), timeZone: F.utc)
        _ = Console.update(
            &state, .update(Self.reset(pid: 4242, layers: [Self.layer(1, "shift(1d)", source: "console")])))
        _ = Console.update(&state, .update(.lost("target gone")))
        _ = Console.update(&state, .update(Self.reset(pid: 4242)))
        #expect(state.message?.text == "attached again to weather-demo (pid 4242)")
        #expect(state.lostLayers.isEmpty)
    }

    @Test func aLongMessageLeavesTheMostImportantHintsReadable() {
        var state = F.state(rows: 24, columns: 80)
        _ = Console.update(&state, .message(String(repeating: "a problem at start that is long ", count: 6)))
        let bottom = Self.render(state).text.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        #expect(bottom.contains("? help") && bottom.contains("q quit"), "\(bottom)")
        #expect(bottom.contains("…"), "a cut message says it is cut: \(bottom)")
    }
}
