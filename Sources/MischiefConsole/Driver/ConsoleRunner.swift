import Foundation
import Mischief
import Synchronization

/// Runs the console: feeds keys, resizes, the controller's updates and command results to
/// ``Console/update(_:_:)``, runs the commands it returns against a ``ConsoleController``, and draws
/// ``Console/render(_:size:theme:)`` on a ``Terminal`` whenever the picture changed.
///
/// The terminal owns its own thread for every terminal call and its input loop; this loop only computes. Data comes
/// one way: the controller's ``ConsoleController/updates()``, deltas stamped with the registry generation they bring
/// the console to. Commands run off the key path, one after another: keys, resizes and `q` are handled at once while
/// a command waits for its target (the header says `waiting for the target`), even a stopped one. A command answers
/// with the generation that shows its effect; its result is shown once the console's data has reached that
/// generation, so the status line never says what the rows do not show yet. A key that would change the target
/// waits until the commands before it are shown (and the keys after it wait behind it, in order), so a key pressed
/// twice quickly builds on what the first one did. The controller yields that delta before it answers, so nothing
/// waits on a timer. A frame is drawn only when it differs from the
/// last one: an idle console draws when a second it shows turns.
///
/// ```swift
/// let runner = ConsoleRunner(terminal: CursesTerminal(palette: theme.palette), controller: controller,
///                            themes: [theme, .mono]) { terminal.palette = $0.palette }
/// switch try await runner.run() {
/// case .quit: break
/// case .signal(let signal): exit(signal.exitStatus)
/// }
/// ```
public final class ConsoleRunner: Sendable {
    /// Why the console ended.
    public enum Exit: Sendable, Equatable {
        /// The user quit (`q`, Ctrl-C as a key).
        case quit
        /// A termination signal arrived.
        case signal(TerminalSignal)
    }

    private enum Input: Sendable {
        case event(ConsoleEvent)
        case update(ConsoleUpdate)
        case signal(TerminalSignal)
        /// A command sent to the controller has answered, with the generation that shows it.
        case answered(ConsoleCommand, CommandResult, generation: UInt64)
    }

    /// Commands sent and not answered, command results waiting for the data that shows them, and the keys that
    /// wait their turn behind them.
    private struct Waiting {
        var sent = 0
        var results: [(generation: UInt64, event: ConsoleEvent)] = []
        var keys: [ConsoleEvent] = []
        /// Commands that change the target, to send once the one in flight has answered (in order).
        var send: (ConsoleCommand) -> Void = { _ in }

        /// Whether a key that changes the target must wait: an earlier command has not answered or been shown yet,
        /// or keys already wait (they keep their order).
        var holdsChanges: Bool { sent > 0 || !results.isEmpty || !keys.isEmpty }
    }

    private let terminal: any Terminal
    private let controller: any ConsoleController
    private let themes: [Theme]
    private let applyTheme: @Sendable (Theme) -> Void
    private let messages: [String]
    private let historyFile: URL?

    /// A runner for `controller` on `terminal`.
    ///
    /// - Parameters:
    ///   - themes: The themes `t` cycles through; the first is in use at the start.
    ///   - messages: Lines to show in the status line at the start (problems found in theme or profile files).
    ///   - historyFile: Where the specs applied before are kept across runs (``SpecHistoryFile/url(environment:)``);
    ///     nil keeps them for this run only.
    ///   - applyTheme: Switches the terminal's colours to a theme.
    public init(
        terminal: any Terminal, controller: any ConsoleController, themes: [Theme] = [.default],
        messages: [String] = [], historyFile: URL? = nil, applyTheme: @escaping @Sendable (Theme) -> Void = { _ in }
    ) {
        precondition(!themes.isEmpty, "the console needs at least one theme")
        self.terminal = terminal
        self.controller = controller
        self.themes = themes
        self.messages = messages
        self.historyFile = historyFile
        self.applyTheme = applyTheme
    }

