import Mischief

/// `U` undoes the last change this console made, again and again as far back as its session goes; `Ctrl-R` redoes
/// (see ``UndoHistory``).
extension Console {
    /// Handles a key, noting the changes it asks for so they can be undone (not those undo and redo send).
    static func noting(_ key: Key, in state: inout ConsoleState) -> [ConsoleCommand] {
        let data = state.data
        let isBrowsing = state.mode == .browse
        let commands = handle(key, in: &state)
        if isBrowsing, let command = KeyBindings.browse[key], command == .undo || command == .redo { return commands }
        if case .typed = key { return commands }  // each character went through here already
        for command in commands { state.history.note(command, data: data, source: state.source) }
        return commands
    }

    /// `U`: undoes the last change this console made.
    static func undo(in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let step = state.history.done.popLast() else {
            state.message = .init("nothing to undo: this console has made no change (or undid them all)")
            return []
        }
        state.history.undone.append(step)
        let commands = UndoHistory.commands(reaching: step.undo, data: state.data, source: state.source)
        state.message = .init("undid \(step.label)" + (commands.isEmpty ? " (already so)" : "") + "; Ctrl-R redoes")
        state.history.echo = (commands, state.message!.text)
        return commands
    }

    /// `Ctrl-R`: redoes the last change undone.
    static func redo(in state: inout ConsoleState) -> [ConsoleCommand] {
        guard let step = state.history.undone.popLast() else {
            state.message = .init("nothing to redo: U undoes this console's changes, Ctrl-R does them again")
            return []
        }
        state.history.done.append(step)
        let commands = UndoHistory.commands(reaching: step.redo, data: state.data, source: state.source)
        state.message = .init("redid \(step.label)" + (commands.isEmpty ? " (already so)" : ""))
        state.history.echo = (commands, state.message!.text)
        return commands
    }
}
