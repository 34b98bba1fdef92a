import Mischief

extension Console {
    /// A key in the event log: arrows choose a line, Enter opens it whole, `/` filters, Esc steps back.
    static func eventLogKey(_ key: Key, _ log: EventLog, in state: inout ConsoleState) -> [ConsoleCommand] {
        var log = log
        let lines = log.lines(of: state.events)
        let count = lines.count
        if !log.isFiltering, key == .character("y") || key == .character("Y") {
            // The selected change as a command line: `y` the `mischief` one, `Y` the `curl` one.
            let index = count - 1 - log.selected
            guard lines.indices.contains(index),
                let commands = ChangeCommands.lines(for: lines[index].event, socket: state.socketPath)
            else {
                state.message = .init("only an apply or a revert has a command line to copy")
                return []
            }
            return [.copy(key == .character("y") ? commands.cli : commands.curl)]
        }
        if log.isFiltering {
            switch key {
            case .enter:
                log.isFiltering = false
            case .escape:
                log.filter = TextField()
                log.isFiltering = false
            default:
                _ = log.filter.edit(key)
            }
            log.selected = 0
        } else if log.showsDetail {
            switch key {
            case .escape, .enter, .character("q"):
                log.showsDetail = false
            case .up, .character("k"):
                log.selected = min(log.selected + 1, max(0, count - 1))
            case .down, .character("j"):
                log.selected = max(0, log.selected - 1)
            default:
                break
            }
        } else {
            switch key {
            case .escape where !log.filter.text.isEmpty:
                log.filter = TextField()
                log.selected = 0
            case .escape, .character("e"), .character("q"):
                state.mode = .browse
                return []
            case .enter:
                log.showsDetail = count > 0
            case .character("/"):
                log.isFiltering = true
            case .character("w"):
                log.showsWallClock.toggle()
            default:
                // Up goes towards older lines, so directions are reversed.
                guard let movement = movement(for: key, page: state.size.rows - 4) else { break }
                let reversed: Movement =
                    switch movement {
                    case .by(let delta): .by(-delta)
                    case .first: .last
                    case .last: .first
                    }
                log.selected = reversed.applied(to: log.selected, limit: count - 1)
            }
        }
        state.mode = .eventLog(log)
        return []
    }
}
