import CMischiefTerminal
import CNcurses
import Glibc
import MischiefConsole

/// The ncurses session: every ncurses call goes through this type.
///
/// Not `Sendable`: an instance is created, used and closed on ``CursesTerminal``'s terminal thread only.
final class CursesScreen {
    /// The palette to draw roles with.
    private var palette: Palette
    /// The requested colour depth (`nil` = detect).
    private let requestedDepth: ColourDepth?
    /// The ncurses screen while open.
    private var screen: OpaquePointer?
    /// The standard window while open.
    private var window: UnsafeMutablePointer<WINDOW>?
    /// The role looks in use.
    private(set) var plan: CursesColourPlan?
    /// What is on the screen now (`nil` = unknown; the next frame is drawn in full).
    private var shown: CellGrid?
    /// The latest frame drawn, redrawn after a resize.
    private var latest: CellGrid?
    /// Keys read so far that wait for more (a lone ESC, an unfinished escape sequence).
    private var keys = CursesKeyDecoder()

    /// How long to wait for the rest of an escape sequence, in milliseconds, before a lone ESC is the Escape key
    /// and an unfinished sequence is dropped (on top of ncurses' own `ESCDELAY` after an ESC).
    static let sequenceWait: Int32 = 30

    /// How long to wait for the rest of a sequence that has begun (`ESC [` read), in milliseconds. A terminal sends a
    /// sequence in one write; only a loaded machine splits one, and a tail read after giving up would become keys
    /// (the digits of a mouse report switching presets). Nobody types `ESC [` by hand, so waiting costs nothing.
    static let sequenceRestWait: Int32 = 1000

    /// Whether clicks and the wheel are reported (ncurses turns the terminal's mouse reporting on and off).
    private let mouse: Bool
    /// Whether the terminfo's mouse key (`kmous`) is the prefix of an SGR report, `ESC [ <`.
    private var mouseKeyIsSGR = false

    /// Creates a closed screen.
    init(palette: Palette, depth: ColourDepth?, mouse: Bool = true) {
        self.palette = palette
        requestedDepth = depth
        self.mouse = mouse
    }

    /// Whether the screen is open.
    var isOpen: Bool { screen != nil }

    /// The current size in rows and columns.
    var size: ScreenSize {
        guard let window else { return ScreenSize(rows: 0, columns: 0) }
        return ScreenSize(rows: Int(getmaxy(window)), columns: Int(getmaxx(window)))
    }

    /// Takes over the terminal: installs crash and signal handlers, creates the ncurses screen, sets up modes.
    func open(wakeFD: Int32) throws {
        setlocale(LC_ALL, "")
        guard let term = getenv("TERM").map({ String(cString: $0) }), !term.isEmpty else {
            throw CursesTerminalError.missingTerm
        }
        if mischief_terminal_crash_install(STDOUT_FILENO) != 0 {
            throw CursesTerminalError.system(call: "sigaction (crash handlers)", errno: errno)
        }
        // Installed before newterm so ncurses does not install its own exit-on-SIGINT/SIGTERM handlers.
        if mischief_terminal_signals_install(wakeFD) != 0 {
            let error = errno
            mischief_terminal_crash_uninstall()
            throw CursesTerminalError.system(call: "sigaction (signal handlers)", errno: error)
        }
        set_escdelay(25)
        guard let screen = newterm(nil, cn_stdout(), cn_stdin()) else {
            mischief_terminal_signals_uninstall()
            mischief_terminal_crash_uninstall()
            throw CursesTerminalError.unknownTerm(term)
        }
        self.screen = screen
        // Installed after newterm so it chains to ncurses' SIGWINCH handler (which makes wget_wch see KEY_RESIZE).
        _ = mischief_terminal_winch_install()
        let window = cn_stdscr()
        self.window = window
        raw()
        noecho()
        nonl()
        keypad(window, true)
        if let kmous = tigetstr("kmous"), Int(bitPattern: kmous) != -1 {
            mouseKeyIsSGR = String(cString: kmous) == "\u{1B}[<"
        }
        // Home, End, F-keys … in the encodings the terminfo entry does not name (tmux sends ESC [ 1 ~ for Home under
        // TERM=xterm-256color). Sequences ncurses still does not know are read by `keys`, which swallows them whole.
        for (sequence, key) in KeyInputDecoder.knownSequences {
            if let code = CursesKeyDecoder.keyCode(for: key) {
                _ = define_key(sequence, code)
            }
        }
        keys = CursesKeyDecoder()
        if mouse {
            _ = mousemask(mmask_t(CursesKeyDecoder.MouseMask.wanted), nil)
        }
        wtimeout(window, 0)
        typeahead(-1)
        leaveok(window, true)
        curs_set(0)
        set_escdelay(25)
        setUpColours()
        werase(window)
        wnoutrefresh(window)
        doupdate()
        setBracketedPaste(true)
    }

