import Mischief
import MischiefConsole
import Testing

/// Stacked layers are never hidden: the row says how many wait underneath the one that answers, the detail lists
/// them top first, and a copy or save says what it leaves out.
@Suite struct ConsoleLayerTests {
    typealias F = ConsoleFixtures

    /// The fixture with two layers on clock.now (a replacing seam): `freeze` from a profile underneath, `shift(1d)`
    /// from the console on top, reverting by itself at 3 754 s of uptime.
    static func stacked(columns: Int = 120) -> ConsoleState {
        var state = F.state(rows: 30, columns: columns)
        var data = F.data(seconds: 3_724, calls: 60)
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        data.seams[index].layers = [
            LayerSnapshot(
                id: LayerID(rawValue: 1), seam: "clock.now", behaviour: "freeze(2038-01-19T03:14:08Z)",
                spec: "freeze(2038-01-19T03:14:08Z)", source: "profile Year 2038", status: .active),
            LayerSnapshot(
                id: LayerID(rawValue: 2), seam: "clock.now", behaviour: "shift(1d)", spec: "shift(1d)",
                source: "console", status: .active, ttl: .seconds(30), expiresAt: .seconds(3_754)),
        ]
        data.seams[index].behaviourText = "shift(1d)"
        data.seams[index].spec = "shift(1d)"
        state.show(data)
        return state
    }

    static func screen(_ state: ConsoleState) -> String {
        Console.render(state, size: state.size, theme: .standard).text
    }

    @Test func theRowCountsTheLayersUnderneath() {
        let state = Self.stacked()
        #expect(state.selectedSeam?.id == "clock.now")
        let row = Self.screen(state).split(separator: "\n").first { $0.contains("shift(1d)") }
        #expect(row?.contains("shift(1d) +1") == true, "row: \(row ?? "none")")
    }

    @Test func theDetailListsEveryLayerTopFirst() {
        let lines = Self.screen(Self.stacked()).split(separator: "\n").map(String.init)
        let title = lines.firstIndex { $0.contains("Layers") && $0.contains("top first") }
        let top = lines.firstIndex {
            $0.contains("● answers") && $0.contains("console") && $0.contains("reverts in 30s")
        }
        let under = lines.firstIndex { $0.contains("○ underneath") && $0.contains("profile Year 2038") }
        #expect(title != nil && top != nil && under != nil, "\(lines.joined(separator: "\n"))")
        if let title, let top, let under { #expect(title < top && top < under) }
    }

    @Test func oneLayerShowsNoCountAndNoLayerList() {
        let state = ConsoleTTLTests.state(expiresAt: nil)
        let screen = Self.screen(state)
        #expect(!screen.contains("shift(1d) +"))
        #expect(!screen.contains("underneath"))
    }

    @Test func aCopyOrSaveSaysWhatItLeavesOut() {
        var state = Self.stacked()
        let copy = F.press([.character("y")], &state)
        #expect(copy == [.copy("shift(1d)")])
        _ = Console.update(&state, .commandFinished(copy[0], .success(nil)))
        #expect(
            state.message?.text
                == "copied: shift(1d); left out 1 layer underneath (on clock.now), which do not answer now")
        _ = Console.update(&state, .commandFinished(.saveProfile("Mine"), .success("/tmp/Mine.yaml")))
        #expect(state.message?.text.hasPrefix("saved Mine to /tmp/Mine.yaml; left out 1 layer underneath") == true)
    }
}

/// Long text is wrapped where it is shown, never cut where nobody can read it.
@Suite struct ConsoleLongTextTests {
    typealias F = ConsoleFixtures