    /// Takes over the terminal and runs until the user quits or a signal arrives; the terminal is restored on
    /// return, including when the controller throws.
    ///
    /// - Throws: The terminal's error when it cannot start (no terminal, too dumb a terminal).
    public func run() async throws -> Exit {
        let (inputs, feed) = AsyncStream<Input>.makeStream()
        try terminal.start(
            onKey: { feed.yield(.event(.key($0))) },
            onResize: { size in feed.yield(.event(.resized(size))) },
            onSignal: { feed.yield(.signal($0)) })
        defer { terminal.stop() }
        let updates = controller.updates()
        let follower = Task {
            for await update in updates { feed.yield(.update(update)) }
        }
        // Commands run here, one after another, off the key path: a target that does not answer (stopped, far away)
        // holds its commands, never the keys, the resizes or `q`. Each answer comes back as an input.
        let (commands, send) = AsyncStream<ConsoleCommand>.makeStream()
        let controller = self.controller
        let sender = Task {
            for await command in commands {
                let (result, generation) = await command.perform(with: controller) ?? (.success(nil), 0)
                feed.yield(.answered(command, result, generation: generation))
            }
        }
        defer {
            follower.cancel()
            sender.cancel()
            send.finish()
            feed.finish()
        }

        var state = ConsoleState(size: terminal.size)
        state.source = controller.source
        state.themeNames = themes.map(\.name)
        state.socketPath = controller.socketPath
        var themeIndex = 0
        var lastGrid: CellGrid?
        var waiting = Waiting()
        waiting.send = { send.yield($0) }
        var startMessages = messages
        if let historyFile {
            let (history, problem) = SpecHistoryFile.load(from: historyFile)
            state.specHistory = history
            if let problem { startMessages.append(problem) }
        }
        var savedHistory = state.specHistory
        defer { saveHistory(state.specHistory, unless: savedHistory) }
        for message in startMessages {
            if let exit = await handle(.message(message), &state, &themeIndex, &waiting) { return exit }
        }
        for await input in inputs {
            defer {
                if state.specHistory != savedHistory {
                    saveHistory(state.specHistory, unless: savedHistory)
                    savedHistory = state.specHistory
                }
            }
            switch input {
            case .signal(let signal):
                return .signal(signal)
            case .update(let update):
                // Attached, the target names this console's changes after its session, which a reset may renew.
                if case .reset = update { state.source = controller.source }
                _ = Console.update(&state, .update(update))
                // After a reset or a loss nothing more comes from where the results were waiting: show them now.
                let everything: Bool = if case .delta = update { false } else { true }
                if let exit = await release(everything: everything, &state, &themeIndex, &waiting) { return exit }
            case .answered(let command, let result, let generation):
                waiting.sent -= 1
                let finished = ConsoleEvent.commandFinished(command, result)
                if generation > state.data?.generation ?? 0 {
                    waiting.results.append((generation, finished))
                } else if let exit = await handle(finished, &state, &themeIndex, &waiting) {
                    return exit
                }
                if let exit = await release(everything: false, &state, &themeIndex, &waiting) { return exit }
            case .event(let event):
                if case .key = event, waiting.holdsChanges, Self.changesTarget(event, in: state) {
                    // It builds on what the commands before it did: it waits until they are shown.
                    waiting.keys.append(event)
                } else if case .key = event, !waiting.keys.isEmpty, !Self.leaves(event, in: state) {
                    waiting.keys.append(event)  // behind a waiting change, in order (`q` never waits)
                } else if let exit = await handle(event, &state, &themeIndex, &waiting) {
                    return exit
                }
            }
            let theme = themes[themeIndex]
            let grid = Console.render(
                state, size: state.size, theme: ThemeInfo(name: theme.name, isMonochrome: theme.isMonochrome))
            if grid != lastGrid {
                terminal.draw(grid)
                lastGrid = grid
            }
        }
        return .quit
    }

    /// How long from `now` until wall-clock time is next a whole multiple of `period` (a full period when it is one
    /// already): the periodic loads fall on those instants, so a period that divides a second has one fall on every
    /// second's turn.
    static func delay(after now: Date, toNextMultipleOf period: Duration) -> Duration {
        RealClock.delay(after: now, toNextMultipleOf: period)
    }

    /// Shows the results whose data has arrived, then handles the keys typed while they waited, until one of them
    /// runs a command whose data is still to come.
    private func release(
        everything: Bool, _ state: inout ConsoleState, _ themeIndex: inout Int, _ waiting: inout Waiting
    ) async -> Exit? {
        let reached = everything ? .max : state.data?.generation ?? 0
        let ready = waiting.results.filter { $0.generation <= reached }
        waiting.results.removeAll { $0.generation <= reached }
        for result in ready {
            if let exit = await handle(result.event, &state, &themeIndex, &waiting) { return exit }
        }
        while waiting.sent == 0, waiting.results.isEmpty, !waiting.keys.isEmpty {
            if let exit = await handle(waiting.keys.removeFirst(), &state, &themeIndex, &waiting) { return exit }
        }
        return nil
    }

    /// Whether `key` may send the target a change: a main-screen key bound to one (what it does depends on the data,
    /// which an earlier change has not reached yet), or a key that would send one as the console is now (worked out
    /// on a copy).
    private static func changesTarget(_ key: ConsoleEvent, in state: ConsoleState) -> Bool {
        if state.mode == .browse, case .key(let key) = key, KeyBindings.browse[key]?.actsOnTarget == true {
            return true
        }
        var copy = state
        return Console.update(&copy, key).contains(where: \.changesTarget)
    }

    /// Whether `key` ends the console (`q`, or the `q` that confirms), as the console is now: it never waits.
    private static func leaves(_ key: ConsoleEvent, in state: ConsoleState) -> Bool {
        var copy = state
        return Console.update(&copy, key).contains(.quit)
    }

    /// Applies `event` and the results of the commands it causes; an exit ends the console. A result whose data
    /// has not arrived yet waits for it in `waiting`.
    private func handle(
        _ event: ConsoleEvent, _ state: inout ConsoleState, _ themeIndex: inout Int, _ waiting: inout Waiting
    ) async -> Exit? {
        var pending = [event]
        while !pending.isEmpty {
            for command in Console.update(&state, pending.removeFirst()) {
                switch command {
                case .quit:
                    return .quit
                case .selectTheme(let name):
                    themeIndex = themes.firstIndex { $0.name == name } ?? themeIndex
                    applyTheme(themes[themeIndex])
                    pending.append(.commandFinished(command, .success(themes[themeIndex].name)))
                case .cycleTheme:
                    themeIndex = (themeIndex + 1) % themes.count
                    applyTheme(themes[themeIndex])
                    pending.append(.commandFinished(command, .success(themes[themeIndex].name)))
                case .copy(let text):
                    terminal.copyToClipboard(text)
                    pending.append(.commandFinished(command, .success(nil)))
                default:
                    waiting.sent += 1
                    waiting.send(command)
                }
            }
        }
        return nil
    }

    /// Writes the spec history when it changed; a failure to write loses only the history, silently (the console
    /// works the same without it).
    private func saveHistory(_ history: SpecHistory, unless saved: SpecHistory) {
        guard let historyFile, history != saved else { return }
        try? SpecHistoryFile.save(history, to: historyFile)
    }
}