    /// Asks the terminal to mark pastes (`ESC [ ? 2004 h`), so a paste arrives as text between `ESC [ 200 ~` and
    /// `ESC [ 201 ~` (``Key/paste(_:)``), never as keys; `false` stops it (`ESC [ ? 2004 l`). A terminal that does
    /// not know the mode ignores it, and pastes arrive as typed keys, as before. The crash and exit handlers of
    /// `CMischiefTerminal` turn it off too.
    func setBracketedPaste(_ on: Bool) {
        send(Array((on ? "\u{1B}[?2004h" : "\u{1B}[?2004l").utf8))
    }

    /// Restores the terminal: ends ncurses, restores the original termios and the previous signal handlers.
    ///
    /// Idempotent.
    func close() {
        guard let screen else { return }
        mischief_terminal_signals_uninstall()
        setBracketedPaste(false)
        curs_set(1)
        endwin()
        delscreen(screen)
        self.screen = nil
        window = nil
        shown = nil
        latest = nil
        mischief_terminal_restore_termios()
        mischief_terminal_crash_uninstall()
    }

    /// Reads every available key; calls `body` for each and stops early if it returns `false`.
    ///
    /// Does not block, except when what was read ends in a lone ESC or an unfinished escape sequence: then it waits
    /// up to ``sequenceWait`` ms for the rest before deciding. Until a read has found nothing for ``sequenceRestWait``
    /// ms after a lone ESC became the Escape key, a `[` or `O` read next still begins a sequence (the tail of one
    /// split after its ESC).
    func readKeys(_ body: (Key) -> Bool) {
        var going = true
        func deliver(_ key: Key) {
            guard going else { return }
            if key == .resize {
                handleResize()
            }
            going = body(key)
        }
        while going, isOpen, let window {
            var code: wint_t = 0
            var status = wget_wch(window, &code)
            if status == ERR {
                guard keys.isPending else {
                    keys.nothingToRead(after: .milliseconds(Self.sequenceRestWait), emit: deliver)
                    return
                }
                wtimeout(window, keys.isInsideSequence ? Self.sequenceRestWait : Self.sequenceWait)
                status = wget_wch(window, &code)
                wtimeout(window, 0)
                if status == ERR {
                    keys.flush(emit: deliver)
                    return
                }
            }
            if status == KEY_CODE_YES, Int32(bitPattern: code) == KEY_MOUSE {
                // Without mousemask ncurses reads only the terminfo's `kmous` prefix (`ESC [ <` under xterm): the
                // report's parameters would be typed as keys, its row and column digits switching presets.
                guard mouse else {
                    if mouseKeyIsSGR { keys.continueMouseReport() }
                    continue
                }
                var event = MEVENT()
                if getmouse(&event) == OK,
                    let key = CursesKeyDecoder.mouseKey(x: event.x, y: event.y, state: UInt32(event.bstate))
                {
                    deliver(key)
                }
                continue
            }
            keys.feed(status: status, code: code, emit: deliver)
        }
    }

    /// Checks the tty's size against ncurses' and resizes if they differ (for when no KEY_RESIZE arrived).
    ///
    /// - Returns: whether the size changed.
    func syncSize() -> Bool {
        var columns: Int32 = 0
        var rows: Int32 = 0
        guard isOpen, mischief_terminal_window_size(STDOUT_FILENO, &columns, &rows) == 0, columns > 0, rows > 0
        else { return false }
        guard size != ScreenSize(rows: Int(rows), columns: Int(columns)) else { return false }
        resize_term(rows, columns)
        handleResize()
        return true
    }

    /// Draws roles with `palette` from now on and redraws the latest frame in full.
    func setPalette(_ palette: Palette) {
        guard palette != self.palette else { return }
        self.palette = palette
        guard window != nil, plan != nil else { return }
        setUpColours()
        handleResize()
    }

    /// Forgets what is on screen and redraws the latest frame in full (clipped to the new size).
    func handleResize() {
        shown = nil
        guard let window else { return }
        clearok(window, true)
        if let latest {
            draw(latest)
        }
    }

