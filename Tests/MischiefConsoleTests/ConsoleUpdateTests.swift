import Mischief
import MischiefConsole
import Testing

/// Keys on the main screen, data frames and command results.
@Suite struct ConsoleUpdateTests {
    typealias F = ConsoleFixtures

    func selecting(_ id: SeamID, in state: inout ConsoleState) {
        _ = F.press([.home], &state)
        while state.selection != id {
            let before = state.selection
            _ = F.press([.down], &state)
            precondition(state.selection != before, "\(id) is not listed")
        }
    }

    @Test func navigationSkipsCategoriesAndStopsAtTheEnds() {
        var state = F.state()
        #expect(state.selection == "clock.now")
        _ = F.press([.up, .character("k")], &state)
        #expect(state.selection == "clock.now")
        _ = F.press([.down, .character("j")], &state)
        #expect(state.selection == "clock.uptime")
        _ = F.press([.down], &state)
        #expect(state.selection == "location.current")  // over the Location heading
        _ = F.press([.up], &state)
        #expect(state.selection == "clock.uptime")
        _ = F.press([.end], &state)
        #expect(state.selection == "net.reachability")
        _ = F.press([.down, .pageDown], &state)
        #expect(state.selection == "net.reachability")
        #expect(state.listTop == state.lines.count - 8)  // 80×24 shows 8 list lines; the last is in view
        _ = F.press([.character("g")], &state)
        #expect(state.selection == "clock.now")
        #expect(state.listTop == 0)
        _ = F.press([.pageDown], &state)
        #expect(state.selection == "l10n.strings")  // a page is 7 lines here
        _ = F.press([.pageUp], &state)
        #expect(state.selection == "clock.now")
        _ = F.press([.character("G"), .home], &state)
        #expect(state.selection == "clock.now")
    }

    @Test func spaceSwitchesBetweenOriginalAndLastUsedSpec() {
        var state = F.state()
        #expect(F.press([.character(" ")], &state) == [.revert("clock.now")])
        _ = Console.update(&state, .commandFinished(.revert("clock.now"), .success(nil)))
        // The runner hands the console the data that shows the revert before the next key.
        var reverted = F.data()
        reverted.seams[0].behaviourText = nil
        reverted.seams[0].status = .reverted
        state.show(reverted)
        #expect(F.press([.character(" ")], &state) == [.apply(seam: "clock.now", spec: "shift(1d)")])
        state.show(F.data())
        #expect(F.press([.character(" ")], &state) == [.revert("clock.now")])
    }

    @Test func spaceUsesTheFirstCompleteActionWhenNothingWasUsed() {
        var state = F.state()
        selecting("location.heading", in: &state)
        // city needs a name, so jitter (every argument has a default) is the default spec.
        #expect(F.press([.character(" ")], &state) == [.apply(seam: "location.heading", spec: "jitter(10)")])

        selecting("clock.timezone", in: &state)
        #expect(F.press([.character(" ")], &state).isEmpty)
        #expect(state.message?.text.contains("Enter picks one") == true)
    }

    @Test func nudgingMovesTheMainParameterByItsStep() {
        var state = F.state()
        #expect(F.press([.character("+")], &state) == [.apply(seam: "clock.now", spec: "shift(2d)")])
        // Each press builds on the data of the last (the runner holds keys until it has arrived).
        var data = F.data()
        data.seams[0].behaviourText = "shift(2d)"
        data.seams[0].spec = "shift(2d)"
        state.show(data)
        #expect(F.press([.character("+")], &state) == [.apply(seam: "clock.now", spec: "shift(3d)")])
        data.seams[0].behaviourText = "shift(3d)"
        data.seams[0].spec = "shift(3d)"
        state.show(data)
        #expect(F.press([.character("-")], &state) == [.apply(seam: "clock.now", spec: "shift(2d)")])

        selecting("l10n.strings", in: &state)
        #expect(F.press([.character("+")], &state) == [.apply(seam: "l10n.strings", spec: "accents + expand(1.6)")])
        selecting("net.response", in: &state)
        #expect(F.press([.character("-")], &state) == [.apply(seam: "net.response", spec: "delay(150ms)")])
        selecting("model.user", in: &state)
        #expect(F.press([.character("+")], &state).isEmpty)
        #expect(state.message?.text == "model.user runs its original; Space or Enter applies a behaviour first")
    }

    @Test func nudgingASpecAsTypedGivesItsCanonicalForm() {
        var data = F.data()
        data.seams[0].behaviourText = "shift(+1d)"
        var state = ConsoleState(timeZone: F.utc)
        state.show(data)
        #expect(F.press([.character("+")], &state) == [.apply(seam: "clock.now", spec: "shift(2d)")])
    }

    @Test func digitsSwitchProfilesByTheirKeys() {
        var state = F.state()
        let commands = F.press([.character("1"), .character("3"), .character("9")], &state)
        #expect(commands == [.toggleProfile("Tokyo"), .toggleProfile("Slow network")])
        #expect(state.message?.text == "no profile has the key 9")
        // The target's answer says whether the switch turned a profile on or off, not the data last seen.
        _ = Console.update(&state, .commandFinished(.toggleProfile("Tokyo"), .success("profile Tokyo switched on")))
        #expect(state.message?.text == "profile Tokyo switched on")
        _ = Console.update(&state, .commandFinished(.toggleProfile("Slow network"), .success(nil)))
        #expect(state.message?.text == "profile Slow network switched")
        _ = Console.update(&state, .commandFinished(.toggleProfile("Offline"), .failure("no profile named 'Offline'")))
        #expect(state.message == .init("no profile named 'Offline'", isError: true))
    }

