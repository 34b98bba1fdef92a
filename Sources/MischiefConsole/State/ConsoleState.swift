import Mischief

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything the console remembers between frames, as a plain value.
///
/// Only ``Console/update(_:_:)`` changes it; ``Console/render(_:size:theme:)`` reads it. The latest
/// ``ConsoleData`` lives here too, because keys need it (which seam is next, what Space applies).
///
/// ```swift
/// var state = ConsoleState(size: ScreenSize(rows: 24, columns: 80))
/// for await update in controller.updates() { _ = Console.update(&state, .update(update)); break }  // everything
/// let commands = Console.update(&state, .key(.character(" ")))   // [.apply(seam: "clock.now", spec: "shift(1d)")]
/// terminal.draw(Console.render(state, size: state.size, theme: .standard))
/// ```
public struct ConsoleState: Sendable, Equatable {
    /// What the keys do now.
    public enum Mode: Sendable, Equatable {
        /// The main screen.
        case browse
        /// Typing the filter (keys go to ``ConsoleState/filter``).
        case filter
        /// The action picker is open.
        case picker(ActionPicker)
        /// Typing the name to save the current state under.
        case saveName(TextField)
        /// Typing how long the layers on a seam last (`T`): a duration such as `30s`, or `off`.
        case timeToLive(SeamID, TextField)
        /// Typing what the calls a pause holds on a seam return (`o`): a spec of the seam.
        case answer(SeamID, TextField)
        /// Asking whether to overwrite the file profile `name` would be saved to, which holds something else;
        /// `question` says what (`tokyo.yaml exists (2 profiles: Tokyo, Osaka)`).
        case confirmOverwrite(name: String, question: String)
        /// The key help, scrolled by this many lines.
        case help(scroll: Int)
        /// The event log: its selection, filter and whether an event is open whole.
        case eventLog(EventLog)
        /// The list of every profile (`p`), with this one (an index into the data's profiles) selected.
        case profileList(selected: Int)
        /// The command palette (`:`).
        case palette(CommandPalette)
    }

    /// A pane of the main screen that can have the focus.
    public enum Pane: Sendable, Equatable, CaseIterable {
        case list, detail, target
    }

    /// One line of the seam list.
    public enum ListLine: Sendable, Equatable {
        /// A category heading, with how many of its seams are listed.
        case category(String, count: Int)
        /// A seam: an index into the data's seams.
        case seam(Int)
    }

    /// A line for the status bar.
    public struct Message: Sendable, Equatable {
        /// What to say (only the first line is shown).
        public var text: String
        /// Whether it reports a failure.
        public var isError: Bool

        /// Creates a message.
        public init(_ text: String, isError: Bool = false) {
            self.text = text
            self.isError = isError
        }
    }

