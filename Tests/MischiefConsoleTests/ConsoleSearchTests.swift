import Mischief
import Testing

@testable import MischiefConsole

/// `/` finds seams by more than their own text: their layers, the profiles that change them and their events.
@Suite struct ConsoleSearchTests {
    typealias F = ConsoleFixtures

    func listed(_ state: ConsoleState) -> [SeamID] {
        state.lines.compactMap { line in
            if case .seam(let index) = line { state.data?.seams[index].id } else { nil }
        }
    }

    @Test func aProfileAnEventOrALayerListsTheSeamsItConcerns() {
        var state = F.state()
        // The profile Offline changes net.reachable only; its name is nowhere in a seam's own text.
        _ = F.press([.character("/")] + F.typing("pseudo-loc"), &state)
        #expect(listed(state) == ["l10n.strings"])
        #expect(state.searchSummary == "1 seam · profile Pseudo-loc")
        // An event: the refused 'shfit' was on clock.now.
        _ = F.press([.control("u")] + F.typing("shfit"), &state)
        #expect(listed(state) == ["clock.now"])
        #expect(state.searchSummary == "1 seam · 1 event (e)")
        let status = Console.render(state, size: state.size, theme: .standard).text.split(separator: "\n").last ?? ""
        #expect(status.contains("1 seam · 1 event (e)"))
        // Nothing matches: the summary says so.
        _ = F.press([.control("u")] + F.typing("zzzz"), &state)
        #expect(listed(state).isEmpty)
        #expect(state.searchSummary == "0 seams")
        _ = F.press([.escape], &state)
        #expect(state.searchSummary == nil)

        // A layer underneath, which the row does not show: its spec finds the seam.
        var stacked = ConsoleLayerTests.stacked()
        _ = F.press([.character("/")] + F.typing("2038-01-19"), &stacked)
        #expect(listed(stacked) == ["clock.now"])
        #expect(stacked.searchSummary == "1 seam · 1 layer")
    }
}
