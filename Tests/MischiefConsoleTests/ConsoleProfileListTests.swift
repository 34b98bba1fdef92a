import Mischief
import MischiefConsole
import Testing

/// Every profile is reachable: the bar wraps instead of cutting one, and `p` lists them all to switch.
@Suite struct ConsoleProfileListTests {
    typealias F = ConsoleFixtures

    static let sizes = [
        ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 40, columns: 120), ScreenSize(rows: 60, columns: 200),
    ]

    func name(_ base: String, _ size: ScreenSize) -> String { "\(base)-\(size.columns)x\(size.rows)" }

    /// The screen's rows as text.
    func rows(_ grid: CellGrid) -> [String] { grid.text.split(separator: "\n").map(String.init) }

    @Test(arguments: sizes) func theBarShowsEveryPresetWithItsKey(size: ScreenSize) {
        let state = F.demoState(rows: size.rows, columns: size.columns)
        let grid = Console.render(state, size: size, theme: .standard)
        assertSnapshot(grid, named: name("profile-bar", size))
        let bar = rows(grid).filter { $0.contains("●") || $0.contains("○") }.joined(separator: "\n")
        for profile in F.demoProfiles {
            #expect(
                bar.contains("\(profile.profile.key!) \(profile.isActive ? "●" : "○")\(profile.profile.name)"),
                "\(profile.profile.name)")
        }
    }

    @Test func aBarFullerThanItsRowsSaysHowManyMoreAndThatPListsThem() {
        var state = F.demoState(rows: 15, columns: 60)
        var data = state.data!
        data.profiles += (1...6).map { ProfileStatus.row(name: "Extra \($0)") }
        state.show(data)
        let text = Console.render(state, size: state.size, theme: .standard).text
        let bar = rows(Console.render(state, size: state.size, theme: .standard))[13]
        #expect(bar.hasPrefix(" Profiles  1 ○Tomorrow "), "\(text)")
        #expect(bar.contains(" more · p lists all"), "\(text)")
    }

    @Test func pListsEveryProfileAndSpaceOrEnterSwitchesTheChosenOne() {
        var state = F.demoState(rows: 24, columns: 80)
        #expect(F.press([.character("p")], &state).isEmpty)
        #expect(state.mode == .profileList(selected: 0))
        #expect(F.press([.character(" ")], &state) == [.toggleProfile("Tomorrow")])
        #expect(F.press([.down, .down, .enter], &state) == [.toggleProfile("German-length UI")])
        #expect(F.press([.end, .down], &state).isEmpty)
        #expect(state.mode == .profileList(selected: 7))
        #expect(F.press([.up, .character("j"), .character("k"), .enter], &state) == [.toggleProfile("Year 2038")])
        _ = Console.update(
            &state, .commandFinished(.toggleProfile("Year 2038"), .success("profile Year 2038 switched off")))
        #expect(state.message?.text == "profile Year 2038 switched off")
        // Digits still switch by key; Esc closes.
        #expect(F.press([.character("2")], &state) == [.toggleProfile("Tokyo")])
        _ = F.press([.escape], &state)
        #expect(state.mode == .browse)
        _ = F.press([.character("p"), .character("p")], &state)
        #expect(state.mode == .browse)
    }

    @Test(arguments: sizes) func theListShowsKeyStateNameDescriptionAndSeams(size: ScreenSize) {
        var state = F.demoState(rows: size.rows, columns: size.columns)
        _ = F.press([.character("p"), .down], &state)
        let grid = Console.render(state, size: size, theme: .standard)
        assertSnapshot(grid, named: name("profile-list", size))
        let text = grid.text
        for profile in F.demoProfiles where size.rows >= 40 {
            #expect(text.contains(profile.profile.name))
            for seam in profile.seams { #expect(text.contains(seam.rawValue)) }
        }
        // Descriptions are wrapped, never cut.
        #expect(!text.contains("…"))
        #expect(text.contains("● on"))
        #expect(text.contains("○ off"))
    }

    @Test func theListScrollsToTheSelectionWithAMarker() {
        var state = F.demoState(rows: 12, columns: 50)
        _ = F.press([.character("p"), .end], &state)
        let text = Console.render(state, size: state.size, theme: .standard).text
        #expect(text.contains("Frozen time"))
        #expect(text.contains("↑"))
        #expect(!text.contains("Tomorrow"))
    }
}
