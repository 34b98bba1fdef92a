import Foundation
import MischiefTestSupport
import Testing

/// `mischief demo` in tmux: the profile bar shows every preset at 80×24, and `p` lists them to switch one.
@Suite(.oneAtATime) struct ProfileListEndToEndTests {
    @Test func pListsThePresetsAndSpaceSwitchesTheChosenOne() async throws {
        let console = try await ConsoleInTmux.start(seed: 8, width: 80, height: 24)
        defer { console.stop() }
        let tmux = console.tmux
        let session = console.session
        let bar = DemoScreen(tmux.screen(session)).lines.filter { $0.contains("○") || $0.contains("●") }
            .joined(separator: "\n")
        for key in 1...8 { #expect(bar.contains(" \(key) ○"), "preset \(key) is on the bar at 80x24: \(bar)") }

        try tmux.send(session, keys: "p")
        _ = try await tmux.wait(for: "the profile list", in: session) { text in
            text.contains("Profiles · 8 · 0 on") && text.contains("Frozen time") ? true : nil
        }
        try tmux.send(session, keys: "Down")
        try tmux.send(session, keys: "Space")
        _ = try await tmux.wait(for: "Tokyo switched on", in: session) { text in
            text.contains("profile Tokyo switched on") && text.contains("● on  Tokyo") ? true : nil
        }
        try tmux.send(session, keys: "Enter")
        _ = try await tmux.wait(for: "Tokyo switched off", in: session) { text in
            text.contains("profile Tokyo switched off") && text.contains("○ off Tokyo") ? true : nil
        }
        try tmux.send(session, keys: "Escape")
        try await console.waitForDrawing("after the profile list closed")
        #expect(!tmux.screen(session).contains("Profiles · 8"))
    }
}
