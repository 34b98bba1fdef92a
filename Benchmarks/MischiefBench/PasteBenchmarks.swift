import Mischief
import MischiefConsole

/// What a paste costs the console (issue 27, item 10): one update and one frame at 120×40 for a 100 KB bracketed
/// paste and for a 100 KB run of characters read together (a terminal without bracketed paste), into the filter and
/// the spec editor; and, for comparison, characters taken one key and one frame each, as every paste was before.
///
/// `swift run -c release mischief-bench --paste`
enum PasteBenchmarks {
    static func report() {
        let text = String(repeating: "shift(+1d)", count: 10_000)  // 100 KB
        for (field, opening) in [("filter", [Key.character("/")]), ("spec", [.enter, .enter, .control("u")])] {
            let paste = milliseconds(opening: opening, keys: [.paste(text)])
            let typed = milliseconds(opening: opening, keys: [.typed(text)])
            let after = milliseconds(opening: opening + [.paste(text)], keys: [.escape])
            print(
                "\(field): 100 KB paste \(format(paste)) ms, 100 KB typed run \(format(typed)) ms, Esc after it \(format(after)) ms"
            )
            for count in [500, 2_000] {
                let keys = String(text.prefix(count)).map(Key.character)
                print(
                    "\(field): \(count) characters one key and frame each \(format(milliseconds(opening: opening, keys: keys))) ms"
                )
            }
        }
    }

    /// Milliseconds to take `keys` (an update and a frame each) after `opening` was taken unmeasured.
    private static func milliseconds(opening: [Key], keys: [Key]) -> Double {
        let size = ScreenSize(rows: 40, columns: 120)
        var state = ConsoleState(size: size)
        state.show(ConsoleData.synthetic(seams: 24, frame: 0))
        for key in opening { _ = Console.update(&state, .key(key)) }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for key in keys {
                _ = Console.update(&state, .key(key))
                blackhole(Console.render(state, size: size, theme: .standard))
            }
        }
        return elapsed.seconds * 1000
    }

    private static func format(_ value: Double) -> String {
        String(Int(value.rounded()))
    }
}
