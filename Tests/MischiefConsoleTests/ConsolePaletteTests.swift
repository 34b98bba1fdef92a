import Foundation
import Mischief
import Testing

@testable import MischiefConsole

/// The command palette (`:`): fuzzy-find anything and run it, or run a whole command line.
@Suite struct ConsolePaletteTests {
    typealias F = ConsoleFixtures

    func palette(_ state: ConsoleState) -> CommandPalette? {
        if case .palette(let palette) = state.mode { palette } else { nil }
    }

    func opened(rows: Int = 24, columns: Int = 80) -> ConsoleState {
        var state = F.state(rows: rows, columns: columns)
        state.themeNames = ["default", "mono", "retro"]
        _ = F.press([.character(":")], &state)
        return state
    }

    @Test func aWholeLineRunsAsOnTheCommandLineAndClosesThePalette() {
        var state = opened()
        #expect(palette(state) != nil)
        // Typed in one piece (as tmux sends it) or key by key, it is text: q, digits and / do nothing else.
        #expect(Console.update(&state, .key(.typed("apply clock.now shift(+3h)"))).isEmpty)
        #expect(palette(state)?.field.text == "apply clock.now shift(+3h)")
        #expect(F.press([.enter], &state) == [.apply(seam: "clock.now", spec: "shift(+3h)")])
        #expect(state.mode == .browse)

        state = opened()
        _ = F.press(F.typing("apply clock.now shift(+3h) ttl 10m"), &state)
        #expect(
            F.press([.enter], &state) == [
                .apply(seam: "clock.now", spec: "shift(+3h)"), .setTTL(seam: "clock.now", ttl: .seconds(600)),
            ])
        state = opened()
        _ = F.press(F.typing("revert net.response"), &state)
        #expect(F.press([.enter], &state) == [.revert("net.response")])
    }

    @Test func aLineThatIsNotACommandStaysWithItsError() {
        var state = opened()
        _ = F.press(F.typing("revert"), &state)
        #expect(F.press([.enter], &state).isEmpty)
        #expect(palette(state)?.error?.contains("revert SEAM, or revert all") == true)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("revert SEAM, or revert all"))
        _ = F.press([.character(" ")], &state)
        #expect(palette(state)?.error == nil)  // typing clears it
        _ = F.press([.escape], &state)
        #expect(state.mode == .browse)
    }

    @Test func aLineIsCheckedBeforeItIsSent() {
        var state = opened()
        _ = F.press(F.typing("apply clock.now shfit(1d) ttl 10m"), &state)
        #expect(F.press([.enter], &state).isEmpty)  // neither the apply nor the ttl goes
        #expect(palette(state)?.error?.contains("unknown action 'shfit'") == true)
        #expect(palette(state)?.error?.contains("at column 1 of shfit(1d)") == true)
        state = opened()
        _ = F.press(F.typing("revert clock.nwo"), &state)
        #expect(F.press([.enter], &state).isEmpty)
        #expect(palette(state)?.error == "the target has no seam clock.nwo (clock.now?)")
    }

    @Test func fuzzyMatchesRunTheChosenOne() {
        var state = opened()
        _ = F.press(F.typing("rvt all"), &state)
        #expect(Console.paletteMatches("rvt all", in: state).first?.title == "revert all")
        #expect(F.press([.enter], &state) == [.revertAll])

        // A key's action by name.
        state = opened()
        _ = F.press(F.typing("invisible"), &state)
        #expect(Console.paletteMatches("invisible", in: state).first?.key == "I")
        #expect(F.press([.enter], &state).isEmpty)
        #expect(!state.showsInvisibleMarks)

        // A profile by name, a theme by name.
        state = opened()
        _ = F.press(F.typing("offline (off)"), &state)
        #expect(Console.paletteMatches("offline (off)", in: state).first?.kind == .profile)
        #expect(F.press([.enter], &state) == [.toggleProfile("Offline")])
        state = opened()
        _ = F.press(F.typing("retro"), &state)
        #expect(F.press([.enter], &state) == [.selectTheme("retro")])

        // ↓ chooses the next match.
        state = opened()
        _ = F.press(F.typing("revert") + [.down], &state)
        #expect(palette(state)?.selected == 1)
    }

    @Test func anActionOpensThePickerEditingItsSpec() throws {
        var state = opened()
        _ = F.press(F.typing("clock.now freeze"), &state)
        #expect(Console.paletteMatches("clock.now freeze", in: state).first?.kind == .action)
        _ = F.press([.enter], &state)
        guard case .picker(let picker) = state.mode else {
            Issue.record("no picker: \(state.mode)")
            return
        }
        #expect(state.selection == "clock.now")
        #expect(picker.choice == 1)
        #expect(try #require(picker.field).text.hasPrefix("freeze("))
    }

    @Test func profilesSwitchOnAndOffAsAsked() {
        var state = opened()
        _ = F.press(F.typing("profile Tokyo on"), &state)
        #expect(F.press([.enter], &state).isEmpty)  // already on
        #expect(state.message?.text == "profile Tokyo is already on")
        state = opened()
        _ = F.press(F.typing("profile tokyo off"), &state)
        #expect(F.press([.enter], &state) == [.toggleProfile("Tokyo")])
        state = opened()
        _ = F.press(F.typing("profile Nowhere"), &state)
        #expect(F.press([.enter], &state).isEmpty)
        #expect(state.message?.isError == true)
    }

    @Test func tabCompletesCommandsSeamsAndActions() {
        var state = opened()
        _ = F.press(F.typing("app") + [.tab], &state)
        #expect(palette(state)?.field.text == "apply ")
        _ = F.press(F.typing("clock") + [.tab], &state)
        #expect(palette(state)?.field.text == "apply clock.")
        _ = F.press(F.typing("n") + [.tab], &state)
        #expect(palette(state)?.field.text == "apply clock.now ")
        _ = F.press(F.typing("sh") + [.tab], &state)
        #expect(palette(state)?.field.text == "apply clock.now shift(")
        _ = F.press([.tab], &state)
        #expect(palette(state)?.field.text == "apply clock.now shift(by: ")
        state = opened()
        _ = F.press(F.typing("profile Of") + [.tab], &state)
        #expect(palette(state)?.field.text == "profile Offline ")
        // On a match that is a command to finish, Tab takes its text.
        state = opened()
        _ = F.press(F.typing("ttl") + [.tab], &state)
        #expect(palette(state)?.field.text == "ttl ")
    }

    @Test func everyKeysActionCanBeFoundByName() {
        let state = opened()
        let runs = Set(
            Console.paletteItems(state).compactMap { item -> String? in
                if case .browse(let command) = item.run { "\(command)" } else { nil }
            })
        let skipped: Set<String> = ["move", "page", "first", "last", "profile", "palette", "dismiss"]
        for command in Set(KeyBindings.browse.values) {
            let name = "\(command)"
            guard !skipped.contains(where: { name.hasPrefix($0) }) else { continue }
            #expect(runs.contains(name), "no palette item for \(name)")
        }
        for item in Console.paletteItems(state) where item.kind == .key { #expect(!item.key.isEmpty) }
    }

    @Test func theMouseChoosesAndRunsAMatch() {
        var state = opened()
        let (rect, _) = PaletteView.frame(state.size, matches: Console.paletteMatches("", in: state).count)
        let firstRow = rect.inner.y + 2
        _ = Console.update(&state, .key(.mouse(Mouse(.click, x: rect.x + 3, y: firstRow + 2))))
        #expect(palette(state)?.selected == 2)
        _ = Console.update(&state, .key(.mouse(Mouse(.wheelDown, x: rect.x + 3, y: firstRow))))
        #expect(palette(state)?.selected == 5)
        // The third command is `revert all`.
        _ = Console.update(&state, .key(.mouse(Mouse(.click, x: rect.x + 3, y: firstRow + 2))))
        let commands = Console.update(&state, .key(.mouse(Mouse(.doubleClick, x: rect.x + 3, y: firstRow + 2))))
        #expect(commands == [.revertAll])
    }

    @Test func aClickOnTheStatusLinesHintOpensThePalette() throws {
        var state = F.state(rows: 60, columns: 200)
        let status = try #require(
            Console.render(state, size: state.size, theme: .standard).text.split(separator: "\n").last)
        let column = try #require(status.range(of: ": commands")).lowerBound
        let x = status.distance(from: status.startIndex, to: column) + 3
        _ = Console.update(&state, .key(.mouse(Mouse(.click, x: x, y: 59))))
        #expect(palette(state) != nil)
        // Elsewhere on the line, nothing.
        state = F.state(rows: 60, columns: 200)
        _ = Console.update(&state, .key(.mouse(Mouse(.click, x: 2, y: 59))))
        #expect(state.mode == .browse)
    }

    @Test(arguments: [ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 60, columns: 200)])
    func theRenderedPalette(size: ScreenSize) {
        var state = opened(rows: size.rows, columns: size.columns)
        assertSnapshot(
            Console.render(state, size: size, theme: .standard), named: "palette-\(size.columns)x\(size.rows)")
        _ = F.press(F.typing("apply clock.now shift(+3h) ttl 10m"), &state)
        let typed = Console.render(state, size: size, theme: .standard)
        assertSnapshot(typed, named: "palette-line-\(size.columns)x\(size.rows)")
        #expect(typed.text.contains("⏎ runs: apply clock.now shift(+3h) ttl 10m"))
        state = opened(rows: size.rows, columns: size.columns)
        _ = F.press(F.typing("net status"), &state)
        let found = Console.render(state, size: size, theme: .standard).text
        #expect(found.contains("net.response") && found.contains("status(code)"), "\(found)")
    }
}

