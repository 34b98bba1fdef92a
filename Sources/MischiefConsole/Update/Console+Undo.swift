import Mischief

/// `U` undoes the last change this console made, again and again as far back as its session goes; `Ctrl-R` redoes
/// (see ``UndoHistory``).
extension Console {
    /// Handles a key, noting the changes it asks for so they can be undone (not those undo and redo send).
    static func noting(_ key: Key, in state: inout ConsoleState) -> [ConsoleCommand] {
        let data = state.data
        let isBrowsing = state.mode == .browse
        // While changes go to a test's scope (`n`), a change to a seam goes there, and is not this console's to undo.
        let commands = handle(key, in: &state).map { $0.inTests(state.testScope) }
        if isBrowsing, let command = KeyBindings.browse[key], command == .undo || command == .redo { return commands }
        if case .typed = key { return commands }  // each character went through here already
        for command in commands { state.history.note(command, data: data, source: state.source) }
        return commands
    }

    /// `U`: undoes the last change this console made.
    static func undo(in state: inout ConsoleState) -> [ConsoleCommand] {
        step(
            from: \.done, to: \.undone, reaching: \.undo, in: &state,
            said: { "undid \($0)" + ($1 ? " (already so)" : "") + "; Ctrl-R redoes" },
            none: "nothing to undo: this console has made no change (or undid them all)")
    }

    /// `Ctrl-R`: redoes the last change undone.
    static func redo(in state: inout ConsoleState) -> [ConsoleCommand] {
        step(
            from: \.undone, to: \.done, reaching: \.redo, in: &state,
            said: { "redid \($0)" + ($1 ? " (already so)" : "") },
            none: "nothing to redo: U undoes this console's changes, Ctrl-R does them again")
    }

    /// Moves the last step of one list to the other and sends what reaches its `target`; `said` gets the step's label
    /// and whether nothing had to be sent.
    private static func step(
        from source: WritableKeyPath<UndoHistory, [UndoHistory.Step]>,
        to destination: WritableKeyPath<UndoHistory, [UndoHistory.Step]>,
        reaching target: KeyPath<UndoHistory.Step, UndoHistory.Target>, in state: inout ConsoleState,
        said: (String, Bool) -> String, none: String
    ) -> [ConsoleCommand] {
        guard let step = state.history[keyPath: source].popLast() else {
            state.message = .init(none)
            return []
        }
        state.history[keyPath: destination].append(step)
        let commands = UndoHistory.commands(reaching: step[keyPath: target], data: state.data, source: state.source)
        state.message = .init(said(step.label, commands.isEmpty))
        state.history.echo = (commands, state.message!.text)
        return commands
    }
}
