// A manual/automated smoke test for CursesTerminal: draws a bordered screen with wide and combining characters,
// colours by role, the size and the last key. Keys: q quits (exit 0), c crashes deliberately.
import Dispatch
import Glibc
import MischiefConsole
import MischiefCurses
import Synchronization

/// What the smoke screen shows.
struct SmokeState: Sendable {
    var width: Int
    var height: Int
    var lastKey = "none"
    var keyCount = 0
}

/// Renders the smoke screen.
func render(_ state: SmokeState) -> CellGrid {
    var grid = CellGrid(width: state.width, height: state.height, fill: .background)
    guard state.width >= 40, state.height >= 12 else {
        grid.put("too small: \(state.width)x\(state.height)", x: 0, y: 0, style: Style(.warning), maxWidth: state.width)
        return grid
    }
    grid.box(x: 0, y: 0, width: state.width, height: state.height, style: Style(.border), title: "Mischief smoke")
    let inner = state.width - 4
    var y = 2
    func line(_ text: String, _ role: StyleRole) {
        grid.put(text, x: 2, y: y, style: Style(role), maxWidth: inner)
        y += 1
    }
    line("size: \(state.width)x\(state.height)", .text)
    line("last key: \(state.lastKey) (#\(state.keyCount))", .active)
    line("wide:  [東京] emoji: [🌋] accent: [e\u{301}] <END", .text)
    line("ruler: [1234] emoji: [12] accent: [1] <END", .muted)
    y += 1
    var x = 2
    for role in StyleRole.allCases where role != .background {
        let used = grid.put(role.rawValue, x: x, y: y, style: Style(role), maxWidth: state.width - 2 - x)
        x += used + 1
        if x >= state.width - 2 { break }
    }
    y += 2
    line("q quits, c crashes deliberately", .muted)
    grid.put(" selected row ", x: 2, y: y, style: Style(.selection), maxWidth: inner)
    return grid
}

/// Why the smoke program ends.
enum Ending: Sendable {
    case quit
    case signal(TerminalSignal)
}

let terminal = CursesTerminal(palette: .standard)
let initial = terminal.size
let state = Mutex(SmokeState(width: initial.columns, height: initial.rows))
let ending = Mutex<Ending?>(nil)
let done = DispatchSemaphore(value: 0)

/// Records how the program ends and wakes the main thread (first ending wins).
@Sendable func finish(_ reason: Ending) {
    let first = ending.withLock { current -> Bool in
        guard current == nil else { return false }
        current = reason
        return true
    }
    if first {
        done.signal()
    }
}

/// Renders the current state and hands it to the terminal.
@Sendable func redraw() {
    terminal.draw(render(state.withLock { $0 }))
}

do {
    try terminal.start(
        onKey: { key in
            switch key {
            case .character("q"):
                finish(.quit)
            case .character("c"):
                fatalError("curses-smoke: deliberate crash")
            default:
                state.withLock {
                    $0.lastKey = "\(key)"
                    $0.keyCount += 1
                }
                redraw()
            }
        },
        onResize: { size in
            state.withLock {
                $0.width = size.columns
                $0.height = size.rows
            }
            redraw()
        },
        onSignal: { signal in finish(.signal(signal)) }
    )
} catch {
    var message = "curses-smoke: \(error)\n"
    _ = message.withUTF8 { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}
let size = terminal.size
state.withLock {
    $0.width = size.columns
    $0.height = size.rows
}
redraw()
done.wait()
terminal.stop()
switch ending.withLock({ $0 }) {
case .signal(let signal):
    print("curses-smoke: stopped by \(signal.rawValue), terminal restored")
    exit(signal.exitStatus)
default:
    print("curses-smoke: quit")
    exit(0)
}
