import Foundation
import MischiefTestSupport
import Testing

/// The command palette and the spec field in the built `mischief demo`, driven in tmux as a new user would: `:`
/// then a line as the command line writes it, and the 20 %-503 rule reached from the palette and from the picker's
/// completion, with what to type shown on screen (the grammar's `20%`, the seam's `respond(status,…)`). Every step
/// waits for what it expects on the screen, never a fixed time.
@Suite(.oneAtATime) struct PaletteEndToEndTests {
    /// A demo in tmux at `width`×`height`, with its configuration and state (the spec history) in a directory of
    /// the test's own.
    func start(_ tmux: TmuxServer, session: String, width: Int, height: Int, directory: URL) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let quotedDirectory = ConsoleInTmux.quoted(directory.path)
        let script = """
            cd \(quotedDirectory) && export TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=\(quotedDirectory) \
            XDG_STATE_HOME=\(quotedDirectory) && \(ConsoleInTmux.quoted(CLI.binary.path)) demo --seed 7; sleep 3600
            """
        try tmux.start(session: session, width: width, height: height, command: ["sh", "-c", script])
        _ = try await tmux.wait(for: "the demo's first screen", in: session) { text in
            let screen = DemoScreen(text)
            return screen.countdownDays != nil && screen.calls(of: "Current time") != nil ? screen : nil
        }
    }

    /// Opens the palette and waits for it.
    func openPalette(_ tmux: TmuxServer, _ session: String) async throws {
        try tmux.send(session, keys: ":")
        _ = try await tmux.wait(for: "the palette", in: session) { $0.contains("Commands ·") ? 1 : nil }
    }

    @Test(arguments: [(80, 24), (200, 60)])
    func aLineInThePaletteAppliesAsOnTheCommandLine(width: Int, height: Int) async throws {
        let tmux = try TmuxServer()
        defer { tmux.kill() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-palette-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = "palette"
        try await start(tmux, session: session, width: width, height: height, directory: directory)

        try await openPalette(tmux, session)
        try tmux.send(session, keys: "-l", "apply clock.now shift(+3h)")
        _ = try await tmux.wait(for: "what Enter runs", in: session) {
            $0.contains("runs: apply clock.now shift(+3h)") ? 1 : nil
        }
        try tmux.send(session, keys: "Enter")
        let applied = try await tmux.wait(for: "Current time active with shift(+3h)", in: session) {
            (text: String) -> DemoScreen? in
            let screen = DemoScreen(text)
            return screen.seamRows.contains(DemoScreen.SeamRow(title: "Current time", status: "active"))
                && !text.contains("Commands ·") ? screen : nil
        }
        #expect(applied.statusLine.contains("clock.now: shift(+3h)"))

        // A TTL as the issue writes it, then revert: both as lines.
        try await openPalette(tmux, session)
        try tmux.send(session, keys: "-l", "apply clock.now shift(+1d) ttl 10m")
        try tmux.send(session, keys: "Enter")
        _ = try await tmux.wait(for: "the time left on Current time", in: session) { text in
            text.contains("Current time") && text.contains("10m left") ? 1 : nil
        }
        try await openPalette(tmux, session)
        try tmux.send(session, keys: "-l", "revert clock.now")
        try tmux.send(session, keys: "Enter")
        _ = try await tmux.wait(for: "Current time reverted", in: session) { text in
            DemoScreen(text).seamRows.contains(DemoScreen.SeamRow(title: "Current time", status: "reverted"))
                ? 1 : nil
        }
        // The specs applied are remembered across runs, in the state directory.
        let history = try String(
            contentsOf: directory.appendingPathComponent("mischief/spec-history.json"), encoding: .utf8)
        #expect(history.contains("shift(+3h)"))
    }

    @Test func the20PercentOf503RuleFromThePaletteAndFromThePickersCompletion() async throws {
        let tmux = try TmuxServer()
        defer { tmux.kill() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-palette-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = "palette503"
        try await start(tmux, session: session, width: 80, height: 24, directory: directory)

        // From the palette: the rule as a line.
        try await openPalette(tmux, session)
        try tmux.send(session, keys: "-l", "apply net.request 20%respond(status: 503)")
        try tmux.send(session, keys: "Enter")
        _ = try await tmux.wait(for: "Network responses with the 20% rule", in: session) { text in
            text.contains("net.request: 20%respond(status: 503)") ? 1 : nil
        }
        try tmux.send(session, keys: "R")
        _ = try await tmux.wait(for: "everything reverted", in: session) {
            $0.contains("everything reverted") ? 1 : nil
        }

        // From the picker, with nothing but what the screen shows: the palette finds the seam, Enter on it opens
        // its picker, Enter edits a spec; the cheat sheet shows 20% and the seam's respond(status,…).
        try await openPalette(tmux, session)
        try tmux.send(session, keys: "-l", "net.request")
        try tmux.send(session, keys: "Enter")
        _ = try await tmux.wait(for: "the picker on net.request", in: session) {
            $0.contains("Apply to net.request") ? 1 : nil
        }
        try tmux.send(session, keys: "Enter")
        let sheet = try await tmux.wait(for: "the grammar's cheat sheet", in: session) { (text: String) -> String? in
            text.contains("20%A a fifth of calls") && text.contains("respond(status") ? text : nil
        }
        #expect(sheet.contains("3*A the first 3"))
        try tmux.send(session, keys: "C-u")
        try tmux.send(session, keys: "-l", "20%resp")
        try tmux.send(session, keys: "Tab")
        _ = try await tmux.wait(for: "respond completed", in: session) { $0.contains("› 20%respond(") ? 1 : nil }
        try tmux.send(session, keys: "-l", "st")
        try tmux.send(session, keys: "Tab")
        _ = try await tmux.wait(for: "status completed", in: session) {
            $0.contains("› 20%respond(status: ") ? 1 : nil
        }
        try tmux.send(session, keys: "-l", "503")
        _ = try await tmux.wait(for: "the spec typed", in: session) {
            $0.contains("› 20%respond(status: 503") ? 1 : nil
        }
        try tmux.send(session, keys: "-l", ")")
        _ = try await tmux.wait(for: "the canonical form before Enter", in: session) {
            $0.contains("✓ 20%respond(status: 503)") ? 1 : nil
        }
        try tmux.send(session, keys: "Enter")
        _ = try await tmux.wait(for: "the rule applied from the picker", in: session) { text in
            text.contains("net.request: 20%respond(status: 503)") && !text.contains("Apply to net.request") ? 1 : nil
        }
    }
}