    @Test func theDetailWrapsActionAndParameterDescriptions() {
        var state = ConsoleState(size: ScreenSize(rows: 60, columns: 80), timeZone: F.utc)
        var data = F.data()
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        data.seams[index].actions[0] = ActionSignature(
            "shift",
            summary: "moves the time by an offset; sleeps last as long as they would have, and timers fire late",
            parameters: [
                .init(
                    "by", .duration, step: .duration(F.day),
                    summary: "how far: +1d, -90m, +10y, or any duration the spec language takes, weeks and years too")
            ], composes: true)
        state.show(data)
        let text = Console.render(state, size: state.size, theme: .standard).text
        let words = Set(text.split { " │\n".contains($0) }.map(String.init))
        for word in ["late", "timers", "years", "too"] { #expect(words.contains(word), "\(word) in\n\(text)") }
        let rows = text.split(separator: "\n")
        let actions = rows.drop { !$0.contains("Actions") }.prefix { !$0.contains("Recent events") }
        #expect(!actions.isEmpty && actions.allSatisfy { !$0.contains("…") }, "no action cut:\n\(text)")
    }

    @Test func aSummaryTooLongForItsRowIsShownWholeBelow() {
        var state = ConsoleState(size: ScreenSize(rows: 60, columns: 80), timeZone: F.utc)
        var data = F.data()
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        let old = data.seams[index].info
        data.seams[index].info =
            SeamSnapshot(
                id: old.id, title: old.title, category: old.category,
                summary: "What the target thinks the time is: its dates and its timers, its sleeps and its deadlines",
                signature: old.signature
            ).info
        state.show(data)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("deadlines"), "\(text)")
    }

    @Test func thePickersErrorIsWrappedWhole() {
        var state = F.state(rows: 24, columns: 80)
        // The picker on clock.now, its spec sent: the target refuses it.
        let sent = F.press([.enter, .enter, .enter], &state)
        #expect(sent.count == 1)
        let message = "a duration needs a unit: use ns, us, ms, s, m, h, d, w or y after the number, as in 90m or 1d"
        _ = Console.update(&state, .commandFinished(sent[0], .failure(message + "\n  shift(2)\n        ^")))
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("w or y"), "\(text)")
    }
}

/// `w` in the event log shows when each event happened on the target's wall clock.
@Suite struct ConsoleWallClockTests {
    typealias F = ConsoleFixtures

    @Test func wSwitchesTheLogBetweenTimeSinceStartAndTheWallClock() {
        var state = ConsoleState(size: ScreenSize(rows: 24, columns: 100), timeZone: F.utc)
        state.show(F.data())  // up 3 723 s at 2025-05-01 12:00:00 UTC
        _ = F.press([.character("e")], &state)
        func screen() -> String { Console.render(state, size: state.size, theme: .standard).text }
        #expect(screen().contains("00:01:02  applied"), "\(screen())")
        _ = F.press([.character("w")], &state)
        // 62 s after the start, 3 661 s before the data's wall time: 10:58:59 on 2025-05-01.
        #expect(screen().contains("10:58:59  applied"), "\(screen())")
        _ = F.press([.character("w")], &state)
        #expect(screen().contains("00:01:02  applied"))
    }
}

/// What a seam reaches (its notes, such as a system seam's coverage) is in its detail, whole.
@Suite struct ConsoleSeamNotesTests {
    typealias F = ConsoleFixtures

    @Test func theDetailShowsTheSeamsNotesWrappedWhole() {
        var state = ConsoleState(size: ScreenSize(rows: 60, columns: 80), timeZone: F.utc)
        var data = F.data()
        let index = data.seams.firstIndex { $0.id == "clock.now" }!
        data.seams[index].notes = [
            "rebound: libFoundationEssentials.so, libFoundation.so, (executable)",
            "not rebound: libdispatch.so (never by default: its timers and deadlines keep the real clock)",
        ]
        state.show(data)
        let text = Console.render(state, size: state.size, theme: .standard).text
        let rows = text.split(separator: "\n").map(String.init)
        let title = rows.firstIndex { $0.contains("│ Reach  ") }  // not the Reachability seam
        let actions = rows.firstIndex { $0.contains("Actions") }
        #expect(title != nil && actions != nil && title! < actions!, "Reach before Actions:\n\(text)")
        let words = Set(text.split { " │\n".contains($0) }.map(String.init))
        for word in ["libFoundationEssentials.so,", "libdispatch.so", "clock)"] {
            #expect(words.contains(word), "\(word) in\n\(text)")
        }
    }

    @Test func aSeamWithoutNotesHasNoReachSection() {
        var state = ConsoleState(size: ScreenSize(rows: 60, columns: 80), timeZone: F.utc)
        state.show(F.data())
        #expect(!Console.render(state, size: state.size, theme: .standard).text.contains("│ Reach  "))
    }
}
