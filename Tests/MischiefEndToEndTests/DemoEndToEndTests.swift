import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `mischief demo`, driven in tmux (UTF-8, 120×40) as a user would: keys in, screens out.
///
/// Every step waits for what it expects on the screen (polling `tmux capture-pane`, up to 20 s) and fails with the
/// last screen when it does not come. Each test has its own tmux server and a temporary directory for the files the
/// shell writes after the demo exits (its exit status, `stty -a`), which is also the demo's `XDG_CONFIG_HOME` and
/// working directory, so the user's profiles and themes stay out.
@Suite(.oneAtATime) struct DemoEndToEndTests {
    @Test func shiftPresetsRevertResizeAndQuit() async throws {
        let tmux = try TmuxServer()
        defer { tmux.kill() }
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = "demo"
        try tmux.start(
            session: session, width: 120, height: 40,
            command: Self.demo(seed: 7, in: directory, then: "echo $? > status; sleep 3600"))

        // The first seam, selected: Current time (clock.now), still untouched.
        let start = try await tmux.wait(for: "the demo's first screen", in: session) { text in
            let screen = DemoScreen(text)
            return screen.countdownDays != nil && screen.calls(of: "Current time") != nil ? screen : nil
        }
        let days = try #require(start.countdownDays)
        #expect(start.row(1).contains("target = wall"))

        // Space applies shift(1d): the target's date moves a day on, so Halley is a day closer.
        try tmux.send(session, keys: "Space")
        let shifted = try await tmux.wait(for: "the countdown to change after the shift", in: session) {
            (text: String) -> DemoScreen? in
            let screen = DemoScreen(text)
            guard screen.row(1).contains("+1d"), let now = screen.countdownDays, now != days else { return nil }
            return screen
        }
        #expect(shifted.countdownDays == days - 1, "countdown \(days) days before the shift")
        #expect(shifted.row(1).contains("target 20"))
        #expect(shifted.seamRows.contains(DemoScreen.SeamRow(title: "Current time", status: "active")))
        let calls = try #require(shifted.calls(of: "Current time"))
        let more = try await tmux.wait(for: "more calls than \(calls) to Current time", in: session) { text in
            DemoScreen(text).calls(of: "Current time").flatMap { $0 > calls ? $0 : nil }
        }
        #expect(more > calls)

        // Presets 2 and 3 together: both on, and the seams they set active.
        try tmux.send(session, keys: "2", "3")
        let applied = try await tmux.wait(for: "presets 2 (Tokyo) and 3 (German-length UI) on", in: session) {
            (text: String) -> Set<String>? in
            let screen = DemoScreen(text)
            let active = Set(screen.seamRows.filter { $0.status == "active" }.map(\.title))
            guard screen.profile(2, "Tokyo") == true, screen.profile(3, "German-length UI") == true,
                active.isSuperset(of: ["Current time", "Current location", "Localised strings"])
            else { return nil }
            return active
        }

        // R reverts everything: every entry that was active now shows reverted, the presets are off.
        try tmux.send(session, keys: "R")
        let reverted = try await tmux.wait(for: "everything reverted (was active: \(applied.sorted()))", in: session) {
            (text: String) -> DemoScreen? in
            let screen = DemoScreen(text)
            let rows = screen.seamRows
            let revertedTitles = Set(rows.filter { $0.status == "reverted" }.map(\.title))
            guard screen.statusLine.contains("everything reverted"), !rows.contains(where: { $0.status == "active" }),
                revertedTitles.isSuperset(of: applied), screen.profile(2, "Tokyo") == false,
                screen.profile(3, "German-length UI") == false, screen.countdownDays == days
            else { return nil }
            return screen
        }
        #expect(reverted.row(1).contains("target = wall"))

        // A small terminal still shows the header and the status line; back at full size the target pane returns.
        try tmux.resize(session, width: 60, height: 15)
        _ = try await tmux.wait(for: "the console redrawn at 60×15", in: session) { text in
            let screen = DemoScreen(text)
            return screen.lines.count == 15 && screen.row(0).contains("Mischief")
                && screen.row(14).contains("q quit") ? screen : nil
        }
        try tmux.resize(session, width: 120, height: 40)
        _ = try await tmux.wait(for: "the console redrawn at 120×40 with the target pane", in: session) { text in
            let screen = DemoScreen(text)
            return screen.lines.count == 40 && screen.row(0).contains("seed 7") && screen.countdownDays != nil
                && screen.row(39).contains("q quit") ? screen : nil
        }

        // q quits cleanly: the first says this session's changes are not saved (W writes them), the second quits.
        try tmux.send(session, keys: "q")
        _ = try await tmux.wait(for: "q to say the session is not saved", in: session) { text in
            text.contains("changes are not saved") ? true : nil
        }
        try tmux.send(session, keys: "q")
        let status = try await Poll.file(directory.appendingPathComponent("status")) { tmux.screen(session) }
        #expect(status == "0\n")
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let tmux = try TmuxServer()
        defer { tmux.kill() }
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = "term"
        // stty writes to a side file renamed when complete, so the test never reads half of it.
        try tmux.start(
            session: session, width: 120, height: 40,
            command: Self.demo(
                seed: 8, in: directory,
                then: "echo $? > status2; stty -a > stty.part; mv stty.part stty.txt; sleep 3600")
        )

        let pid = try await tmux.wait(for: "the demo's first screen with its pid", in: session) { text in
            let screen = DemoScreen(text)
            return screen.countdownDays != nil ? screen.pid : nil
        }
        try Self.expectMischief(pid)
        #expect(kill(pid, SIGTERM) == 0)

        let stty = try await Poll.file(directory.appendingPathComponent("stty.txt")) { tmux.screen(session) }
        let flags = Set(stty.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(flags.contains("echo") && !flags.contains("-echo"), "echo is on again:\n\(stty)")
        #expect(flags.contains("icanon") && !flags.contains("-icanon"), "canonical mode is on again:\n\(stty)")
        let status = try String(contentsOf: directory.appendingPathComponent("status2"), encoding: .utf8)
        #expect(status == "143\n", "128 + SIGTERM")
    }

    /// `sh -c` running the demo in `directory` (also its config home), then `after` there.
    private static func demo(seed: Int, in directory: URL, then after: String) -> [String] {
        let script = """
            cd \(quoted(directory.path)) && export TERM=xterm-256color XDG_CONFIG_HOME=\(quoted(directory.path)) \
            && \(quoted(CLI.binary.path)) demo --seed \(seed); \(after)
            """
        return ["sh", "-c", script]
    }

    /// `text` in single quotes for sh.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A fresh temporary directory.
    private static func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Checks that `pid`, read off the screen, is a `mischief` process before the test signals it.
    private static func expectMischief(_ pid: Int32) throws {
        let comm = URL(fileURLWithPath: "/proc/\(pid)/comm")
        guard FileManager.default.fileExists(atPath: "/proc/self/comm") else { return }
        let name = try? String(contentsOf: comm, encoding: .utf8)
        try #require(name == "mischief\n", "pid \(pid) from the header is not the demo (it is \(name ?? "gone"))")
    }
}
