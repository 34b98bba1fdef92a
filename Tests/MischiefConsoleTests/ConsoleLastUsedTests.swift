import Mischief
import MischiefConsole
import Testing

/// The picker starts from what is applied, and Space brings back what this console applied last, not what a
/// profile put on top or left underneath.
@Suite struct ConsoleLastUsedTests {
    typealias F = ConsoleFixtures

    /// The fixture with clock.now's active layers as given (the last answers), its spec the top one's.
    static func state(layers: [(spec: String, source: String)]) -> ConsoleState {
        var state = ConsoleState(size: ScreenSize(rows: 30, columns: 120), timeZone: F.utc)
        state.show(data(layers: layers))
        return state
    }

    static func data(layers: [(spec: String, source: String)]) -> ConsoleData {
        var data = F.data()
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        data.seams[index].layers = layers.enumerated().map { number, layer in
            LayerSnapshot(
                id: LayerID(rawValue: number + 1), seam: "clock.now", behaviour: layer.spec, spec: layer.spec,
                source: layer.source, status: .active)
        }
        data.seams[index].behaviourText = layers.last?.spec
        data.seams[index].spec = layers.last?.spec
        return data
    }

    @Test func thePickerStartsFromTheAppliedSpec() {
        var state = Self.state(layers: [("shift(2d)", "console")])
        #expect(state.selectedSeam?.id == "clock.now")
        _ = F.press([.enter, .enter], &state)
        guard case .picker(let picker) = state.mode else {
            Issue.record("no picker: \(state.mode)")
            return
        }
        #expect(picker.field?.text == "shift(2d)")
    }

    @Test func spaceBringsBackWhatThisConsoleAppliedNotAProfilesLayer() {
        var state = Self.state(layers: [("virtual", "profile Frozen time"), ("shift(+3h)", "console")])
        #expect(state.lastUsed["clock.now"] == "shift(+3h)")
        // The console's own layer is reverted: the profile's answers again.
        state.show(Self.data(layers: [("virtual", "profile Frozen time")]))
        #expect(state.lastUsed["clock.now"] == "shift(+3h)")
        state.show(Self.data(layers: []))
        #expect(F.press([.character(" ")], &state) == [.apply(seam: "clock.now", spec: "shift(+3h)")])
    }

    @Test func whatOthersAppliedIsTakenWhileTheConsoleHasUsedNothing() {
        let state = Self.state(layers: [("virtual", "profile Frozen time")])
        #expect(state.lastUsed["clock.now"] == "virtual")
    }
}
