import Foundation
import MischiefTestSupport
import Testing

/// Pastes into the built `mischief demo` in tmux: the console asks for bracketed paste, so tmux's `paste-buffer -p`
/// marks the text, and a paste is text in a text field, never keys. Before, a pasted newline was Enter and the
/// letters after it hot keys.
@Suite(.oneAtATime) struct PasteEndToEndTests {
    /// Puts `text` in a tmux buffer and pastes it into the console's pane as a terminal would (`-p`: bracketed, when
    /// the program asked for it).
    private func paste(_ text: String, into console: ConsoleInTmux) throws {
        try console.tmux.run(["set-buffer", "-b", "mischief-paste", "--", text])
        try console.tmux.run(["paste-buffer", "-p", "-d", "-b", "mischief-paste", "-t", console.session])
    }

    @Test func aPastedNewlineInTheFilterNeitherKeepsTheFilterNorRevertsEverything() async throws {
        let console = try await ConsoleInTmux.start(seed: 7)
        defer { console.stop() }
        try console.tmux.send(console.session, keys: "1")
        _ = try await console.tmux.wait(for: "preset 1 (Tomorrow) on", in: console.session) { text in
            DemoScreen(text).profile(1, "Tomorrow") == true ? true : nil
        }
        try console.tmux.send(console.session, keys: "/")
        _ = try await console.tmux.wait(for: "the filter open", in: console.session) { text in
            DemoScreen(text).statusLine.contains("Esc clear") ? true : nil
        }
        try paste("clock\nR", into: console)
        let screen = try await console.tmux.wait(for: "the paste in the filter, as text", in: console.session) {
            text in
            text.contains("match “clock R”") ? DemoScreen(text) : nil
        }
        #expect(screen.profile(1, "Tomorrow") == true, "R in a paste reverted everything:\n\(screen.text)")
        #expect(!screen.text.contains("everything reverted"))
        #expect(screen.statusLine.contains("/ clock R"), "still typing the filter: \(screen.statusLine)")
    }

    @Test func aPastedNewlineInTheSpecEditorNeitherAppliesNorSwitchesAPreset() async throws {
        let console = try await ConsoleInTmux.start(seed: 7)
        defer { console.stop() }
        // Current time is selected: ⏎ opens the picker, ⏎ edits its first action's spec, Ctrl-U empties it.
        try console.tmux.send(console.session, keys: "Enter")
        _ = try await console.tmux.wait(for: "the picker open", in: console.session) { text in
            DemoScreen(text).statusLine.contains("⏎ edit spec") ? true : nil
        }
        try console.tmux.send(console.session, keys: "Enter")
        _ = try await console.tmux.wait(for: "the spec editor open", in: console.session) { text in
            DemoScreen(text).statusLine.contains("⏎ apply") ? true : nil
        }
        try console.tmux.send(console.session, keys: "C-u")
        try paste("shift(+1d)\n2", into: console)
        let screen = try await console.tmux.wait(for: "the paste in the spec editor, as text", in: console.session) {
            text in
            text.contains("› shift(+1d) 2") ? DemoScreen(text) : nil
        }
        #expect(screen.profile(2, "Tokyo") == false, "2 in a paste switched Tokyo on:\n\(screen.text)")
        #expect(screen.row(1).contains("target = wall"), "nothing applied: \(screen.row(1))")
        #expect(screen.statusLine.contains("⏎ apply"), "still editing: \(screen.statusLine)")
    }

    @Test func aPasteInBrowseModeIsIgnoredWithAMessage() async throws {
        let console = try await ConsoleInTmux.start(seed: 7)
        defer { console.stop() }
        try paste("12q", into: console)
        let screen = try await console.tmux.wait(for: "the paste ignored", in: console.session) { text in
            text.contains("paste ignored") ? DemoScreen(text) : nil
        }
        #expect(screen.profile(1, "Tomorrow") == false)
        #expect(screen.profile(2, "Tokyo") == false)
        try console.tmux.send(console.session, keys: "q")
        let ending = try await console.waitForEnd()
        #expect(ending.status == 0)
        #expect(ending.isRestored)
    }

    /// Without the paste marks (`paste-buffer` without `-p`: a terminal without bracketed paste), a paste arrives as
    /// keys, as before, but characters read together are taken in one step: 5,000 of them into the filter took
    /// 20–30 s, a frame each. Now the filter fills to its limit at once, and Esc after it acts at once.
    @Test func anUnmarkedPasteIsTakenAtOnceAndKeysAfterItAct() async throws {
        let console = try await ConsoleInTmux.start(seed: 7)
        defer { console.stop() }
        try console.tmux.send(console.session, keys: "/")
        _ = try await console.tmux.wait(for: "the filter open", in: console.session) { text in
            DemoScreen(text).statusLine.contains("Esc clear") ? true : nil
        }
        try console.tmux.run(["set-buffer", "-b", "mischief-plain", "--", String(repeating: "abcde", count: 1_000)])
        try console.tmux.run(["paste-buffer", "-d", "-b", "mischief-plain", "-t", console.session])
        try console.tmux.send(console.session, keys: "Escape")
        _ = try await console.tmux.wait(
            for: "the filter full, then cleared by Esc", in: console.session, timeout: .seconds(10)
        ) {
            text in
            let screen = DemoScreen(text)
            return screen.text.contains("Seams · 6 ") && screen.statusLine.contains("at most 200 characters")
                ? true : nil
        }
    }
}
