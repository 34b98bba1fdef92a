import Mischief
import MischiefConsole
import Testing

/// Help, the event log and a screen too small to use.
@Suite struct ConsoleOverlayTests {
    typealias F = ConsoleFixtures

    @Test func helpOpensScrollsAndCloses() {
        var state = F.state()
        for open in [Key.character("?"), .function(1)] {
            for close in [Key.escape, .character("?"), .character("q"), .function(1)] {
                _ = F.press([open], &state)
                #expect(state.mode == .help(scroll: 0))
                #expect(F.press([close], &state).isEmpty)
                #expect(state.mode == .browse)
            }
        }
        _ = F.press([.character("?"), .down, .character("j")], &state)
        #expect(state.mode == .help(scroll: 2))
        _ = F.press([.end], &state)
        guard case .help(let bottom) = state.mode else { Issue.record("help closed"); return }
        _ = F.press([.down, .pageDown], &state)
        #expect(state.mode == .help(scroll: bottom))
        _ = F.press([.home], &state)
        #expect(state.mode == .help(scroll: 0))
        #expect(F.press([.control("c")], &state) == [.quit])
    }

    /// The event log's selected line, counted from the newest; nil when the log is closed.
    func selected(_ state: ConsoleState) -> Int? {
        if case .eventLog(let log) = state.mode { log.selected } else { nil }
    }

    @Test func eventLogSelectsUpFromTheNewestAndCloses() {
        var state = F.state(rows: 12, columns: 50)
        _ = F.press([.character("e")], &state)
        #expect(selected(state) == 0)
        _ = F.press([.up, .character("k")], &state)
        #expect(selected(state) == 2)
        _ = F.press([.home], &state)
        #expect(selected(state) == 9)  // 10 events, the oldest
        _ = F.press([.up], &state)
        #expect(selected(state) == 9)
        _ = F.press([.down], &state)
        #expect(selected(state) == 8)
        _ = F.press([.end], &state)
        #expect(selected(state) == 0)
        for close in [Key.escape, .character("e"), .character("q")] {
            _ = F.press([.character("e")], &state)
            #expect(F.press([close], &state).isEmpty)
            #expect(state.mode == .browse)
        }
        _ = F.press([.character("e")], &state)
        #expect(F.press([.control("c")], &state) == [.quit])
    }

    @Test func aScreenTooSmallOnlyQuits() {
        var state = F.state()
        _ = F.press([.character("/")], &state)
        _ = Console.update(&state, .resized(ScreenSize(rows: 10, columns: 40)))
        // Even while typing the filter, the only thing the small screen offers is q.
        #expect(F.press([.character(" "), .character("x"), .enter, .character("R")], &state).isEmpty)
        #expect(state.filter.text.isEmpty)
        #expect(F.press([.character("q")], &state) == [.quit])
        #expect(F.press([.control("c")], &state) == [.quit])
        _ = Console.update(&state, .resized(ScreenSize(rows: 12, columns: 50)))
        #expect(F.press([.character("q")], &state).isEmpty)  // usable again: q is filter text
        #expect(state.filter.text == "q")
    }

    @Test func quitWhereItApplies() {
        let modes: [(keys: [Key], quitsOnQ: Bool)] = [
            ([], true),
            ([.character("/")], false),
            ([.character("s")], false),
            ([.enter, .enter], false),
        ]
        for (keys, quitsOnQ) in modes {
            var state = F.state()
            _ = F.press(keys, &state)
            #expect(F.press([.character("q")], &state) == (quitsOnQ ? [.quit] : []))
            #expect(F.press([.control("c")], &state) == [.quit])
        }
    }
}
