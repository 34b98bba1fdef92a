import Mischief

extension Console {
    /// A key in the event log (``KeyBindings/eventLog``, ``KeyBindings/eventDetail`` with one event whole,
    /// ``KeyBindings/eventLogFilter`` while typing its filter): arrows choose a line, Enter opens it whole, `/`
    /// filters, Esc steps back.
    static func eventLogKey(_ key: Key, _ log: EventLog, in state: inout ConsoleState) -> [ConsoleCommand] {
        var log = log
        let lines = log.lines(of: state.events)
        let count = lines.count
        if log.isFiltering {
            switch KeyBindings.eventLogFilter[key] {
            case .accept:
                log.isFiltering = false
            case .cancel:
                log.filter = TextField()
                log.isFiltering = false
            case .move, nil:
                _ = log.filter.edit(key)
            }
            log.selected = 0
            state.mode = .eventLog(log)
            return []
        }
        let command = log.showsDetail ? KeyBindings.eventDetail[key] : KeyBindings.eventLog[key]
        switch command {
        case .copy(let curl):
            // The selected change as a command line: `y` the `mischief` one, `Y` the `curl` one.
            let index = count - 1 - log.selected
            guard lines.indices.contains(index),
                let commands = ChangeCommands.lines(for: lines[index].event, socket: state.socketPath)
            else {
                state.message = .init("only an apply or a revert has a command line to copy")
                return []
            }
            return [.copy(curl ? commands.curl : commands.cli)]
        case .back where !log.showsDetail && !log.filter.text.isEmpty:
            log.filter = TextField()
            log.selected = 0
        case .back, .close, .open:
            if log.showsDetail {
                log.showsDetail = false
            } else if command == .open {
                log.showsDetail = count > 0
            } else {
                state.mode = .browse
                return []
            }
        case .filter:
            log.isFiltering = true
        case .wallClock:
            log.showsWallClock.toggle()
        case .move(let navigation) where log.showsDetail:
            // One event whole: up is the older one.
            if case .by(let delta) = navigation.movement(page: 1) {
                log.selected = delta < 0 ? min(log.selected + 1, max(0, count - 1)) : max(0, log.selected - 1)
            }
        case .move(let navigation):
            // Up goes towards older lines, so directions are reversed.
            let reversed: Movement =
                switch navigation.movement(page: state.size.rows - 4) {
                case .by(let delta): .by(-delta)
                case .first: .last
                case .last: .first
                }
            log.selected = reversed.applied(to: log.selected, limit: count - 1)
        case nil:
            break
        }
        state.mode = .eventLog(log)
        return []
    }
}
