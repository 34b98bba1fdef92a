import Foundation
import MischiefTestSupport
import Testing

/// `y` and `Y` in `mischief demo` put specs on the clipboard through OSC 52: tmux, with `set-clipboard on`, keeps
/// them in its paste buffer.
@Suite(.oneAtATime) struct CopyEndToEndTests {
    @Test func yCopiesTheSelectedSpecAndYTheWholeState() async throws {
        let console = try await ConsoleInTmux.start(seed: 6, width: 120, height: 40)
        defer { console.stop() }
        let tmux = console.tmux
        let session = console.session
        try tmux.run(["set-option", "-g", "set-clipboard", "on"])
        // Preset 1 shifts the clock a day ahead; the clock is the first seam, selected.
        try tmux.send(session, keys: "1")
        _ = try await tmux.wait(for: "preset 1 on", in: session) { text in
            DemoScreen(text).profile(1, "Tomorrow") == true && text.contains("shift(1d)") ? true : nil
        }
        try tmux.send(session, keys: "y")
        let copied = try await tmux.wait(for: "the spec copied", in: session) { text in
            text.contains("copied: shift(1d)") ? true : nil
        }
        #expect(copied)
        #expect(try buffer(tmux) == "shift(1d)")
        try tmux.send(session, keys: "2")
        // Wait for the seam rows, not only the profile bar: `Y` copies the seams as the console last saw them, and
        // on a loaded machine the bar can show the switch a refresh before the rows do.
        _ = try await tmux.wait(for: "preset 2 on and its seams shown", in: session) { text in
            DemoScreen(text).profile(2, "Tokyo") == true && text.contains("city(\"Tokyo\")") ? true : nil
        }
        try tmux.send(session, keys: "Y")
        _ = try await tmux.wait(for: "the state copied", in: session) { text in
            text.contains("copied: clock.now=shift(1d);location.current=") ? true : nil
        }
        let state = try buffer(tmux)
        #expect(state.hasPrefix("clock.now=shift(1d);location.current=city(\"Tokyo\");net.request="), "\(state)")
    }

    /// The newest paste buffer.
    private func buffer(_ tmux: TmuxServer) throws -> String {
        try tmux.run(["show-buffer"])
    }
}
