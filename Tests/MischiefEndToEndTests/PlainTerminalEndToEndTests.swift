import Foundation
import MischiefTestSupport
import Testing

/// `mischief demo` where the terminal offers less: no UTF-8 locale, no colour.
@Suite(.oneAtATime) struct PlainTerminalEndToEndTests {
    @Test func withoutAUTF8LocaleBordersMarksAndArrowsAreASCII() async throws {
        let console = try await ConsoleInTmux.start(seed: 3, width: 120, height: 40, environment: "LC_ALL=C LANG=C")
        defer { console.stop() }
        // Borders, the focus mark and the seam marks are drawn, not replaced by '?': every row of the frame has
        // its ASCII edges (waiting for a whole frame, as tmux may capture one half drawn).
        let screen = try await console.tmux.wait(for: "an ASCII frame", in: console.session) { text in
            let screen = DemoScreen(text)
            let frame = screen.lines.filter { $0.hasPrefix("|") }
            return text.contains("+- > Seams") && frame.count > 30
                && frame.allSatisfy { $0.hasSuffix("|") || $0.hasSuffix("+") }
                ? screen : nil
        }
        #expect(screen.lines.contains { $0.hasPrefix("+--") && $0.hasSuffix("-+") })
        #expect(!screen.text.contains("?-?"))
        let bar = screen.lines.first { $0.hasPrefix(" Profiles") } ?? ""
        #expect(bar.contains("1 oTomorrow"), "\(Poll.ascii(bar))")
    }

    @Test func withNoColorTheFocusedPaneIsMarked() async throws {
        let console = try await ConsoleInTmux.start(seed: 3, width: 120, height: 40, environment: "NO_COLOR=1")
        defer { console.stop() }
        try console.tmux.send(console.session, keys: "Tab")
        _ = try await console.tmux.wait(for: "the detail pane marked focused", in: console.session) { text in
            text.contains("┌─ Seams") && text.contains("┌─ ▶ ") ? true : nil
        }
    }
}
