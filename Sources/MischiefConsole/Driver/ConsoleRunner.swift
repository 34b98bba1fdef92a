import Foundation
import Mischief
import Synchronization

/// Runs the console: feeds keys, resizes, fresh data and command results to ``Console/update(_:_:)``, runs the
/// commands it returns against a ``ConsoleController``, and draws ``Console/render(_:size:theme:)`` on a
/// ``Terminal`` whenever the picture changed.
///
/// The terminal owns its own thread for every terminal call and its input loop; this loop only computes.
/// Data is reloaded every `refresh` (and at once after each command), and a frame is drawn only when it differs
/// from the last one, so an idle console costs a load and a render every `refresh` and nothing else. The reloads
/// fall on whole multiples of `refresh` in wall-clock time, so the seconds the console shows turn when the wall
/// clock's do, and the rate never drifts however long a load takes. Loads are numbered as
/// they start and only a newer one replaces the data: a periodic load that began before a command and ends after
/// it never puts back the state the command changed.
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
        /// Data from the periodic load numbered `load`.
        case data(ConsoleData, load: Int)
        case signal(TerminalSignal)
    }

    /// Numbers loads in the order they start.
    private final class LoadNumbers: Sendable {
        private let last = Mutex(0)

        func next() -> Int {
            last.withLock {
                $0 += 1
                return $0
            }
        }
    }

    /// The number of the load whose data the console shows, and the numbers the next loads get.
    private struct Loads {
        let numbers = LoadNumbers()
        var shown = 0

        /// Whether the data of load `number` is newer than what is shown; if so, it is shown from now on.
        mutating func show(_ number: Int) -> Bool {
            guard number > shown else { return false }
            shown = number
            return true
        }
    }

    private let terminal: any Terminal
    private let controller: any ConsoleController
    private let themes: [Theme]
    private let applyTheme: @Sendable (Theme) -> Void
    private let refresh: Duration
    private let messages: [String]

    /// A runner for `controller` on `terminal`.
    ///
    /// - Parameters:
    ///   - themes: The themes `t` cycles through; the first is in use at the start.
    ///   - messages: Lines to show in the status line at the start (problems found in theme or profile files).
    ///   - refresh: How often data is reloaded while nothing is pressed; longer than zero. Four times a second by default: enough for
    ///     the seconds shown (which turn on time, see above) and for counts to look live, at a fraction of a
    ///     core's percent (`Benchmarks/run.sh` measures it in tmux).
    ///   - applyTheme: Switches the terminal's colours to a theme.
    public init(
        terminal: any Terminal, controller: any ConsoleController, themes: [Theme] = [.default],
        messages: [String] = [], refresh: Duration = .milliseconds(250),
        applyTheme: @escaping @Sendable (Theme) -> Void = { _ in }
    ) {
        precondition(!themes.isEmpty, "the console needs at least one theme")
        precondition(refresh > .zero, "the console's refresh must be longer than zero, not \(refresh)")
        self.terminal = terminal
        self.controller = controller
        self.themes = themes
        self.messages = messages
        self.refresh = refresh
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
        let controller = self.controller
        let refresh = self.refresh
        var loads = Loads()
        let numbers = loads.numbers
        let ticker = Task {
            while !Task.isCancelled {
                let number = numbers.next()
                if let data = try? await controller.load() { feed.yield(.data(data, load: number)) }
                try? await Task.sleep(for: Self.delay(after: Date(), toNextMultipleOf: refresh))
            }
        }
        defer {
            ticker.cancel()
            feed.finish()
        }

        var state = ConsoleState(size: terminal.size)
        var themeIndex = 0
        var lastGrid: CellGrid?
        for message in messages {
            if let exit = await handle(.message(message), &state, &themeIndex, &loads) { return exit }
        }
        for await input in inputs {
            switch input {
            case .signal(let signal):
                return .signal(signal)
            case .data(let data, let number):
                if loads.show(number) { _ = Console.update(&state, .data(data)) }
            case .event(let event):
                if let exit = await handle(event, &state, &themeIndex, &loads) { return exit }
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
        let seconds = Double(period.components.seconds) + Double(period.components.attoseconds) * 1e-18
        guard seconds > 0 else { return .zero }
        var into = now.timeIntervalSince1970.truncatingRemainder(dividingBy: seconds)
        if into < 0 { into += seconds }  // before 1970
        return .seconds(seconds - into)
    }

    /// Applies `event` and the results of the commands it causes; an exit ends the console.
    private func handle(
        _ event: ConsoleEvent, _ state: inout ConsoleState, _ themeIndex: inout Int, _ loads: inout Loads
    ) async -> Exit? {
        var pending = [event]
        var changed = false
        while !pending.isEmpty {
            for command in Console.update(&state, pending.removeFirst()) {
                switch command {
                case .quit:
                    return .quit
                case .cycleTheme:
                    themeIndex = (themeIndex + 1) % themes.count
                    applyTheme(themes[themeIndex])
                    pending.append(.commandFinished(command, .success(themes[themeIndex].name)))
                case .copy(let text):
                    terminal.copyToClipboard(text)
                    pending.append(.commandFinished(command, .success(nil)))
                default:
                    let result = await command.perform(with: controller) ?? .success(nil)
                    pending.append(.commandFinished(command, result))
                    changed = true
                }
            }
        }
        if changed {
            let number = loads.numbers.next()
            if let data = try? await controller.load(), loads.show(number) { _ = Console.update(&state, .data(data)) }
        }
        return nil
    }
}