    @Test func revertingOneSeamOrEverything() {
        var state = F.state()
        #expect(F.press([.character("r")], &state) == [.revert("clock.now")])
        var reverted = F.data()
        reverted.seams[0].behaviourText = nil
        reverted.seams[0].status = .reverted
        state.show(reverted)
        #expect(F.press([.character("r")], &state).isEmpty)
        #expect(state.message?.text == "clock.now already runs its original")
        #expect(F.press([.character("R")], &state) == [.revertAll])
        _ = Console.update(&state, .commandFinished(.revertAll, .success(nil)))
        #expect(state.message?.text == "everything reverted")
    }

    @Test func bracketsAdvanceVirtualTime() {
        var state = F.state()
        #expect(
            F.press([.character("]"), .character("}")], &state)
                == [.advanceTime(.seconds(3_600)), .advanceTime(.seconds(86_400))])
        _ = Console.update(&state, .commandFinished(.advanceTime(.seconds(3_600)), .success(nil)))
        #expect(state.message?.text == "virtual time moved forward by 1h")
        let refusal = "the target's time is real; apply virtual to clock.now first"
        _ = Console.update(&state, .commandFinished(.advanceTime(.seconds(86_400)), .failure(refusal)))
        #expect(state.message == .init(refusal, isError: true))
    }

    @Test func themesQuitAndEscape() {
        var state = F.state()
        #expect(F.press([.character("t")], &state) == [.cycleTheme])
        _ = Console.update(&state, .commandFinished(.cycleTheme, .success("mono")))
        #expect(state.message?.text == "theme mono")
        _ = F.press([.escape], &state)
        #expect(state.message == nil)
        #expect(F.press([.character("q")], &state) == [.quit])
        #expect(F.press([.control("c")], &state) == [.quit])
    }

    @Test func tabMovesFocusAndArrowsScrollTheFocusedPane() {
        var state = F.state()
        _ = F.press([.tab], &state)
        #expect(state.focus == .detail)
        _ = F.press([.down, .down], &state)
        #expect(state.detailScroll == 2)
        #expect(state.selection == "clock.now")
        _ = F.press([.end], &state)
        let bottom = state.detailScroll
        _ = F.press([.down], &state)
        #expect(state.detailScroll == bottom)
        _ = F.press([.home], &state)
        #expect(state.detailScroll == 0)
        _ = F.press([.tab], &state)
        #expect(state.focus == .target)
        _ = F.press([.down], &state)
        #expect(state.targetScroll == 0)  // seven lines fit in the target pane
        _ = F.press([.tab], &state)
        #expect(state.focus == .list)
        _ = F.press([.backTab], &state)
        #expect(state.focus == .target)
        _ = Console.update(&state, .resized(ScreenSize(rows: 12, columns: 50)))
        #expect(state.focus == .list)  // the smallest screen shows the list only
        _ = F.press([.tab], &state)
        #expect(state.focus == .list)
    }

    @Test func selectionFollowsTheSeamAcrossFrames() {
        var state = F.state()
        selecting("l10n.menu", in: &state)
        var data = F.data(seconds: 4_000)
        data.seams.reverse()
        state.show(data)
        #expect(state.selection == "l10n.menu")
        data.seams.removeAll { $0.id == "l10n.menu" }
        state.show(data)
        #expect(state.selection == "net.reachability")  // the first seam listed now
    }

    @Test func ratesComeFromSuccessiveFrames() {
        var state = ConsoleState()
        state.show(F.data(seconds: 100, calls: 0))
        #expect(state.rates.isEmpty)
        state.show(F.data(seconds: 102, calls: 10))
        #expect(state.rates["clock.now"]?.samples == [15])  // 30 calls in 2 seconds
        #expect(state.rates["clock.timezone"]?.samples == [0])
        state.show(F.data(seconds: 102, calls: 10))
        #expect(state.rates["clock.now"]?.samples == [15])  // the same moment measures nothing
        for second in 103...130 {
            state.show(F.data(seconds: second, calls: 10 + second - 102))
        }
        #expect(state.rates["clock.now"]?.samples.count == RateHistory.capacity)
        #expect(state.rates["clock.now"]?.latest == 3)
        state.show(F.data(seconds: 5, calls: 0))  // the target restarted
        #expect(state.rates.isEmpty)
    }

    @Test func lastUsedSpecsComeFromDataAndSuccessfulApplies() {
        var state = F.state()
        #expect(state.lastUsed["location.current"] == "city(\"Tokyo\")")
        _ = Console.update(&state, .commandFinished(.apply(seam: "model.cart", spec: "mutate(50%)"), .success(nil)))
        #expect(state.lastUsed["model.cart"] == "mutate(50%)")
        #expect(state.message?.text == "model.cart: mutate(50%)")
        _ = Console.update(&state, .commandFinished(.apply(seam: "model.user", spec: "bad("), .failure("bad spec")))
        #expect(state.lastUsed["model.user"] == nil)
        #expect(state.message == .init("bad spec", isError: true))
    }
}
