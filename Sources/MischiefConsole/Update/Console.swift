import Mischief

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The console's pure core: ``update(_:_:)`` turns events into a new state and commands, and
/// ``render(_:size:theme:)`` turns a state into a grid of cells. Input never draws; drawing never changes state.
///
/// A driver loop feeds it keys, its controller's deltas, resizes and command results, runs the commands it returns, and draws:
/// ```swift
/// for await event in events {
///     for command in Console.update(&state, event) {
///         if command == .quit { return }
///         Task { events.send(.commandFinished(command, await command.perform(with: controller) ?? .success(nil))) }
///     }
///     terminal.draw(Console.render(state, size: state.size, theme: theme))
/// }
/// ```
/// Test example:
/// ```swift
/// var state = ConsoleState()
/// _ = Console.update(&state, .update(.reset(delta)))  // what the controller sends first: everything
/// #expect(Console.update(&state, .key(.character("r"))) == [.revert("clock.now")])
/// ```
public enum Console {
    /// Applies an event to the state and returns the commands for the driver to run, in order.
    ///
    /// Widths measured here (layout, scrolling) count the invisible characters' marks as rendering does.
    public static func update(_ state: inout ConsoleState, _ event: ConsoleEvent) -> [ConsoleCommand] {
        InvisibleMarks.$areShown.withValue(state.showsInvisibleMarks) { apply(event, to: &state) }
    }

    private static func apply(_ event: ConsoleEvent, to state: inout ConsoleState) -> [ConsoleCommand] {
        switch event {
        case .key(let key):
            let commands = noting(key, in: &state)
            state.commandsInFlight += commands.count(where: \.changesTarget)
            return commands
        case .update(let update):
            switch update {
            case .reset(let delta):
                reset(to: delta, in: &state)
            case .delta(let delta):
                let lastEvent = state.data?.events.last?.id ?? 0
                guard var data = state.data, data.applying(delta, eventLimit: state.eventLimit) else { return [] }
                receive(data, in: &state)
                noteChangesFromElsewhere(data.events.filter { $0.id > lastEvent }, in: &state)
            case .lost(let reason):
                guard var data = state.data else {
                    var empty = ConsoleData(
                        target: TargetHeader(name: "no target", pid: 0, uptime: .zero, sessionSeed: 0, wallTime: .now))
                    empty.connection = .lost(reason)
                    receive(empty, in: &state)
                    return []
                }
                data.connection = .lost(reason)
                state.data = data
            }
            return []
        case .resized(let size):
            state.size = size
            state.scrollListToSelection()
            if !ConsoleLayout(state).panes.contains(state.focus) {
                state.focus = .list
            }
            return []
        case .commandFinished(let command, let result):
            if command.changesTarget { state.commandsInFlight = max(0, state.commandsInFlight - 1) }
            finish(command, result, in: &state)
            return []
        case .message(let text):
            state.noteProblem(text)
            return []
        }
    }

    /// Routes a key by mode; Ctrl-C always quits, and a screen too small to use only knows `q`.
    static func handle(_ key: Key, in state: inout ConsoleState) -> [ConsoleCommand] {
        if key == .control("c") {
            return [.quit]
        }
        guard state.size.isUsable else {
            // ``KeyBindings/tooSmall``; typed characters each act as their key.
            let keys = if case .typed(let text) = key { text.map { Key.character($0) } } else { [key] }
            return keys.contains { KeyBindings.tooSmall[$0] == .quit } ? [.quit] : []
        }
        switch key {
        case .mouse(let event):
            return mouse(event, in: &state)
        case .paste(let text):
            paste(text, in: &state)
            return []
        case .typed(let text):
            return typed(text, in: &state)
        default:
            break
        }
        switch state.mode {
        case .browse:
            return browseKey(key, in: &state)
        case .filter:
            filterKey(key, in: &state)
            return []
        case .picker(let picker):
            return pickerKey(key, picker, in: &state)
        case .saveName(let field):
            return saveNameKey(key, field, in: &state)
        case .timeToLive(let seam, let field):
            return timeToLiveKey(key, seam: seam, field, in: &state)
        case .answer(let seam, let field):
            return answerKey(key, seam: seam, field, in: &state)
        case .confirmOverwrite(let name, let question):
            return confirmOverwriteKey(key, name: name, question: question, in: &state)
        case .help(let scroll):
            helpKey(key, scroll: scroll, in: &state)
            return []
        case .eventLog(let log):
            return eventLogKey(key, log, in: &state)
        case .profileList(let selected):
            return profileListKey(key, selected: selected, in: &state)
        case .palette(let palette):
            return paletteKey(key, palette, in: &state)
        }
    }

    /// Stores fresh data: call rates from the previous frame, last-used specs, the list and the selection.
    static func receive(_ data: ConsoleData, in state: inout ConsoleState) {
        let previous = state.data
        state.data = data
        var rates: [SeamID: RateHistory] = [:]
        rates.reserveCapacity(data.seams.count)
        if let previous, data.target.uptime == previous.target.uptime {
            rates = state.rates  // the same moment again: nothing to measure
        } else if let previous, data.target.uptime > previous.target.uptime {
            let elapsed = data.target.uptime - previous.target.uptime
            let aligned =
                previous.seams.count == data.seams.count
                && zip(previous.seams, data.seams).allSatisfy { $0.id == $1.id }
            let earlier =
                aligned
                ? [:]
                : Dictionary(
                    previous.seams.map { ($0.id, $0.calls) }, uniquingKeysWith: { first, _ in first })
            for (index, seam) in data.seams.enumerated() {
                var history = state.rates[seam.id] ?? RateHistory()
                if let before = aligned ? previous.seams[index].calls : earlier[seam.id] {
                    history.record(calls: max(0, seam.calls - before), over: elapsed)
                }
                rates[seam.id] = history
            }
        }
        state.rates = rates
        // Space brings back the spec this console last applied: one of its own layers wins over what a profile or
        // another client applied, which is taken only while the console has none. Only a spec can be applied
        // again: a behaviour built in code (shown as `closure`) leaves none to bring back.
        for seam in data.seams where seam.behaviourText != nil {
            if let own = seam.activeLayers.last(where: { $0.source == state.source }) {
                if let spec = own.spec { state.lastUsed[seam.id] = spec }
            } else if state.lastUsed[seam.id] == nil {
                state.lastUsed[seam.id] = seam.spec
            }
        }
        state.rebuildLines()
    }
}