    /// The terminal's size as last reported; used for paging and scrolling.
    public internal(set) var size: ScreenSize
    /// The time zone the header shows times in.
    public var timeZone: TimeZone
    /// The latest data, or nil before the first arrives.
    public internal(set) var data: ConsoleData?
    /// What the keys do now.
    public internal(set) var mode: Mode = .browse
    /// The pane that arrow keys move in.
    public internal(set) var focus: Pane = .list
    /// The selected seam.
    public internal(set) var selection: SeamID?
    /// The filter; an empty text lists every seam.
    public internal(set) var filter = TextField()
    /// The seam list after filtering, grouped by category (categories in order of first appearance).
    public internal(set) var lines: [ListLine] = []
    /// The index in ``lines`` of the selected seam.
    public internal(set) var selectedLine: Int?
    /// The first list line shown.
    public internal(set) var listTop = 0
    /// How far the detail pane's actions and events are scrolled.
    public internal(set) var detailScroll = 0
    /// How far the target pane is scrolled.
    public internal(set) var targetScroll = 0
    /// The spec each seam last had, for Space to bring back (none after a behaviour built in code).
    public internal(set) var lastUsed: [SeamID: String] = [:]
    /// How many of the newest events the console keeps.
    public var eventLimit = 200
    /// The source the target gives this console's changes (``ConsoleController/source``): what in the data this
    /// console did, and what others did.
    public var source = "console"
    /// What this console had applied on a target that restarted (lost with the old process), oldest first, for
    /// `a` to apply again; empty otherwise.
    public internal(set) var lostLayers: [ConsoleCommand] = []
    /// How many commands that change the target this console has sent and not yet had answered: while there are
    /// any, a change seen may be one of them, and is not said to come from elsewhere.
    public internal(set) var commandsInFlight = 0
    /// The profiles this console switched on and has not switched off (a restarted target lost them).
    public internal(set) var switchedOn: Set<String> = []
    /// Call rates per seam.
    public internal(set) var rates: [SeamID: RateHistory] = [:]
    /// The status bar's message.
    public internal(set) var message: Message?
    /// Where changes to a seam go (`n`): the running test of a live test session this names (`#3`), or the whole
    /// process when nil.
    public internal(set) var testScope: String?
    /// Whether the tests pane hides the tests that ended (`H`).
    public internal(set) var hidesEndedTests = false
    /// Whether this console changed the target since its recording was last written (`W`): `q` then asks first.
    public internal(set) var hasUnsavedLayers = false
    /// Whether `q` has just said the session is not saved: the next `q` quits.
    var quitAsked = false
    /// Problems the console found itself (at start: broken theme or profile files), listed in the event log.
    public internal(set) var problems: [Event] = []
    /// The target's control socket, for the command lines the event log shows (nil in process: they name
    /// `$MISCHIEF_SOCKET`).
    public var socketPath: String?
    /// This console's changes, for `U` to undo and `Ctrl-R` to redo.
    public internal(set) var history = UndoHistory()
    /// Whether invisible characters in the target's text (bidirectional controls, zero-width spaces) are drawn as
    /// dim marks such as `⟨RLO⟩` (``InvisibleMarks``); `I` switches.
    public internal(set) var showsInvisibleMarks = true
    /// The names of the themes the driver has, for the palette's `theme NAME`.
    public var themeNames: [String] = []
    /// The specs this console applied, per seam, for ↑/↓ in the action picker (the driver loads and saves it).
    public var specHistory = SpecHistory()

    /// A console with no data yet.
    public init(size: ScreenSize = ScreenSize(rows: 24, columns: 80), timeZone: TimeZone = .current) {
        self.size = size
        self.timeZone = timeZone
    }

    /// The selected seam's row.
    public var selectedSeam: SeamSnapshot? {
        guard let selectedLine, let data, case .seam(let index) = lines[selectedLine] else {
            return nil
        }
        return data.seams[index]
    }

    /// The event log's events: the problems the console found, then the target's events.
    public var events: [Event] { problems + (data?.events ?? []) }

    /// Lists a problem found before the console started (a broken theme or profile file) in the event log, and
    /// shows it on the status line, or how many there are when there are several.
    mutating func noteProblem(_ text: String) {
        problems.append(Event(id: -1 - problems.count, time: .zero, kind: .problem, source: "start", message: text))
        let count = problems.count
        let status = count == 1 ? text : "\(count) problems at start (e lists them); the last: \(text)"
        message = Message(status, isError: true)
    }

    /// Whether the data shown is the last the console received from a target it has lost: shown dimmed, without
    /// rates, as last seen.
    public var isStale: Bool {
        guard case .lost = data?.connection else { return false }
        return true
    }

    /// The behaviour a seam has, for people; nil when it runs its original.
    public func behaviour(of seam: SeamSnapshot) -> String? {
        seam.behaviourText
    }

    /// The spec of a seam's behaviour; nil when it runs its original or a behaviour built in code.
    public func spec(of seam: SeamSnapshot) -> String? {
        seam.spec
    }

    /// How long until the target reverts the seam's layers by themselves (the soonest deadline among its active
    /// layers), as of the data's uptime; nil when none has a time to live.
    public func timeLeft(of seam: SeamSnapshot) -> Duration? {
        guard let uptime = data?.target.uptime else { return nil }
        let deadlines = seam.layers.filter { $0.status == .active }.compactMap(\.expiresAt)
        return deadlines.min().map { max(.zero, $0 - uptime) }
    }

    /// Whether keys go to a text field (filter, spec, profile name), so `q`, digits and `/` are text.
    public var isEditingText: Bool {
        switch mode {
        case .filter, .saveName, .timeToLive, .palette, .answer: true
        case .picker(let picker): picker.isEditing
        case .eventLog(let log): log.isFiltering
        case .browse, .help, .confirmOverwrite, .profileList: false
        }
    }
}
