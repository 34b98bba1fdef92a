import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mischief attach` in tmux (UTF-8, 100×30) over a `mischief demo --headless` of the test's own: keys in, screens
/// out, and the target checked independently with curl on its socket.
///
/// Every step waits for what it expects (polling the screen or the socket, with a deadline) and fails with what it
/// saw last.
@Suite(.oneAtATime) struct AttachEndToEndTests {
    /// Preset 2 (Tokyo) from the attached console is on in the console and in the target; when the console is
    /// killed (SIGKILL: no chance to clean up), the target ends its session and reverts what it changed.
    @Test func aKilledConsolesChangesAreReverted() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let tmux = try TmuxServer()
        defer { tmux.kill() }
        let session = "attach"
        // exec: the pane's process is the console itself.
        try tmux.start(session: session, width: 100, height: 30, command: Self.attach(demo, exec: true))
        let pid = try #require(try tmux.panePID(session).map(Int32.init))

        try await Self.waitForSeams(of: demo, in: session, on: tmux)
        try tmux.send(session, keys: "2")
        _ = try await tmux.wait(for: "preset 2 (Tokyo) on in the console", in: session) { text in
            let screen = DemoScreen(text)
            return screen.profile(2, "Tokyo") == true && screen.row(1).contains("profiles Tokyo")
                && screen.seamRows.contains(DemoScreen.SeamRow(title: "Current location", status: "active"))
                ? true : nil
        }
        #expect(try demo.behaviour(of: "location.current") == #"city("Tokyo")"#)
        let profiles = try #require(try demo.get("profiles") as? [[String: Any]])
        #expect(profiles.first { $0["name"] as? String == "Tokyo" }?["isOn"] as? Bool == true)

        #expect(kill(pid, SIGKILL) == 0)
        let ended = try await Poll.until("the target to end the console's session", lastSeen: { Self.lastEvents(demo) })
        {
            () -> String? in
            guard try demo.behaviour(of: "location.current") == nil else { return nil }
            return try demo.events().compactMap { $0["message"] as? String }
                .first { $0.contains("pid \(pid) (s") && $0.contains(" ended: ") }
        }
        #expect(ended.hasSuffix("ended: its events stream closed; reverted 1 change (profile Tokyo)"), "\(ended)")
        #expect(try demo.seam("location.current")["status"] as? String == "reverted")
        #expect(try (demo.get("sessions") as? [Any])?.isEmpty == true)
    }

    /// A target whose tasks block every thread of Swift's task pool (a deadlock: when people attach) still
    /// answers: reads and changes within 100 ms each (curl's own timing, without its start-up), `mischief list`,
    /// `apply` and `revert` work, and an attached console toggles a preset on and off in the target.
    @Test func theAPIAndAnAttachedConsoleWorkWhileTheTargetBlocksItsTaskPool() async throws {
        let demo = try await HeadlessDemo.startBlockingItsTaskPool()
        defer { demo.kill() }
        _ = try await Poll.until("the demo to block its task pool", lastSeen: { demo.process.errorText }) {
            demo.process.errorText.contains("task-pool threads are blocked") ? true : nil
        }
        // Under AddressSanitizer the server's work costs several times its CPU, and its 8% CPU budget stretches each
        // answer by as much (a change answered in 140–150 ms there); a stalled server would not answer at all.
        let bound = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil ? 0.1 : 0.5
        for (method, path, body) in [
            ("GET", "seams", ""), ("PUT", "seams/clock.now", "shift(+1d)"), ("DELETE", "seams/clock.now", ""),
        ] {
            // The best of three, so a machine busy with other work does not fail it; a stalled server never answers.
            let times = try (0..<3).map { _ in try demo.time(method, path, body: body) }
            #expect(times.min()! < bound, "\(method) /v1/\(path): \(times) s")
        }
        let list = try demo.mischief(["list", "--socket", demo.socket])
        #expect(list.status == 0 && list.output.contains("clock.now"), "\(list.error)")
        let applied = try demo.mischief(["apply", "clock.now", "shift(+1d)", "--socket", demo.socket])
        #expect(applied.status == 0, "\(applied.error)")
        #expect(try demo.behaviour(of: "clock.now") == "shift(1d)")
        let reverted = try demo.mischief(["revert", "clock.now", "--socket", demo.socket])
        #expect(reverted.status == 0, "\(reverted.error)")
        #expect(try demo.behaviour(of: "clock.now") == nil)

        let tmux = try TmuxServer()
        defer { tmux.kill() }
        let session = "blocked"
        try tmux.start(session: session, width: 100, height: 30, command: Self.attach(demo, exec: true))
        try await Self.waitForSeams(of: demo, in: session, on: tmux)
        try tmux.send(session, keys: "2")
        _ = try await Poll.until("Tokyo on in the target", lastSeen: { tmux.screen(session) }) {
            try demo.behaviour(of: "location.current") == #"city("Tokyo")"# ? true : nil
        }
        try tmux.send(session, keys: "2")
        _ = try await Poll.until("Tokyo off again in the target", lastSeen: { tmux.screen(session) }) {
            try demo.behaviour(of: "location.current") == nil ? true : nil
        }
    }

    /// `U` and `Ctrl-R` in an attached console undo and redo in the target, as they do in process: an apply from
    /// the palette, a revert from the palette (of a change made by `mischief apply`, someone else's), and a profile
    /// switch; each checked with `mischief list` on the target's socket.
    @Test func undoAndRedoChangeTheTargetFromAnAttachedConsole() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let tmux = try TmuxServer()
        defer { tmux.kill() }
        let session = "undo"
        try tmux.start(session: session, width: 100, height: 30, command: Self.attach(demo, exec: true))
        try await Self.waitForSeams(of: demo, in: session, on: tmux)

        func listed() throws -> String {
            let list = try demo.mischief(["list", "--socket", demo.socket])
            return list.output
        }
        func clock(_ expected: String?, _ what: String) async throws {
            _ = try await Poll.until(what, lastSeen: { "\(tmux.screen(session))\n\((try? listed()) ?? "")" }) {
                () -> Bool? in
                guard try demo.behaviour(of: "clock.now") == expected else { return nil }
                let line = try listed().split(separator: "\n").first { $0.contains("clock.now") } ?? ""
                return (expected.map { line.contains($0) } ?? !line.contains("shift")) ? true : nil
            }
        }
        func palette(_ line: String) async throws {
            try tmux.send(session, keys: ":")
            _ = try await tmux.wait(for: "the palette", in: session) { $0.contains("Commands ·") ? 1 : nil }
            try tmux.send(session, keys: "-l", line)
            _ = try await tmux.wait(for: "what Enter runs", in: session) { $0.contains("runs: \(line)") ? 1 : nil }
            try tmux.send(session, keys: "Enter")
        }

        try await palette("apply clock.now shift(+3h)")
        try await clock("shift(3h)", "the palette's apply in the target")
        try tmux.send(session, keys: "U")
        try await clock(nil, "U to revert it in the target")
        try tmux.send(session, keys: "C-r")
        try await clock("shift(3h)", "Ctrl-R to apply it again in the target")
        try tmux.send(session, keys: "U")
        try await clock(nil, "U again")

        // Someone else's change, reverted from the console, comes back with U.
        let applied = try demo.mischief(["apply", "clock.now", "shift(+1d)", "--socket", demo.socket])
        #expect(applied.status == 0, "\(applied.error)")
        try await clock("shift(1d)", "mischief apply")
        _ = try await tmux.wait(for: "the console to show it", in: session) {
            DemoScreen($0).seamRows.contains(DemoScreen.SeamRow(title: "Current time", status: "active")) ? 1 : nil
        }
        try await palette("revert clock.now")
        try await clock(nil, "the palette's revert")
        try tmux.send(session, keys: "U")
        try await clock("shift(1d)", "U to apply again what the revert took off")

        try tmux.send(session, keys: "2")
        _ = try await Poll.until("Tokyo on in the target", lastSeen: { tmux.screen(session) }) {
            try demo.behaviour(of: "location.current") == #"city("Tokyo")"# ? true : nil
        }
        try tmux.send(session, keys: "U")
        _ = try await Poll.until("U to switch Tokyo off in the target", lastSeen: { tmux.screen(session) }) {
            try demo.behaviour(of: "location.current") == nil ? true : nil
        }
        try tmux.send(session, keys: "C-r")
        _ = try await Poll.until("Ctrl-R to switch Tokyo on again", lastSeen: { tmux.screen(session) }) {
            try demo.behaviour(of: "location.current") == #"city("Tokyo")"# ? true : nil
        }
        #expect(try listed().contains("city(\"Tokyo\")"))
    }

    /// The header says when the target is gone; a new process on the same socket is another target, so the console
    /// never attaches to it (a key would change a program the user did not choose): the header says the target is
    /// gone and names the live ones, and `q` then quits with status 0 without touching the new target.
    /// A stopped target shows as lost at once, with its rows as last seen; the same program started again at that
    /// path is attached to by itself, the console says it restarted, and `a` switches on again what this console had
    /// switched on there.
    @Test func aStoppedTargetShowsAsLostAndItsRestartIsAttachedAgain() async throws {
        let demo = try await HeadlessDemo.start()
        defer { demo.kill() }
        let tmux = try TmuxServer()
        defer { tmux.kill() }
        let session = "lost"
        try tmux.start(session: session, width: 100, height: 30, command: Self.attach(demo, exec: false))
        try await Self.waitForSeams(of: demo, in: session, on: tmux)
        try tmux.send(session, keys: "2")
        _ = try await tmux.wait(for: "Tokyo switched on", in: session) {
            DemoScreen($0).profile(2, "Tokyo") == true ? true : nil
        }

        let old = demo.process.pid
        #expect(try await demo.stop(SIGTERM) == 0)
        _ = try await tmux.wait(for: "the header to show the connection lost, the clocks as last seen", in: session) {
            text in
            let screen = DemoScreen(text)
            return screen.row(0).contains("✕ lost") && !screen.row(0).contains("connected")
                && screen.row(1).contains("last seen") ? true : nil
        }

        let again = try await HeadlessDemo.start(in: demo.directory, seed: 12)
        defer { again.kill() }
        let new = again.process.pid
        _ = try await tmux.wait(for: "the console to attach to the restarted demo and say so", in: session) { text in
            let screen = DemoScreen(text)
            return screen.row(0).contains("pid \(new)") && screen.row(0).contains("● connected")
                && text.contains("demo restarted: pid \(old) → \(new), without this console's 1 change")
                && text.contains("a apply again")
                ? true : nil
        }
        #expect(try again.behaviour(of: "location.current") == nil, "nothing is applied before `a`")
        try tmux.send(session, keys: "a")
        _ = try await tmux.wait(for: "Tokyo switched on again on the new process", in: session) {
            DemoScreen($0).profile(2, "Tokyo") == true ? true : nil
        }
        #expect(try again.behaviour(of: "location.current") != nil)

        try tmux.send(session, keys: "q")
        _ = try await tmux.wait(for: "q to say the session is not saved", in: session) { text in
            text.contains("changes are not saved") ? true : nil
        }
        try tmux.send(session, keys: "q")
        let status = try await Poll.file(demo.directory.appendingPathComponent("status")) { tmux.screen(session) }
        #expect(status == "0\n")
    }

    /// Waits until the console shows the demo's seams and presets, connected.
    private static func waitForSeams(of demo: HeadlessDemo, in session: String, on tmux: TmuxServer) async throws {
        _ = try await tmux.wait(for: "the console to show the demo's seams", in: session) { text in
            let screen = DemoScreen(text)
            let titles = Set(screen.seamRows.map(\.title))
            return screen.row(0).contains("pid \(demo.process.pid)") && screen.row(0).contains("● connected")
                && titles.isSuperset(of: ["Current time", "Current location", "Localised strings"])
                && screen.profile(2, "Tokyo") == false ? true : nil
        }
    }

    /// `sh -c` running `mischief attach` on the demo's socket in its directory, with its environment; with `exec`
    /// the console replaces the shell (so the pane's pid is the console's), else the shell writes its exit status to
    /// `status` and stays.
    private static func attach(_ demo: HeadlessDemo, exec: Bool) -> [String] {
        let exports = HeadlessDemo.environment(in: demo.directory).merging(["TERM": "xterm-256color"]) { $1 }
            .sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted($0.value))" }.joined(separator: " ")
        let attach = "\(quoted(CLI.binary.path)) attach \(quoted(demo.socket))"
        let run = exec ? "exec \(attach)" : "\(attach); echo $? > status; sleep 3600"
        return ["sh", "-c", "cd \(quoted(demo.directory.path)) && export \(exports) && \(run)"]
    }

    /// `text` in single quotes for sh.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The demo's last events, for a failure message.
    private static func lastEvents(_ demo: HeadlessDemo) -> String {
        ((try? demo.events(8)) ?? []).map { "\($0["kind"] ?? "?"): \($0["message"] ?? "?")" }.joined(separator: "\n")
    }
}