extension ConsolePaletteTests {
    /// A target with 300 seams of 10 actions each (3,000 actions, over 3,000 palette rows): finding and ranking for
    /// a keystroke stays well under a frame's budget even in a debug build.
    @Test func aLargeTargetIsSearchedQuickly() throws {
        var data = F.data()
        let actions = (0..<10).map { ActionSignature("action\($0)", summary: "does thing number \($0)") }
        data.seams = try (0..<300).map { index in
            SeamSnapshot(
                id: try SeamID("area\(index % 7).seam\(index)"), title: "Seam number \(index)",
                category: "Area \(index % 7)", summary: "", signature: "() -> Int", actions: actions)
        }
        var state = ConsoleState(size: ScreenSize(rows: 60, columns: 200))
        state.show(data)
        let clock = ContinuousClock()
        var worst = Duration.zero
        for query in ["a", "seam 29", "area3 action7", "zzz", "revert all"] {
            let elapsed = clock.measure { _ = Console.paletteMatches(query, in: state) }
            worst = max(worst, elapsed)
        }
        #expect(Console.paletteItems(state).count > 3_000)
        #expect(worst < .milliseconds(500), "the slowest query took \(worst)")
        print("palette: slowest of 5 queries over \(Console.paletteItems(state).count) items: \(worst)")
    }
}
