import Mischief
import Testing

@testable import MischiefConsole

/// `U` undoes this console's changes, as far back as its session goes; `Ctrl-R` redoes.
@Suite struct ConsoleUndoTests {
    typealias F = ConsoleFixtures

    /// The fixture's state where clock.now has a profile's layer (`shift(1d)`) and, when given, this console's.
    static func data(own: String?, profileOn: Bool = true) -> ConsoleData {
        var data = F.data(seconds: 3_724, calls: 60)
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        var layers = [
            LayerSnapshot(
                id: LayerID(rawValue: 1), seam: "clock.now", behaviour: "shift(1d)", spec: "shift(1d)",
                source: "profile Tokyo", status: .active)
        ]
        if let own {
            layers.append(
                LayerSnapshot(
                    id: LayerID(rawValue: 2), seam: "clock.now", behaviour: own, spec: own, source: "console",
                    status: .active))
        }
        data.seams[index].layers = layers
        data.seams[index].spec = own ?? "shift(1d)"
        data.seams[index].behaviourText = own ?? "shift(1d)"
        if let tokyo = data.profiles.firstIndex(where: { $0.profile.name == "Tokyo" }) {
            data.profiles[tokyo] = ProfileStatus(data.profiles[tokyo].profile, isActive: profileOn)
        }
        return data
    }

    static func finish(_ commands: [ConsoleCommand], _ state: inout ConsoleState, data: ConsoleData) {
        state.show(data)
        for command in commands { _ = Console.update(&state, .commandFinished(command, .success(nil))) }
    }

    @Test func undoingAnApplyRevertsOnlyThisConsolesLayerAndRedoAppliesItAgain() {
        var state = F.state()
        state.show(Self.data(own: nil))
        let apply = ConsoleCommand.apply(seam: "clock.now", spec: "shift(+3h)")
        Self.send(apply, &state, after: Self.data(own: "shift(+3h)"))
        let undo = F.press([.character("U")], &state)
        #expect(undo == [.revertLayers(seam: "clock.now", layers: [LayerID(rawValue: 2)])])
        #expect(state.message?.text.hasPrefix("undid apply clock.now shift(+3h)") == true)
        Self.finish(undo, &state, data: Self.data(own: nil))
        #expect(state.message?.text.hasPrefix("undid apply clock.now shift(+3h)") == true)  // not overwritten
        #expect(F.press([.control("r")], &state) == [apply])
        #expect(state.message?.text == "redid apply clock.now shift(+3h)")
    }

    /// `apply clock.now shift(+3h) ttl 10m` from the palette sends an apply and a TTL: redoing it sets the TTL again,
    /// so a redone change still reverts by itself.
    @Test func redoingAnApplyWithATimeToLiveSetsItAgain() {
        var state = F.state()
        state.show(Self.data(own: nil))
        let apply = ConsoleCommand.apply(seam: "clock.now", spec: "shift(+3h)")
        let ttl = ConsoleCommand.setTTL(seam: "clock.now", ttl: .seconds(600))
        state.history.note(apply, data: state.data, source: state.source)
        state.history.note(ttl, data: state.data, source: state.source)
        state.show(Self.data(own: "shift(+3h)"))
        _ = Console.update(&state, .commandFinished(apply, .success(nil)))
        _ = Console.update(&state, .commandFinished(ttl, .success(nil)))
        #expect(state.history.done.map(\.label) == ["apply clock.now shift(+3h) ttl 10m"])
        let undo = F.press([.character("U")], &state)
        Self.finish(undo, &state, data: Self.data(own: nil))
        #expect(F.press([.control("r")], &state) == [apply, ttl])
    }