    /// Draws `grid`, touching only cells that differ from what is on screen.
    func draw(_ grid: CellGrid) {
        guard let window, let plan else { return }
        latest = grid
        let visible = size
        let width = min(grid.width, visible.columns)
        let height = min(grid.height, visible.rows)
        var previous = shown
        if previous.map({ $0.width != grid.width || $0.height != grid.height }) ?? true {
            previous = nil
            applyBackground(plan)
            werase(window)
        }
        for y in 0..<height {
            var x = 0
            while x < width {
                let cell = grid[x, y]
                let changed: Bool
                if let previous {
                    changed =
                        previous[x, y] != cell
                        || (x + 1 < grid.width && previous[x + 1, y] != grid[x + 1, y]
                            && grid[x + 1, y].isContinuation)
                } else {
                    changed = true
                }
                if changed {
                    x += put(cell, x: x, y: y, visibleWidth: width, plan: plan, window: window)
                } else {
                    x += 1
                }
            }
        }
        shown = grid
        wnoutrefresh(window)
        doupdate()
    }

    /// Writes one cell (see ``CursesCellText``); returns the grid columns it covered.
    private func put(
        _ cell: Cell, x: Int, y: Int, visibleWidth: Int, plan: CursesColourPlan, window: UnsafeMutablePointer<WINDOW>
    ) -> Int {
        let look = plan.looks[cell.style.role]!
        var attributes = cn_a_normal()
        if look.bold || cell.style.bold { attributes |= cn_a_bold() }
        if look.reverse != cell.style.reverse { attributes |= cn_a_reverse() }
        if look.dim { attributes |= cn_a_dim() }
        let write = CursesCellText.write(for: cell, x: x, visibleWidth: visibleWidth)
        write.withTerminatedCharacters { put($0, x: x, y: y, attributes: attributes, pair: look.pair, window: window) }
        if write.padded {
            // The C library thinks this grapheme is narrow: pad so the columns still line up.
            CursesCellText.Write(CursesCellText.space, width: 1).withTerminatedCharacters {
                put($0, x: x + 1, y: y, attributes: attributes, pair: look.pair, window: window)
            }
        }
        return write.columns
    }

    /// Writes NUL-terminated characters (a base character plus combining characters) at (x, y).
    private func put(
        _ characters: UnsafePointer<wchar_t>, x: Int, y: Int, attributes: attr_t, pair: Int32,
        window: UnsafeMutablePointer<WINDOW>
    ) {
        var cell = cchar_t()
        var pairNumber = pair
        setcchar(&cell, characters, attributes, Int16(truncatingIfNeeded: pair), &pairNumber)
        // Writing the bottom-right cell returns ERR (the cursor cannot advance) but still draws it.
        _ = mvwadd_wch(window, Int32(y), Int32(x), &cell)
    }

    /// Sets up colour pairs for the palette at the detected or requested depth.
    private func setUpColours() {
        let colorTerm = getenv("COLORTERM").map { String(cString: $0) }
        var hasColours = has_colors()
        var defaultColours = false
        if hasColours {
            hasColours = start_color() == OK
            defaultColours = hasColours && use_default_colors() == OK
        }
        let colours = hasColours ? Int(cn_colors()) : 0
        let detected = CursesColourPlan.detectedDepth(hasColours: hasColours, colours: colours, colorTerm: colorTerm)
        let capability = CursesColourPlan.capability(hasColours: hasColours, colours: colours)
        var depth = CursesColourPlan.shallower(requestedDepth ?? detected, capability)
        if depth != .monochrome && Int(cn_color_pairs()) <= StyleRole.allCases.count {
            depth = .monochrome
        }
        let plan = CursesColourPlan(
            palette: palette, depth: depth, directColour: capability == .trueColour, defaultColours: defaultColours
        )
        if depth != .monochrome {
            for look in plan.looks.values {
                init_extended_pair(look.pair, look.foreground, look.background)
            }
        }
        self.plan = plan
    }

    /// Makes erased areas use the background role's colours.
    private func applyBackground(_ plan: CursesColourPlan) {
        guard let window, let look = plan.looks[.background] else { return }
        var blank = cchar_t()
        var pairNumber = look.pair
        let space: [wchar_t] = [0x20, 0]
        _ = space.withUnsafeBufferPointer { buffer in
            setcchar(&blank, buffer.baseAddress, cn_a_normal(), Int16(truncatingIfNeeded: look.pair), &pairNumber)
        }
        wbkgrndset(window, &blank)
    }
}
