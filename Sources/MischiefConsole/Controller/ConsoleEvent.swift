/// Something that happened to the console: the input of ``Console/update(_:_:)``.
public enum ConsoleEvent: Sendable, Equatable {
    /// A key was pressed.
    case key(Key)
    /// The controller said what changed (see ``ConsoleController/updates()``).
    case update(ConsoleUpdate)
    /// The terminal now has this size.
    case resized(ScreenSize)
    /// A command returned by an earlier update has finished.
    case commandFinished(ConsoleCommand, CommandResult)
    /// A problem found before the console started, such as a broken theme or profile file: it is listed in the
    /// event log and shown on the status line.
    case message(String)
}
