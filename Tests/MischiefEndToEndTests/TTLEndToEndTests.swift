import Foundation
import MischiefTestSupport
import Testing

/// `T` in the built `mischief demo`, driven in tmux (UTF-8, 120×40): a change given ten minutes to live shows the
/// time it has left; given one second instead, the demo reverts it by itself when the time is up. Every step waits
/// for what it expects on the screen (polling `tmux capture-pane`), never a fixed time.
@Suite(.oneAtATime) struct TTLEndToEndTests {
    @Test func tGivesAChangeATimeToLiveAndTheConsoleSeesItExpire() async throws {
        let tmux = try TmuxServer()
        defer { tmux.kill() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-ttl-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = "ttl"
        let script = """
            cd \(ConsoleInTmux.quoted(directory.path)) && export TERM=xterm-256color \
            XDG_CONFIG_HOME=\(ConsoleInTmux.quoted(directory.path)) && \(ConsoleInTmux.quoted(CLI.binary.path)) \
            demo --seed 7; sleep 3600
            """
        try tmux.start(session: session, width: 120, height: 40, command: ["sh", "-c", script])

        // The first seam, selected: Current time (clock.now). Space applies shift(1d).
        _ = try await tmux.wait(for: "the demo's first screen", in: session) { text in
            let screen = DemoScreen(text)
            return screen.countdownDays != nil && screen.calls(of: "Current time") != nil ? screen : nil
        }
        try tmux.send(session, keys: "Space")
        _ = try await tmux.wait(for: "Current time active", in: session) { text in
            DemoScreen(text).seamRows.contains(DemoScreen.SeamRow(title: "Current time", status: "active")) ? 1 : nil
        }

        // T asks how long; 10m and Enter: the row counts down and the detail says when it reverts. (Long enough that a
        // loaded machine cannot see it expire before the screen is read.)
        try tmux.send(session, keys: "T")
        _ = try await tmux.wait(for: "the ttl prompt", in: session) { text in
            DemoScreen(text).statusLine.contains("Revert clock.now after:") ? 1 : nil
        }
        try tmux.send(session, keys: "1", "0", "m", "Enter")
        let counting = try await tmux.wait(for: "the time left on Current time", in: session) {
            (text: String) -> DemoScreen? in
            let screen = DemoScreen(text)
            let row = screen.lines.first { $0.contains("Current time") && $0.contains("10m left") }
            return row != nil && text.contains("reverts in") ? screen : nil
        }
        #expect(counting.statusLine.contains("clock.now: reverted by itself in 10m"))

        // T again replaces the deadline: 1s. Nobody presses anything after: the target's own timer reverts it, and the
        // console shows that, and why in the event log.
        try tmux.send(session, keys: "T")
        _ = try await tmux.wait(for: "the ttl prompt again", in: session) { text in
            DemoScreen(text).statusLine.contains("Revert clock.now after:") ? 1 : nil
        }
        try tmux.send(session, keys: "1", "s", "Enter")
        let expired = try await tmux.wait(for: "Current time reverted by its ttl", in: session) {
            (text: String) -> DemoScreen? in
            let screen = DemoScreen(text)
            guard screen.seamRows.contains(DemoScreen.SeamRow(title: "Current time", status: "reverted")),
                !text.contains("m left"), !text.contains("s left"), !text.contains("reverts in")
            else { return nil }
            return screen
        }
        #expect(expired.row(1).contains("target = wall"))
        try tmux.send(session, keys: "e")
        _ = try await tmux.wait(for: "the expiry in the event log", in: session) { text in
            text.contains("shift(1d): expired after its ttl of 1s") ? 1 : nil
        }
    }
}
