import Foundation
import MischiefTestSupport
import Testing

/// `mischief demo` in tmux: the panes take what they need, so the demo's panels show without scrolling.
@Suite(.oneAtATime) struct LayoutEndToEndTests {
    static let panels = ["Halley's Comet returns in", "Weather here", "Greeting", "Profile card"]

    @Test func at120x40TheDemosFourPanelsShowAtOnce() async throws {
        let console = try await ConsoleInTmux.start(seed: 4, width: 120, height: 40)
        defer { console.stop() }
        _ = try await console.tmux.wait(for: "the four panels whole", in: console.session) { text in
            Self.panels.allSatisfy(text.contains) && (text.contains("member since") || text.contains("cannot read"))
                ? true : nil
        }
    }

    @Test func at80x24TheTargetPaneSaysThereIsMoreBelow() async throws {
        let console = try await ConsoleInTmux.start(seed: 4, width: 80, height: 24)
        defer { console.stop() }
        let screen = DemoScreen(console.tmux.screen(console.session))
        let bottom = try #require(screen.lines.last { $0.hasPrefix("└") })
        #expect(bottom.hasSuffix(" ↓─┘"), "the target pane's bottom border: \(Poll.ascii(bottom))")
        #expect(screen.text.contains("Halley's Comet returns in"))
    }
}