    @Test func keysThatChangeTheTargetAreNotedAndUndoItselfIsNot() {
        var state = F.state()
        state.show(Self.data(own: nil))
        #expect(F.press([.character("1")], &state) == [.toggleProfile("Tokyo")])
        #expect(state.history.pending.map(\.command) == [.toggleProfile("Tokyo")])
        _ = Console.update(&state, .commandFinished(.toggleProfile("Tokyo"), .success(nil)))
        #expect(state.history.done.map(\.label) == ["switch profile Tokyo off"])
        state.show(Self.data(own: nil, profileOn: false))
        let undo = F.press([.character("U")], &state)
        #expect(undo == [.toggleProfile("Tokyo")])
        #expect(state.history.pending.isEmpty)  // undo's own command is not a new change
    }

    @Test func undoingAnApplyOverItsOwnEarlierSpecBringsThatBack() {
        var state = F.state()
        state.show(Self.data(own: "shift(+1h)"))
        Self.send(.apply(seam: "clock.now", spec: "shift(+3h)"), &state, after: Self.data(own: "shift(+3h)"))
        #expect(F.press([.character("U")], &state) == [.apply(seam: "clock.now", spec: "shift(+1h)")])
    }

    @Test func undoingARevertAppliesTheSpecAgainAndAProfileSwitchSwitchesBack() {
        var state = F.state()
        state.show(Self.data(own: "shift(+3h)"))
        Self.send(.toggleProfile("Tokyo"), &state, after: Self.data(own: "shift(+3h)", profileOn: false))
        Self.send(.revert("clock.now"), &state, after: Self.data(own: nil, profileOn: false))
        #expect(state.history.done.count == 2)
        let undoRevert = F.press([.character("U")], &state)
        #expect(undoRevert == [.apply(seam: "clock.now", spec: "shift(+3h)")])
        Self.finish(undoRevert, &state, data: Self.data(own: "shift(+3h)", profileOn: false))
        let undoSwitch = F.press([.character("U")], &state)
        #expect(undoSwitch == [.toggleProfile("Tokyo")])
        #expect(state.message?.text.hasPrefix("undid switch profile Tokyo off") == true)
        Self.finish(undoSwitch, &state, data: Self.data(own: "shift(+3h)", profileOn: true))
        #expect(F.press([.character("U")], &state).isEmpty)
        #expect(state.message?.text.hasPrefix("nothing to undo") == true)
        // Redo, in order: the switch, then the revert.
        #expect(F.press([.control("r")], &state) == [.toggleProfile("Tokyo")])
        Self.finish([.toggleProfile("Tokyo")], &state, data: Self.data(own: "shift(+3h)", profileOn: false))
        #expect(F.press([.control("r")], &state) == [.revert("clock.now")])
    }

    @Test func aNewChangeClearsWhatWasUndoneAndAFailedOneIsNotKept() {
        var state = F.state()
        state.show(Self.data(own: nil))
        Self.send(.apply(seam: "clock.now", spec: "shift(+3h)"), &state, after: Self.data(own: "shift(+3h)"))
        _ = F.press([.character("U")], &state)
        #expect(state.history.undone.count == 1)
        Self.send(.toggleProfile("Tokyo"), &state, after: Self.data(own: nil, profileOn: false))
        #expect(state.history.undone.isEmpty)
        let failing = ConsoleCommand.apply(seam: "clock.now", spec: "shfit(1d)")
        state.history.note(failing, data: state.data, source: "console")
        _ = Console.update(&state, .commandFinished(failing, .failure("unknown action")))
        #expect(state.history.done.count == 1)
    }

    @Test func theHistoryIsBounded() {
        var state = F.state()
        state.show(Self.data(own: nil))
        for index in 0..<(UndoHistory.limit + 20) {
            Self.send(.apply(seam: "clock.now", spec: "shift(+\(index)h)"), &state, after: Self.data(own: nil))
        }
        #expect(state.history.done.count == UndoHistory.limit)
    }

    /// A change as the console sends it from a key, then its success with the data that shows it.
    static func send(_ command: ConsoleCommand, _ state: inout ConsoleState, after data: ConsoleData) {
        state.history.note(command, data: state.data, source: state.source)
        state.show(data)
        _ = Console.update(&state, .commandFinished(command, .success(nil)))
    }
}
