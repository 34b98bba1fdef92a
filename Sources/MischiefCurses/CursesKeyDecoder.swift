import CNcurses
import MischiefConsole

/// Decodes the results of ncurses' `wget_wch` into ``Key``s; pure, so it is testable without a terminal.
///
/// ncurses decodes the sequences its terminfo entry (and ``CursesScreen``'s `define_key` calls) name into `KEY_*`
/// codes; every other character goes through a ``KeyInputDecoder``, which recognises the remaining common
/// encodings and swallows sequences it does not know whole, so their bytes never become keys.
public struct CursesKeyDecoder: Sendable {
    private var input = KeyInputDecoder()
    /// When the last lone ESC was given up on and became the Escape key.
    private var escapeGivenUpAt: ContinuousClock.Instant?
    /// When the last input inside a bracketed paste came (nil outside one).
    private var lastPasteInput: ContinuousClock.Instant?

    /// A decoder between keys.
    public init() {}

    /// Whether input read so far waits for more (a lone ESC, an unfinished sequence); see ``flush(emit:)``.
    public var isPending: Bool { input.isPending }

    /// Whether an escape sequence has begun and waits for its final byte.
    public var isInsideSequence: Bool { input.isInsideSequence }

    /// Whether a lone ESC was flushed as the Escape key and nothing came since; see
    /// ``KeyInputDecoder/hasGivenUpOnEscape``.
    public var hasGivenUpOnEscape: Bool { input.hasGivenUpOnEscape }

    /// Feeds one `wget_wch` result.
    ///
    /// - Parameters:
    ///   - status: the return value of `wget_wch`: `OK` for a character, `KEY_CODE_YES` for a function key code;
    ///     anything else (`ERR`) is ignored.
    ///   - code: the character or key code `wget_wch` stored.
    ///   - emit: called with each key decoded (``Key/resize`` at once, whatever is pending).
    public mutating func feed(status: Int32, code: UInt32, emit: (Key) -> Void) {
        defer { lastPasteInput = input.isInsidePaste ? .now : nil }
        switch status {
        case KEY_CODE_YES:
            let key = Self.decodeKeyCode(Int32(bitPattern: code))
            if key == .resize {
                emit(.resize)
            } else {
                input.feed(key: key, emit: emit)
            }
        case OK:
            input.feed(character: code, emit: emit)
        default:
            break
        }
    }

    /// ncurses returned its mouse key for an SGR report's `ESC [ <` but, with mouse reporting off, left the report's
    /// parameters to be read: they are swallowed; see ``KeyInputDecoder/continueMouseReport()``.
    public mutating func continueMouseReport() {
        input.continueMouseReport()
    }

    /// Says that no more input came in time: a lone ESC is the Escape key, an unfinished sequence is dropped, and
    /// after a given-up ESC `[` and `O` are keys again.
    public mutating func flush(at now: ContinuousClock.Instant = .now, emit: (Key) -> Void) {
        input.flush(emit: emit)
        escapeGivenUpAt = input.hasGivenUpOnEscape ? now : nil
    }

    /// Says that a read found nothing at `now`: a given-up ESC older than `wait` expires, and `[` and `O` are keys
    /// again. Only silence seen by a read ends it, never the time a reader took to come back: a reader held up
    /// (a loaded machine) finds the rest of a split sequence waiting, whose digits must not become keys.
    ///
    /// A bracketed paste whose end marker has not come after `wait` of silence is ended too: what was pasted is
    /// emitted as the paste, and what is typed afterwards is keys again.
    public mutating func nothingToRead(
        at now: ContinuousClock.Instant = .now, after wait: Duration, emit: (Key) -> Void = { _ in }
    ) {
        if input.isInsidePaste {
            let last = lastPasteInput ?? now
            if lastPasteInput == nil { lastPasteInput = now }
            guard last.duration(to: now) > wait else { return }
            input.flush(emit: emit)
            lastPasteInput = nil
            return
        }
        guard input.hasGivenUpOnEscape, let given = escapeGivenUpAt, given.duration(to: now) > wait else { return }
        input.flush { _ in }
        escapeGivenUpAt = nil
    }

    /// Whether a bracketed paste has begun and its end has not come; see ``KeyInputDecoder/isInsidePaste``.
    public var isInsidePaste: Bool { input.isInsidePaste }

    /// The keys of a run of `wget_wch` results, read as if no more input came after them; for tests.
    public static func keys(_ results: [(status: Int32, code: UInt32)]) -> [Key] {
        var decoder = CursesKeyDecoder()
        var keys: [Key] = []
        for result in results {
            decoder.feed(status: result.status, code: result.code) { keys.append($0) }
        }
        decoder.flush { keys.append($0) }
        return keys
    }

    /// Decodes an ncurses `KEY_*` code; `nil` for codes that have no ``Key``.
    ///
    /// `KEY_FIND` and `KEY_SELECT` are Home and End: xterm's terminfo names `ESC [ 1 ~` and `ESC [ 4 ~` so, and that
    /// is what tmux and screen send for Home and End.
    static func decodeKeyCode(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME, KEY_A1, KEY_FIND: return .home
        case KEY_END, KEY_C1, KEY_SELECT, KEY_LL: return .end
        case KEY_IC: return .insert
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_RESIZE: return .resize
        case (KEY_F0 + 1)...(KEY_F0 + 63): return .function(Int(code - KEY_F0))
        default: return nil
        }
    }

    /// ncurses' mouse masks (`NCURSES_MOUSE_VERSION` 2: five bits per button), which Swift cannot import as macros.
    enum MouseMask {
        static func button(_ button: UInt32, _ event: UInt32) -> UInt32 { event << ((button - 1) * 5) }
        static let click = button(1, 0o4)
        static let doubleClick = button(1, 0o10)
        static let wheelUp = button(4, 0o2)
        static let wheelDown = button(5, 0o2)
        /// What the console asks ncurses to report.
        static let wanted = click | doubleClick | wheelUp | wheelDown
    }

    /// The key of an ncurses mouse event (`getmouse`): `bstate` and the cell; nil for events the console ignores.
    static func mouseKey(x: Int32, y: Int32, state: UInt32) -> Key? {
        let action: Mouse.Action
        if state & MouseMask.doubleClick != 0 {
            action = .doubleClick
        } else if state & MouseMask.click != 0 {
            action = .click
        } else if state & MouseMask.wheelUp != 0 {
            action = .wheelUp
        } else if state & MouseMask.wheelDown != 0 {
            action = .wheelDown
        } else {
            return nil
        }
        return .mouse(Mouse(action, x: Int(x), y: Int(y)))
    }

    /// The ncurses code of a key that a sequence can stand for, to teach ncurses more sequences (`define_key`).
    static func keyCode(for key: Key) -> Int32? {
        switch key {
        case .up: KEY_UP
        case .down: KEY_DOWN
        case .left: KEY_LEFT
        case .right: KEY_RIGHT
        case .pageUp: KEY_PPAGE
        case .pageDown: KEY_NPAGE
        case .home: KEY_HOME
        case .end: KEY_END
        case .insert: KEY_IC
        case .delete: KEY_DC
        case .backTab: KEY_BTAB
        case .function(let n) where (1...63).contains(n): KEY_F0 + Int32(n)
        default: nil
        }
    }
}
